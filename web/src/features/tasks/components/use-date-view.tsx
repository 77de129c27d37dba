import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useId, useState, type KeyboardEvent } from 'react';
import { dayKeyOf, type DayKey } from '#shared/calendar-dates.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Button } from '#web/components/button.tsx';
import { formatNumber } from '#web/lib/locale-format.ts';
import { useNow } from '#web/lib/use-now.ts';
import type { BoardFilter } from '../api/board-filter.ts';
import { useCanChangeTask } from '../api/board-scope.ts';
import { isPendingTask } from '../api/pending-tasks.ts';
import { useViewTasks } from '../api/view-tasks.ts';
import { useTaskPath } from './card-behaviour.ts';
import { arrowSteps, useDateMoves, useViewerCalendar } from './date-moves.ts';

/*
 * What the calendar and the timeline both are: the filter's tasks read at once, in the viewer's
 * calendar, around a day that Previous, Today and Next move (`anchor`), with each change of a
 * task's dates saved through useDateMoves and said in the view's notices (view-notices.tsx); and
 * the controls and keys both offer.
 */

/** The state both date views start from; `notices` are ViewNotices' props but the note's class. */
export function useDateView(filter: BoardFilter) {
  const { data, error, isPending, refetch } = useViewTasks(filter);
  const { timeZone, weekStart } = useViewerCalendar();
  const now = useNow(60_000);
  const today = dayKeyOf(now.getTime(), timeZone);
  const [anchor, setAnchor] = useState<DayKey>(today);
  const moves = useDateMoves();
  const hintId = useId();
  const titleId = useId();
  /** The list beside the dated tasks (no deadline, not scheduled). */
  const asideId = useId();
  const notices = {
    said: moves.said,
    moveError: moves.error,
    onDismiss: moves.dismiss,
    error,
    onRetry: () => {
      void refetch();
    },
    truncated: data?.truncated ?? false,
  };
  return {
    tasks: data?.tasks,
    isPending,
    /** Reading, or not all read yet. */
    busy: isPending || data?.complete === false,
    timeZone,
    weekStart,
    now,
    today,
    anchor,
    setAnchor,
    save: moves.save,
    hintId,
    titleId,
    asideId,
    notices,
  };
}

/** Where a task's chip or bar leads, and whether the viewer may change its dates now. */
export function useDatedTask(task: Task): { to: ReturnType<typeof useTaskPath>; canChange: boolean } {
  const to = useTaskPath(task);
  const canChange = useCanChangeTask(task) && !isPendingTask(task);
  return { to, canChange };
}

/** Alt with an arrow alone (and `enabled`): handled here, `move` given the days (a week up or down is 7). */
export function onAltArrow(event: KeyboardEvent, enabled: boolean, move: (days: number) => void): void {
  const steps = event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey ? arrowSteps(event.key, event.currentTarget) : null;
  if (!steps || !enabled) return;
  event.preventDefault();
  move(steps.days + 7 * steps.weeks);
}

/** A group of buttons of which the one chosen is pressed. */
export function PressedButtons<T extends string>({
  label,
  className,
  options,
  value,
  onChange,
}: {
  label: string;
  className: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div className={className} role="group" aria-label={label}>
      {options.map((option) => (
        <Button
          key={option.value}
          size="sm"
          variant={value === option.value ? 'primary' : 'secondary'}
          aria-pressed={value === option.value}
          onClick={() => {
            onChange(option.value);
          }}
        >
          {option.label}
        </Button>
      ))}
    </div>
  );
}

/**
 * Previous, Today and Next; `unit` (the calendar's month or week) ends the names of the first
 * and last for screen readers ("Previous month").
 */
export function RangeSteps({ label, className, unit, onStep, onToday }: { label: string; className: string; unit?: 'month' | 'week'; onStep: (direction: -1 | 1) => void; onToday: () => void }) {
  return (
    <div className={className} role="group" aria-label={label}>
      <Button
        size="sm"
        onClick={() => {
          onStep(-1);
        }}
      >
        {unit === 'month' ? (
          <Trans comment="Button that shows the month before; “month” is read by screen readers only">
            Previous <span className="visually-hidden">month</span>
          </Trans>
        ) : unit === 'week' ? (
          <Trans comment="Button that shows the week before; “week” is read by screen readers only">
            Previous <span className="visually-hidden">week</span>
          </Trans>
        ) : (
          <Trans comment="Button that shows the range of days before">Previous</Trans>
        )}
      </Button>
      <Button size="sm" onClick={onToday}>
        <Trans comment="Button that shows the range of days around today">Today</Trans>
      </Button>
      <Button
        size="sm"
        onClick={() => {
          onStep(1);
        }}
      >
        {unit === 'month' ? (
          <Trans comment="Button that shows the month after; “month” is read by screen readers only">
            Next <span className="visually-hidden">month</span>
          </Trans>
        ) : unit === 'week' ? (
          <Trans comment="Button that shows the week after; “week” is read by screen readers only">
            Next <span className="visually-hidden">week</span>
          </Trans>
        ) : (
          <Trans comment="Button that shows the range of days after">Next</Trans>
        )}
      </Button>
    </div>
  );
}

/** Said under a list cut at `shown` of `total` tasks; null when nothing was cut. Called at render, in the language in use. */
export function moreNote(total: number, shown: number): string | null {
  if (total <= shown) return null;
  const more = formatNumber(total - shown);
  return t`And ${more} more: search or filter to find them.`;
}
