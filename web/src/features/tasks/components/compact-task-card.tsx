import { Trans, useLingui } from '@lingui/react/macro';
import { memo, useId } from 'react';
import type { Task } from '#shared/schemas/tasks.ts';
import { LabelChips } from '#web/features/labels/components/label-chips.tsx';
import { cx } from '#web/lib/cx.ts';
import { initialsOf } from '#web/lib/initials.ts';
import { useCanChangeTask, useMemberName } from '../api/board-scope.ts';
import { useTaskHighlight } from '../api/live-board-context.ts';
import { isPendingTask } from '../api/pending-tasks.ts';
import { deadlineState, formatDeadline, formatDeadlineFull } from '../utils/deadline.ts';
import { useCardKeys, type MoveDirection } from './card-behaviour.ts';
import { PRIORITY_PHRASES, PriorityIcon } from './priority.tsx';
import { CardPlace, TaskLink } from './task-card.tsx';
import { TaskCardMarks } from './task-card-marks.tsx';
import './deadline-text.css';
import './compact-task-card.css';

export interface CompactTaskCardProps {
  task: Task;
  now: Date;
  onMoveKey?: ((task: Task, direction: MoveDirection) => void) | undefined;
  'aria-posinset'?: number;
  'aria-setsize'?: number;
}

/** Labels a compact card shows; "+N" names the rest. */
const COMPACT_LABELS_SHOWN = 2;

/**
 * The compact card: title, labels, the assignee's initials, the deadline (overdue said in
 * words), the priority mark, checklist progress and repeat mark, in about a third of a detailed
 * card's height. A click or Enter opens the task page, where every detail and action is.
 */
export const CompactTaskCard = memo(function CompactTaskCard({ task, now, onMoveKey, ...position }: CompactTaskCardProps) {
  const titleId = useId();
  const done = task.status === 'done';
  const pending = isPendingTask(task);
  const highlighted = useTaskHighlight(task._id);
  const canChange = useCanChangeTask(task);
  const keys = useCardKeys(task, canChange && !pending ? onMoveKey : undefined);
  const deadline = task.deadline === null ? null : new Date(task.deadline);
  const state = deadline ? deadlineState(deadline, done, now) : null;
  const { i18n } = useLingui();
  const priority = i18n._(PRIORITY_PHRASES[task.priority]);
  const assignee = task.assignee;
  // The board's member strip draws the same person with the same letters.
  const assigneeName = useMemberName(assignee);

  return (
    <article
      className={cx('task-card', 'task-card--compact', `priority--${task.priority}`, done && 'task-card--done', highlighted && 'task-card--changed')}
      aria-labelledby={titleId}
      aria-busy={pending || undefined}
      {...keys.cardProps}
      {...position}
    >
      {/* Picked by Shift+click for the bulk bar: said as well as shown (the ring). */}
      {keys.selected ? (
        <span className="visually-hidden">
          <Trans comment="Said of a card picked for a change of many tasks">Selected.</Trans>
        </span>
      ) : null}
      <div className="compact-card__head">
        <span className="compact-card__priority" title={priority}>
          <PriorityIcon priority={task.priority} />
          <span className="visually-hidden">{priority}</span>
        </span>
        <h3 className="compact-card__title" id={titleId}>
          <TaskLink task={task} className="task-card__link compact-card__link" />
        </h3>
      </div>
      <CardPlace task={task} />
      <LabelChips labels={task.labels} max={COMPACT_LABELS_SHOWN} className="compact-card__labels" />
      <div className="compact-card__meta">
        <span className="compact-card__assignee" title={task.assignee}>
          <span aria-hidden="true">{initialsOf({ fullName: assigneeName, email: assignee })}</span>
          <span className="visually-hidden">
            <Trans>Assignee: {assignee}</Trans>
          </span>
        </span>
        {deadline && state ? (
          <span className={cx('compact-card__deadline', `deadline--${state}`)}>
            {state === 'overdue' ? (
              <strong className="deadline__flag">
                <Trans>Overdue</Trans>
              </strong>
            ) : null}
            <time dateTime={deadline.toISOString()} title={formatDeadlineFull(deadline)}>
              {formatDeadline(deadline, now)}
            </time>
          </span>
        ) : null}
        <TaskCardMarks task={task} />
      </div>
    </article>
  );
});
