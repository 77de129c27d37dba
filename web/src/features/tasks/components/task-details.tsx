import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { LIMITS } from '#shared/constants.ts';
import { canEditTasks } from '#shared/rights.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { SelectField, TextAreaField, type SelectFieldProps } from '#web/components/field.tsx';
import { LinkedText } from '#web/components/linked-text.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useNow } from '#web/lib/use-now.ts';
import { submitQueued } from '#web/lib/write-queue.ts';
import { useBoardNames } from '../api/board-names.ts';
import { useBoardScope, useCanChangeTask, useStatusColumn, writableBoards } from '../api/board-scope.ts';
import { useMoveTask } from '../api/move-task.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { formatDeadline, formatDeadlineFull, formatRelative } from '../utils/deadline.ts';
import { DeadlineText } from './deadline-text.tsx';
import { PriorityBadge } from './priority.tsx';
import { TaskLabelsField } from './task-labels.tsx';
import { TaskRepeat } from './task-repeat.tsx';
import './task-details.css';

/** The description's limit (plain text, never rendered as HTML). */
const DESCRIPTION_MAX = LIMITS.descriptionMax;

export function Timestamp({ iso, now }: { iso: string; now: Date }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={formatDeadlineFull(date)}>
      {formatRelative(date, now)}
    </time>
  );
}

/** When the work starts, in the viewer's locale and time zone; "None" when unset. */
function StartText({ startAt, now }: { startAt: string | null; now: Date }) {
  if (startAt === null) {
    return (
      <span className="task-details__none">
        <Trans comment="A task’s start, when it has none">None</Trans>
      </span>
    );
  }
  const date = new Date(startAt);
  return (
    <time dateTime={startAt} title={formatDeadlineFull(date)}>
      {formatDeadline(date, now)}
    </time>
  );
}

function DescriptionEditor({ task, onDone }: { task: Task; onDone: () => void }) {
  const [text, setText] = useState(task.description);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateTask({ quiet: true });
  const textRef = useRef<HTMLTextAreaElement>(null);
  const { t } = useLingui();
  const most = formatNumber(DESCRIPTION_MAX);
  const length = formatNumber(text.length);
  // The editor opens on the person's request: take them straight to the text.
  useEffect(() => {
    textRef.current?.focus();
  }, []);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (text.length > DESCRIPTION_MAX) {
      setError(t`The description can be at most ${most} characters.`);
      return;
    }
    if (text === task.description) {
      onDone();
      return;
    }
    setError(null);
    submitQueued(update.mutate, { task, changes: { description: text } }, onDone, {
      onSuccess: onDone,
      onError: (failure) => {
        if (!isUnauthorized(failure)) setError(errorText(failure));
      },
    });
  };

  return (
    <form
      className="task-details__editor"
      onSubmit={onSubmit}
      noValidate
      aria-label={t`Edit description`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onDone();
        }
      }}
    >
      <TextAreaField
        label={t`Description`}
        hint={t({ message: `${length} / ${most} characters. Plain text; web addresses become links.`, comment: 'Under the description being edited: its length against its limit' })}
        error={error}
        rows={8}
        ref={textRef}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
        }}
      />
      <div className="task-details__editor-actions">
        <Button type="submit" variant="primary" size="sm" busy={update.isPending}>
          {update.isPending ? <Trans>Saving…</Trans> : <Trans>Save description</Trans>}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

/** The task's board: the viewer's own (with their role), else its names when the viewer may know them. */
function useTaskBoard(task: Task) {
  const { boards } = useBoardScope();
  const current = boards?.find((board) => board._id === task.boardId);
  // A board the viewer is not on (the task is assigned to them): its names, which they may know.
  const other = useBoardNames(task.boardId, boards !== undefined && current === undefined);
  return { boards, current, other };
}

