import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { TextAreaField } from '#web/components/field.tsx';
import { LoadingLine } from '#web/components/spinner.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { dateTimeFormat, formatNumber } from '#web/lib/locale-format.ts';
import { submitQueued } from '#web/lib/write-queue.ts';
import { heldMailNote, isPendingComment, useChangeComment } from '../api/change-comments.ts';
import type { Comment } from '#shared/schemas/comments.ts';
import { COMMENT_MAX, useComments } from '../api/get-comments.ts';
import { usePeople } from '../api/get-people.ts';
import { useMentionAutocomplete } from './mention-autocomplete.tsx';
import { MentionText } from './mention-text.tsx';
import './task-comments.css';

/** The same rule as the server's: trimmed, 1 to COMMENT_MAX characters (the words made when said). */
function checkBody(raw: string): string | null {
  const body = raw.trim();
  if (body === '') return t`Write something first.`;
  if (body.length > COMMENT_MAX) {
    const most = formatNumber(COMMENT_MAX);
    return t`${plural(COMMENT_MAX, { one: `A comment can be at most ${most} character.`, other: `A comment can be at most ${most} characters.` })}`;
  }
  return null;
}

function CommentEditor({
  taskId,
  label,
  initial,
  submitLabel,
  busyLabel,
  busy,
  error,
  onSubmit,
  onCancel,
  autoFocus = false,
}: {
  taskId: string;
  label: string;
  initial: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (body: string, reset: () => void) => void;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionAutocomplete(taskId, ref, text, setText);
  const { t } = useLingui();
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const bad = checkBody(text);
    setProblem(bad);
    if (bad) {
      ref.current?.focus();
      return;
    }
    onSubmit(text.trim(), () => {
      setText('');
    });
  };

  return (
    <form
      className="comment-editor"
      onSubmit={submit}
      noValidate
      aria-label={label}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <TextAreaField
        ref={ref}
        label={label}
        rows={3}
        value={text}
        error={problem ?? error}
        hint={t`Type @ to mention someone who can see this task.`}
        {...mentions.inputProps}
        onChange={(event) => {
          setText(event.target.value);
          mentions.update(event.target.value, event.target.selectionStart);
        }}
      />
      {mentions.list}
      <div className="comment-editor__actions">
        <Button type="submit" variant="primary" size="sm" busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
        {onCancel ? (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function CommentItem({ taskId, comment, mine, onChanged }: { taskId: string; comment: Comment; mine: boolean; onChanged?: () => void }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm'>('view');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const change = useChangeComment(taskId, onChanged);
  const people = usePeople(taskId, comment.mentions.length > 0);
  const created = new Date(comment.createdAt);
  const edited = comment.updatedAt !== comment.createdAt;
  const onError = (failure: unknown) => {
    if (!isUnauthorized(failure)) setError(errorText(failure));
  };
  const { t } = useLingui();
  const author = comment.author.fullName;

  return (
    <li className="comment">
      <article aria-label={t`Comment by ${author}`}>
        <header className="comment__head">
          <strong dir="auto">{author}</strong>
          {mine ? (
            <span className="comment__you">
              <Trans comment="After the name of a comment’s author: the comment is the viewer’s own">(you)</Trans>
            </span>
          ) : null}
          <time dateTime={comment.createdAt}>{dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(created)}</time>
          {edited ? (
            <span className="comment__edited">
              <Trans comment="Marks a comment changed since it was posted">edited</Trans>
            </span>
          ) : null}
        </header>
        {mode === 'edit' ? (
          <CommentEditor
            taskId={taskId}
            label={t`Edit comment`}
            initial={comment.body}
            submitLabel={t`Save`}
            busyLabel={t`Saving…`}
            busy={change.isPending}
            error={error}
            autoFocus
            onCancel={() => {
              setError(null);
              setMode('view');
            }}
            onSubmit={(body) => {
              setError(null);
              if (body === comment.body) {
                setMode('view');
                return;
              }
              const view = () => {
                setMode('view');
              };
              submitQueued(change.mutate, { kind: 'update', commentId: comment._id, body }, view, {
                onSuccess: (written) => {
                  setNote(heldMailNote(written));
                  view();
                },
                onError,
              });
            }}
          />
        ) : (
          <MentionText className="comment__body" text={comment.body} mentions={comment.mentions} people={people.data ?? []} />
        )}
        {mode !== 'edit' && error ? <Alert tone="error">{error}</Alert> : null}
        {mode === 'view' && note ? <Alert tone="info">{note}</Alert> : null}
        {/* A comment not saved yet (waiting in the queue) has no id of the server's to change it by. */}
        {mine && mode === 'view' && !isPendingComment(comment) ? (
          <div className="comment__actions">
            <Button
              size="sm"
              variant="ghost"
              aria-label={t`Edit comment`}
              onClick={() => {
                setMode('edit');
              }}
            >
              <Trans comment="Edits a comment">Edit</Trans>
            </Button>
            <Button
              size="sm"
              variant="danger-ghost"
              aria-label={t`Delete comment`}
              onClick={() => {
                setError(null);
                setMode('confirm');
              }}
            >
              <Trans comment="Deletes a comment">Delete</Trans>
            </Button>
          </div>
        ) : null}
        <ConfirmDialog
          open={mode === 'confirm'}
          onClose={() => {
            setMode('view');
          }}
          title={t`Delete this comment?`}
          body={t`This cannot be undone.`}
          confirmLabel={t`Delete comment`}
          cancelLabel={t`Keep it`}
          onConfirm={() => {
            // Taken off at once (a refusal brings it back with the reason).
            change.mutate({ kind: 'delete', commentId: comment._id }, { onError });
            setMode('view');
          }}
        />
      </article>
    </li>
  );
}

/**
 * A task's comments, oldest first, and a form to post one. The signed-in person (`me`, named `myName`) can
 * edit and delete their own; everyone else's are read-only (the server enforces the same).
 */
export function TaskComments({ taskId, me, myName, onChanged }: { taskId: string; me: string; myName?: string; onChanged?: () => void }) {
  const comments = useComments(taskId);
  const post = useChangeComment(taskId, onChanged);
  const [error, setError] = useState<string | null>(null);
  // Mention mail the sender's hourly cap held back: the comment is written, the mail is not.
  const [note, setNote] = useState<string | null>(null);
  const { t } = useLingui();
  const count = comments.data ? formatNumber(comments.data.length) : null;
  const reason = comments.isError ? errorText(comments.error) : '';

  return (
    <section className="task-section comments" aria-labelledby="task-comments-heading">
      <h3 id="task-comments-heading">
        {count === null ? (
          <Trans>Comments</Trans>
        ) : (
          <Trans>
            Comments<span className="comments__count"> ({count})</span>
          </Trans>
        )}
      </h3>
      {comments.isPending ? (
        <LoadingLine>
          <Trans>Loading comments…</Trans>
        </LoadingLine>
      ) : comments.isError ? (
        <RetryAlert onRetry={() => void comments.refetch()}>
          <Trans>Couldn’t load the comments. {reason}</Trans>
        </RetryAlert>
      ) : comments.data.length === 0 ? (
        <p className="comments__empty">
          <Trans>No comments yet.</Trans>
        </p>
      ) : (
        <ol className="comments__list">
          {comments.data.map((comment) => (
            <CommentItem key={comment._id} taskId={taskId} comment={comment} mine={comment.author.email === me} onChanged={onChanged} />
          ))}
        </ol>
      )}
      <CommentEditor
        taskId={taskId}
        label={t`Add a comment`}
        initial=""
        submitLabel={t`Post comment`}
        busyLabel={t`Posting…`}
        // Busy while being sent; while it waits offline it already shows in the list (and another may be written).
        busy={post.isPending && !post.isPaused}
        error={error}
        onSubmit={(body, reset) => {
          setError(null);
          setNote(null);
          // Shown on the comment until the server's copy arrives (it waits in the queue while offline).
          const author = { fullName: myName ?? me, email: me };
          submitQueued(post.mutate, { kind: 'create', body, author }, reset, {
            onSuccess: (written) => {
              reset();
              setNote(heldMailNote(written));
            },
            onError: (failure) => {
              if (!isUnauthorized(failure)) setError(errorText(failure));
            },
          });
        }}
      />
      {note ? <Alert tone="info">{note}</Alert> : null}
    </section>
  );
}
