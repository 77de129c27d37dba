import { memo, useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { Link, useLocation } from 'react-router';
import type { Priority } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { checkEmail } from '#shared/validation.ts';
import { Button } from '#web/components/button.tsx';
import { EmailField } from '#web/components/field.tsx';
import { cx } from '#web/lib/cx.ts';
import { useTaskHighlight } from '../api/live-board-context.ts';
import { isPendingTask } from '../api/task-cache.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { DeadlineText } from './deadline-text.tsx';
import { PriorityBadge, PrioritySelect } from './priority.tsx';
import './task-card.css';

export interface EditDraft {
  id: string;
  assignee: string;
  priority: Priority;
  /**
   * The task as it was when editing began: the save is based on it (its version), so a change
   * someone else made meanwhile answers 409 and opens the conflict dialog instead of being
   * overwritten.
   */
  base: Task;
}

export interface TaskCardProps {
  task: Task;
  now: Date;
  /** Set when this card is the one being edited (one card at a time). */
  draft: EditDraft | null;
  onEdit: (task: Task) => void;
  onDraftChange: (draft: EditDraft) => void;
  onEditEnd: () => void;
  onDelete: (task: Task) => void;
  'aria-posinset'?: number;
  'aria-setsize'?: number;
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true">
      <path fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" d="m3.5 8.5 3 3 6-7" />
    </svg>
  );
}

function PencilIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true">
      <path fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" d="M10.5 2.5 13.5 5.5 6 13H3v-3l7.5-7.5Z" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M2.5 4.5h11M6.5 4.5V3h3v1.5M4 4.5l.7 8.6a1 1 0 0 0 1 .9h4.6a1 1 0 0 0 1-.9l.7-8.6"
      />
    </svg>
  );
}

function ReopenIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true">
      <path fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" d="M3 8a5 5 0 1 0 1.5-3.6M3 2.5v2.5h2.5" />
    </svg>
  );
}

/** The card's title opens the task page; the board's filters stay in the address behind it. */
function TaskLink({ task }: { task: Task }) {
  const { search } = useLocation();
  return (
    <Link className="task-card__link" to={{ pathname: `/tasks/${encodeURIComponent(task._id)}`, search }} state={{ fromBoard: true }}>
      {task.taskTitle}
    </Link>
  );
}

function TaskEditForm({
  task,
  draft,
  onDraftChange,
  onEditEnd,
}: {
  task: Task;
  draft: EditDraft;
  onDraftChange: (draft: EditDraft) => void;
  onEditEnd: (saved: boolean) => void;
}) {
  const update = useUpdateTask();
  const [fieldError, setFieldError] = useState<string | null>(null);
  const assigneeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    assigneeRef.current?.focus();
    assigneeRef.current?.select();
  }, []);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = checkEmail(draft.assignee);
    if (!email.ok) {
      setFieldError(draft.assignee.trim() === '' ? 'Enter the assignee’s e-mail address.' : email.message);
      assigneeRef.current?.focus();
      return;
    }
    setFieldError(null);
    const base = draft.base;
    if (email.value === base.assignee && draft.priority === base.priority) {
      onEditEnd(false);
      return;
    }
    // Shown at once; a failure rolls the card back and says why, a conflict opens its dialog.
    const changes = {
      ...(email.value === base.assignee ? {} : { assignee: email.value }),
      ...(draft.priority === base.priority ? {} : { priority: draft.priority }),
    };
    update.mutate({ task: base, changes });
    onEditEnd(true);
  };

  return (
    <form
      className="task-edit"
      onSubmit={onSubmit}
      noValidate
      aria-label={`Edit ${task.taskTitle}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onEditEnd(false);
        }
      }}
    >
      <div className="task-edit__fields">
        <EmailField
          ref={assigneeRef}
          label="Assignee"
          autoComplete="off"
          required
          value={draft.assignee}
          error={fieldError}
          onChange={(event) => {
            onDraftChange({ ...draft, assignee: event.target.value });
          }}
        />
        <PrioritySelect
          value={draft.priority}
          onChange={(priority) => {
            onDraftChange({ ...draft, priority });
          }}
        />
      </div>
      <div className="task-edit__actions">
        <Button type="submit" variant="primary" size="sm">
          Save
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            onEditEnd(false);
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** One task. An `article` named by its title, so it can be found and read as a unit. */
export const TaskCard = memo(function TaskCard({
  task,
  now,
  draft,
  onEdit,
  onDraftChange,
  onEditEnd,
  onDelete,
  ...position
}: TaskCardProps) {
  const titleId = useId();
  const done = task.status === 'done';
  const complete = useUpdateTask();
  const highlighted = useTaskHighlight(task._id);
  const pending = isPendingTask(task);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const returnFocusToEdit = useRef(false);
  const editing = draft !== null;

  useEffect(() => {
    if (!editing && returnFocusToEdit.current) {
      returnFocusToEdit.current = false;
      editButtonRef.current?.focus();
    }
  }, [editing]);

  const onStatus = () => {
    complete.mutate({ task, changes: { status: done ? 'todo' : 'done' } });
  };

  return (
    <article
      className={cx(
        'task-card',
        `priority--${task.priority}`,
        done && 'task-card--done',
        editing && 'task-card--editing',
        highlighted && 'task-card--changed',
      )}
      aria-labelledby={titleId}
      aria-busy={pending || undefined}
      {...position}
    >
      <div className="task-card__top">
        {task.workTitle ? <p className="task-card__work">{task.workTitle}</p> : null}
        <PriorityBadge priority={task.priority} />
      </div>
      <h3 className="task-card__title" id={titleId}>
        {done ? (
          <span className="task-card__done-mark" title="Completed">
            <CheckIcon />
          </span>
        ) : null}
        <TaskLink task={task} />
      </h3>
      <dl className="task-card__meta">
        <div>
          <dt>Assignee</dt>
          <dd className="task-card__email" title={task.assignee}>
            {task.assignee}
          </dd>
        </div>
        <div>
          <dt>Assignor</dt>
          <dd>{task.assignor}</dd>
        </div>
        <div className="task-card__deadline">
          <dt>Deadline</dt>
          <dd>
            <DeadlineText deadline={task.deadline} done={done} now={now} />
          </dd>
        </div>
      </dl>
      {draft ? (
        <TaskEditForm
          task={task}
          draft={draft}
          onDraftChange={onDraftChange}
          onEditEnd={() => {
            returnFocusToEdit.current = true;
            onEditEnd();
          }}
        />
      ) : (
        <div className="task-card__actions">
          {done ? (
            <Button size="sm" variant="secondary" icon={<ReopenIcon />} disabled={pending} onClick={onStatus}>
              Reopen
            </Button>
          ) : (
            <Button size="sm" variant="secondary" icon={<CheckIcon />} disabled={pending} onClick={onStatus}>
              Mark complete
            </Button>
          )}
          <span className="task-card__spacer" />
          <Button
            ref={editButtonRef}
            size="sm"
            variant="ghost"
            icon={<PencilIcon />}
            disabled={pending}
            onClick={() => {
              onEdit(task);
            }}
          >
            <span className="task-card__action-label">Edit</span>
          </Button>
          <Button
            size="sm"
            variant="danger-ghost"
            icon={<TrashIcon />}
            disabled={pending}
            onClick={() => {
              onDelete(task);
            }}
          >
            <span className="task-card__action-label">Delete</span>
          </Button>
        </div>
      )}
    </article>
  );
});
