import { Trans, useLingui } from '@lingui/react/macro';
import { memo, useEffect, useId, useRef, type MouseEvent } from 'react';
import { createPath } from 'react-router';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { LabelChips } from '#web/features/labels/components/label-chips.tsx';
import { cx } from '#web/lib/cx.ts';
import { useLatestRouter } from '#web/lib/latest-router.tsx';
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

/**
 * The card's title opens the task page; the board's filters stay in the address behind it. A
 * plain anchor rather than the router's `Link`: every card on screen re-renders its link when the
 * address changes (a filter, a search keystroke), and `Link` re-renders through four of the
 * router's hooks (5 ms of a filter switch on "All my tasks"). The click is handled as `Link`
 * handles it: a plain left click navigates in the app; with a modifier key, or another button,
 * the browser does what it does with a link (a new tab, a new window).
 */
export function TaskLink({ task, className = 'task-card__link' }: { task: Task; className?: string }) {
  const to = useTaskPath(task);
  const router = useLatestRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void router().navigate(to, { state: { fromBoard: true } });
  };
  // Not a drag of its own: a link is draggable by default, and a drag begun on it (the card's
  // largest target, where a finger's long press most often lands) would carry the link's address
  // instead of moving the card, which is the draggable around it.
  return (
    <a className={className} href={createPath(to)} onClick={onClick} draggable={false} dir="auto">
      {task.taskTitle}
    </a>
  );
}

/** In "All my tasks": the board a card is on, and its column there. */
export function CardPlace({ task }: { task: Task }) {
  const place = useCardPlace(task);
  if (!place) return null;
  // Each name is isolated in the sentence: it reads in its own direction (decision 180).
  const boardName = <bdi>{displayName(place.boardName)}</bdi>;
  const columnName = place.columnName === undefined ? undefined : <bdi>{displayName(place.columnName)}</bdi>;
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

/**
 * One task. An `article` named by its title, so it can be found and read as a unit. The article
 * (its place in the list, selection, highlight and keys) and its content are two memoized parts:
 * the list's size changing when the counts arrive re-renders the article alone.
 */
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
  const highlighted = useTaskHighlight(task._id);
  const pending = isPendingTask(task);
  const canChange = useCanChangeTask(task);
  const keys = useCardKeys(task, canChange && !pending ? onMoveKey : undefined);

  return (
    <article
      className={cx(
        'task-card',
        `priority--${task.priority}`,
        task.status === 'done' && 'task-card--done',
        draft !== null && 'task-card--editing',
        highlighted && 'task-card--changed',
      )}
      aria-labelledby={titleId}
      aria-busy={pending || undefined}
      {...keys.cardProps}
      {...position}
    >
      <TaskCardContent
        task={task}
        now={now}
        draft={draft}
        titleId={titleId}
        selected={keys.selected}
        canChange={canChange}
        pending={pending}
        onEdit={onEdit}
        onDraftChange={onDraftChange}
        onEditEnd={onEditEnd}
        onDelete={onDelete}
      />
    </article>
  );
});

interface TaskCardContentProps extends Pick<TaskCardProps, 'task' | 'now' | 'draft' | 'onEdit' | 'onDraftChange' | 'onEditEnd' | 'onDelete'> {
  /** The id of the title, which names the card's article. */
  titleId: string;
  selected: boolean;
  canChange: boolean;
  pending: boolean;
}

/** What a card shows inside its article. */
const TaskCardContent = memo(function TaskCardContent({ task, now, draft, titleId, selected, canChange, pending, onEdit, onDraftChange, onEditEnd, onDelete }: TaskCardContentProps) {
  const done = task.status === 'done';
  const complete = useUpdateTask();
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const returnFocusToEdit = useRef(false);
  const editing = draft !== null;
  const statusColumn = useStatusColumn(task, done ? 'todo' : 'done');
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
    <>
      {/* Picked by Shift+click for the bulk bar: said as well as shown (the ring). */}
      {selected ? (
        <span className="visually-hidden">
          <Trans comment="Said of a card picked for the bulk bar">Selected.</Trans>
        </span>
      ) : null}
      {task.cover ? <CardCover cover={task.cover} /> : null}
      <div className="task-card__top">
        {task.workTitle ? (
          <p className="task-card__work" dir="auto">
            {task.workTitle}
          </p>
        ) : null}
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
          <dd className="task-card__email" title={task.assignee} dir="auto">
            {task.assignee}
          </dd>
        </div>
        <div>
          <dt>
            <Trans comment="The person who assigned the task">Assignor</Trans>
          </dt>
          <dd dir="auto">{task.assignor}</dd>
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
    </>
  );
});
