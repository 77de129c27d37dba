import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type SubmitEvent } from 'react';
import { describeRepeat, sameRepeat } from '#shared/repeat.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { isApiError, isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { submitQueued } from '#web/lib/write-queue.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { readRepeat, RepeatField, repeatDraftOf } from './repeat-field.tsx';

/**
 * The task page's "Repeat": the interval in words and, for whoever may change the task, an
 * editor. A refusal (400 for `repeat`: no deadline) is shown by the field; a conflict opens the
 * conflict dialog as any edit does.
 */
export function TaskRepeat({ task, canChange }: { task: Task; canChange: boolean }) {
  const [draft, setDraft] = useState(() => repeatDraftOf(task.repeat));
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateTask({ quiet: true });
  const { t } = useLingui();
  const text = task.repeat ? describeRepeat(task.repeat) : t`Does not repeat`;

  if (!editing) {
    return (
      <span className="task-repeat">
        <span className={task.repeat ? undefined : 'task-details__none'}>{text}</span>
        {canChange ? (
          <Button
            size="sm"
            variant="ghost"
            className="task-repeat__change"
            aria-label={t({ message: `Change repeat: ${text}`, comment: 'Button that opens the editor of how often the task repeats; the placeholder is the interval in words' })}
            onClick={() => {
              setDraft(repeatDraftOf(task.repeat));
              setError(null);
              setEditing(true);
            }}
          >
            <Trans comment="Button that opens the editor of how often the task repeats">Change</Trans>
          </Button>
        ) : null}
      </span>
    );
  }

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const repeat = readRepeat(draft);
    if (!repeat.ok) {
      setError(repeat.message);
      return;
    }
    if (sameRepeat(repeat.value, task.repeat)) {
      setEditing(false);
      return;
    }
    setError(null);
    const close = () => {
      setEditing(false);
    };
    submitQueued(update.mutate, { task, changes: { repeat: repeat.value } }, close, {
      onSuccess: close,
      onError: (failure) => {
        if (isUnauthorized(failure)) return;
        const byField = isApiError(failure) ? failure.errors.find((item) => item.field === 'repeat')?.message : undefined;
        setError(byField ?? errorText(failure));
      },
    });
  };

  return (
    <form
      className="task-repeat__editor"
      onSubmit={onSubmit}
      noValidate
      aria-label={t`Change repeat`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          setEditing(false);
        }
      }}
    >
      <RepeatField value={draft} onChange={setDraft} hasDeadline={task.deadline !== null} error={error} legendHidden />
      <div className="task-details__editor-actions">
        <Button type="submit" size="sm" variant="primary" busy={update.isPending}>
          {update.isPending ? <Trans>Saving…</Trans> : <Trans>Save repeat</Trans>}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setEditing(false);
          }}
        >
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