/** A select that moves the task (to a board, to a column), named for screen readers: the term above it says what it holds. */
function PlaceSelect({ label, ...select }: SelectFieldProps) {
  return (
    <dd>
      <SelectField label={<span className="visually-hidden">{label}</span>} fieldClassName="task-details__board" {...select} />
    </dd>
  );
}

/**
 * The task's board, and for whoever may change the task a select that moves it to another of
 * their boards (admin or member there). A conflict opens the conflict dialog as any edit does.
 */
function BoardField({ task, canChange }: { task: Task; canChange: boolean }) {
  const { boards, current, other } = useTaskBoard(task);
  const move = useUpdateTask({ quiet: true });
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const elsewhere = other === undefined ? t`A board you are not on` : displayName(other.name);
  const targets = writableBoards(boards);
  const canMove = canChange && targets.length > 0 && (targets.length > 1 || targets[0]?._id !== task.boardId);
  if (!canMove) {
    return (
      <dd>
        {current ? displayName(current.name) : other ? elsewhere : <span className="task-details__none">{elsewhere}</span>}
      </dd>
    );
  }
  return (
    <PlaceSelect
      label={<Trans>Move to board</Trans>}
      value={task.boardId}
      error={error}
      disabled={move.isPending}
      onChange={(event) => {
        const boardId = event.target.value;
        if (boardId === task.boardId) return;
        setError(null);
        move.mutate(
          { task, changes: { boardId } },
          {
            onError: (failure) => {
              if (!isUnauthorized(failure)) setError(errorText(failure));
            },
          },
        );
      }}
    >
      {current ? null : <option value={task.boardId}>{elsewhere}</option>}
      {current && !canEditTasks(current.role) ? <option value={current._id}>{displayName(current.name)}</option> : null}
      {targets.map((board) => (
        <option key={board._id} value={board._id}>
          {displayName(board.name)}
        </option>
      ))}
    </PlaceSelect>
  );
}

/**
 * The task's column on its board, and for whoever may change the task a select that moves it to
 * the top of another column (as Alt+←/→ on its card does; into a `done` column completes it).
 * A board the viewer is not on names its column only.
 */
function ColumnField({ task, canChange }: { task: Task; canChange: boolean }) {
  const { current, other } = useTaskBoard(task);
  const move = useMoveTask();
  const columns = (current ?? other)?.columns;
  const here = columns?.find((column) => column._id === task.columnId);
  if (!columns || !here) return <dd />;
  if (!canChange || current === undefined || columns.length < 2) return <dd>{displayName(here.name)}</dd>;
  return (
    <PlaceSelect
      label={<Trans>Move to column</Trans>}
      value={here._id}
      onChange={(event) => {
        const target = columns.find((column) => column._id === event.target.value);
        if (!target || target._id === task.columnId) return;
        // The card shows in its new column at once; a refusal is said by the queue's notices.
        move.mutate({ task, columnId: target._id, category: target.category, afterId: null });
      }}
    >
      {columns.map((column) => (
        <option key={column._id} value={column._id}>
          {displayName(column.name)}
        </option>
      ))}
    </PlaceSelect>
  );
}

/**
 * Every field of one task, its description (editable) and the complete / reopen action. The
 * title is the page's or panel's heading, so it is not repeated here.
 */
