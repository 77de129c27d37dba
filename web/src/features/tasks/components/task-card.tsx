import { Trans, useLingui } from '@lingui/react/macro';
import { memo, useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { LabelChips } from '#web/features/labels/components/label-chips.tsx';
import { cx } from '#web/lib/cx.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useCanChangeTask, useStatusColumn } from '../api/board-scope.ts';
import { useTaskHighlight } from '../api/live-board-context.ts';
import { isPendingTask } from '../api/pending-tasks.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { useCardKeys, useCardPlace, useTaskPath, type MoveDirection } from './card-behaviour.ts';
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
  /** Alt+arrows on the focused card: the board moves it (none where cards are not moved). */
  onMoveKey?: ((task: Task, direction: MoveDirection) => void) | undefined;
  'aria-posinset'?: number;
  'aria-setsize'?: number;
}

/** Labels a card shows on its one line of chips; "+N" names the rest. */
const CARD_LABELS_SHOWN = 3;

/** The card's title opens the task page; the board's filters stay in the address behind it. */
export function TaskLink({ task, className = 'task-card__link' }: { task: Task; className?: string }) {
  // Not a drag of its own: a link is draggable by default, and a drag begun on it (the card's
  // largest target, where a finger's long press most often lands) would carry the link's address
  // instead of moving the card, which is the draggable around it.
  return (
    <Link className={className} to={useTaskPath(task)} state={{ fromBoard: true }} draggable={false}>
      {task.taskTitle}
    </Link>
  );
}

/** In "All my tasks": the board a card is on, and its column there. */
export function CardPlace({ task }: { task: Task }) {
  const place = useCardPlace(task);
  if (!place) return null;
  const boardName = displayName(place.boardName);
  const columnName = place.columnName === undefined ? undefined : displayName(place.columnName);
  return (
    <p className="task-card__board">
      {columnName === undefined ? (
        <Trans comment="On a card of “All my tasks”: the board the task is on; “Board:” is read by screen readers only">
          <span className="visually-hidden">Board: </span>
          {boardName}
        </Trans>
      ) : (
        <Trans comment="On a card of “All my tasks”: the board and the column the task is in; “Board:” and “, column:” are read by screen readers only, the dot is shown only">
          <span className="visually-hidden">Board: </span>
          {boardName}
          <span aria-hidden="true"> · </span>
          <span className="visually-hidden">, column: </span>
          {columnName}
        </Trans>
      )}
    </p>
  );
}

/**
 * The image chosen as the task's cover, above the card's text: decoration (the task page names
 * its files), its size given so the board does not shift as it loads.
 */
function CardCover({ cover }: { cover: NonNullable<Task['cover']> }) {
  return <img className="task-card__cover" src={cover.thumbnailUrl} width={cover.width} height={cover.height} alt="" loading="lazy" draggable={false} />;
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
  onMoveKey,
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
  const canChange = useCanChangeTask(task);
  const statusColumn = useStatusColumn(task, done ? 'todo' : 'done');
  const keys = useCardKeys(task, canChange && !pending ? onMoveKey : undefined);
  const { t } = useLingui();

  useEffect(() => {
    if (!editing && returnFocusToEdit.current) {
      returnFocusToEdit.current = false;
      editButtonRef.current?.focus();
    }
  }, [editing]);

  const onStatus = () => {
    complete.mutate({ task, changes: { status: done ? 'todo' : 'done' }, columnId: statusColumn });
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
      {...keys.cardProps}
      {...position}
    >
      {/* Picked by Shift+click for the bulk bar: said as well as shown (the ring). */}
      {keys.selected ? (
        <span className="visually-hidden">
          <Trans comment="Said of a card picked for the bulk bar">Selected.</Trans>
        </span>
      ) : null}
      {task.cover ? <CardCover cover={task.cover} /> : null}
      <div className="task-card__top">
        {task.workTitle ? <p className="task-card__work">{task.workTitle}</p> : null}
        {/* "All my tasks" mixes boards: each card says which one it is on, and in which column. */}
        <CardPlace task={task} />
        <TaskCardMarks task={task} />
        <PriorityBadge priority={task.priority} />
      </div>
      <h3 className="task-card__title" id={titleId}>
        {done ? (
          <span className="task-card__done-mark" title={t({ message: 'Completed', context: 'Task status' })}>
            <CheckIcon />
          </span>
        ) : null}
        <TaskLink task={task} />
      </h3>
      <LabelChips labels={task.labels} max={CARD_LABELS_SHOWN} />
      <dl className="task-card__meta">
        <div>
          <dt>
            <Trans>Assignee</Trans>
          </dt>
          <dd className="task-card__email" title={task.assignee}>
            {task.assignee}
          </dd>
        </div>
        <div>
          <dt>
            <Trans comment="The person who assigned the task">Assignor</Trans>
          </dt>
          <dd>{task.assignor}</dd>
        </div>
        <div className="task-card__deadline">
          <dt>
            <Trans>Deadline</Trans>
          </dt>
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
              <Trans comment="Button that marks a completed task as to do again">Reopen</Trans>
            </Button>
          ) : (
            <Button size="sm" variant="secondary" icon={<CheckIcon />} disabled={pending} onClick={onStatus}>
              <Trans>Mark complete</Trans>
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
            <span className="task-card__action-label">
              <Trans comment="Button that opens the card’s inline edit of assignee, priority and start">Edit</Trans>
            </span>
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
            <span className="task-card__action-label">
              <Trans comment="Button that deletes the task">Delete</Trans>
            </span>
          </Button>
        </div>
      ) : null}
    </article>
  );
});
