import { memo, useEffect, useId, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { LabelChips } from '#web/features/labels/components/label-chips.tsx';
import { cx } from '#web/lib/cx.ts';
import { boardPath, useBoardScope, useCanChangeTask } from '../api/board-scope.ts';
import { useTaskHighlight } from '../api/live-board-context.ts';
import { isPendingTask } from '../api/pending-tasks.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { DeadlineText } from './deadline-text.tsx';
import { PriorityBadge } from './priority.tsx';
import { CheckIcon, PencilIcon, ReopenIcon, TrashIcon } from './task-card-icons.tsx';
import { TaskCardMarks } from './task-card-marks.tsx';
import { TaskEditForm, type EditDraft } from './task-edit-form.tsx';
import './task-card.css';

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

/** Labels a card shows on its one line of chips; "+N" names the rest. */
const CARD_LABELS_SHOWN = 3;

/** The card's title opens the task page; the board's filters stay in the address behind it. */
function TaskLink({ task, boardId }: { task: Task; boardId: string | null }) {
  const { search } = useLocation();
  // On a board the task opens over that board (its address keeps the board).
  const pathname = boardId ? `${boardPath(boardId)}/tasks/${encodeURIComponent(task._id)}` : `/tasks/${encodeURIComponent(task._id)}`;
  return (
    <Link className="task-card__link" to={{ pathname, search }} state={{ fromBoard: true }}>
      {task.taskTitle}
    </Link>
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
  const { boards, boardId } = useBoardScope();
  const canChange = useCanChangeTask(task);
  // "All my tasks" mixes boards: each card says which one it is on.
  const boardName = boardId === null ? boards?.find((board) => board._id === task.boardId)?.name : undefined;

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
        {boardName === undefined ? null : (
          <p className="task-card__board">
            <span className="visually-hidden">Board: </span>
            {boardName}
          </p>
        )}
        <TaskCardMarks task={task} />
        <PriorityBadge priority={task.priority} />
      </div>
      <h3 className="task-card__title" id={titleId}>
        {done ? (
          <span className="task-card__done-mark" title="Completed">
            <CheckIcon />
          </span>
        ) : null}
        <TaskLink task={task} boardId={boardId} />
      </h3>
      <LabelChips labels={task.labels} max={CARD_LABELS_SHOWN} />
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
      ) : canChange ? (
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
      ) : null}
    </article>
  );
});