export function TaskDetails({ task }: { task: Task }) {
  const now = useNow(30_000);
  const [editing, setEditing] = useState(false);
  const status = useUpdateTask({ quiet: true });
  const [statusError, setStatusError] = useState<string | null>(null);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      editButtonRef.current?.focus();
    }
  }, [editing]);
  const done = task.status === 'done';
  const description = task.description;
  const canChange = useCanChangeTask(task);
  const statusColumn = useStatusColumn(task, done ? 'todo' : 'done');
  const { t } = useLingui();

  const onStatus = () => {
    setStatusError(null);
    status.mutate(
      { task, changes: { status: done ? 'todo' : 'done' }, columnId: statusColumn },
      {
        onError: (failure) => {
          if (!isUnauthorized(failure)) setStatusError(errorText(failure));
        },
      },
    );
  };

  return (
    <div className="task-details">
      {statusError ? <Alert tone="error">{statusError}</Alert> : null}
      <div className="task-details__status">
        <span className={done ? 'status-pill status-pill--done' : 'status-pill'}>
          {done ? t({ message: 'Completed', context: 'Task status' }) : t({ message: 'To do', context: 'Task status' })}
        </span>
        <PriorityBadge priority={task.priority} />
        <span className="task-details__spacer" />
        {canChange ? (
          <Button size="sm" variant="secondary" busy={status.isPending} onClick={onStatus}>
            {/* While the change waits (offline, it may for a while) the button names the change under way, not the one it would make. */}
            {status.isPending ? (
              status.variables.changes.status === 'done' ? (
                <Trans>Completing…</Trans>
              ) : (
                <Trans>Reopening…</Trans>
              )
            ) : done ? (
              <Trans comment="Button that marks a completed task as to do again">Reopen</Trans>
            ) : (
              <Trans>Mark complete</Trans>
            )}
          </Button>
        ) : null}
      </div>

      <dl className="task-details__fields">
        <div>
          <dt>
            <Trans comment="The board the task is on">Board</Trans>
          </dt>
          <BoardField task={task} canChange={canChange} />
        </div>
        <div>
          <dt>
            <Trans>Column</Trans>
          </dt>
          <ColumnField task={task} canChange={canChange} />
        </div>
        <div>
          <dt>
            <Trans>Labels</Trans>
          </dt>
          <TaskLabelsField task={task} />
        </div>
        <div>
          <dt>
            <Trans>Work title</Trans>
          </dt>
          <dd dir="auto">
            {task.workTitle || (
              <span className="task-details__none">
                <Trans comment="A task’s work title, when it has none">None</Trans>
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Assignee</Trans>
          </dt>
          <dd className="task-details__email" dir="auto">
            {task.assignee}
          </dd>
        </div>
        <div>
          <dt>
            <Trans comment="The person who assigned the task">Assignor</Trans>
          </dt>
          <dd>
            <bdi>{task.assignor}</bdi>{' '}
            <span className="task-details__email">
              (<bdi>{task.assignorEmail}</bdi>)
            </span>
          </dd>
        </div>
        <div>
          <dt>
            <Trans comment="When the work on the task starts">Start</Trans>
          </dt>
          <dd>
            <StartText startAt={task.startAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Deadline</Trans>
          </dt>
          <dd>
            <DeadlineText deadline={task.deadline} done={done} now={now} />
          </dd>
        </div>
        <div className="task-details__repeat">
          <dt>
            <Trans comment="How often the task repeats">Repeat</Trans>
          </dt>
          <dd>
            <TaskRepeat task={task} canChange={canChange} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans comment="When the task was created">Created</Trans>
          </dt>
          <dd>
            <Timestamp iso={task.createdAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Last changed</Trans>
          </dt>
          <dd>
            <Timestamp iso={task.updatedAt} now={now} />
          </dd>
        </div>
      </dl>

      <section className="task-details__description" aria-labelledby="task-description-heading">
        <div className="task-details__section-head">
          <h3 id="task-description-heading">
            <Trans>Description</Trans>
          </h3>
          {editing || !canChange ? null : (
            <Button
              ref={editButtonRef}
              size="sm"
              variant="ghost"
              onClick={() => {
                setEditing(true);
              }}
            >
              <Trans>Edit description</Trans>
            </Button>
          )}
        </div>
        {editing ? (
          <DescriptionEditor
            task={task}
            onDone={() => {
              returnFocus.current = true;
              setEditing(false);
            }}
          />
        ) : description ? (
          <LinkedText className="task-details__text" text={description} />
        ) : (
          <p className="task-details__none">
            <Trans>No description yet.</Trans>
          </p>
        )}
      </section>
    </div>
  );
}
