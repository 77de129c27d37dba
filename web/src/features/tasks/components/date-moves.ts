import { t } from '@lingui/core/macro';
import { useCallback, useMemo, useState } from 'react';
import { viewerTimeZone, type DayKey, type WeekStart } from '#shared/calendar-dates.ts';
import type { Task, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { inlineStep } from '#web/lib/direction.ts';
import { errorText } from '#web/lib/error-text.ts';
import { dateTimeFormat, weekStartDay } from '#web/lib/locale-format.ts';
import { conflictingTask, useUpdateTask } from '../api/update-task.ts';

/*
 * What the calendar and the timeline share: the viewer's calendar (time zone and week start),
 * and a change of a task's dates saved as any task change is (update-task.ts: shown at once,
 * queued, rolled back when refused), with the server's words for a refusal and a sentence for
 * screen readers once a move is made.
 */

export interface ViewerCalendar {
  timeZone: string;
  weekStart: WeekStart;
}

/**
 * The device's time zone (read once per mount) and the week's first day: the account's choice,
 * else its language's (lib/locale-format.ts).
 */
export function useViewerCalendar(): ViewerCalendar {
  const timeZone = useMemo(() => viewerTimeZone(), []);
  const weekStart = weekStartDay() as WeekStart;
  return useMemo(() => ({ timeZone, weekStart }), [timeZone, weekStart]);
}

// Day keys are calendar days: formatted as midnight UTC of that day, in UTC.
const LONG_DAY: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' };
const SHORT_DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', timeZone: 'UTC' };

/** "Friday, 13 March 2026" (long) or "13 Mar", in the viewer's language. */
export function formatDay(key: DayKey, long = true): string {
  return dateTimeFormat(long ? LONG_DAY : SHORT_DAY).format(new Date(`${key}T00:00:00Z`));
}

/** "17:00" or "5:00 PM" (the account's clock): the time of day `iso` shows in `timeZone`. */
export function formatTimeOfDay(iso: string, timeZone: string): string {
  return dateTimeFormat({ hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(iso));
}

/**
 * The keys that move a task's date by keyboard: Alt with an arrow. Left and right are the day
 * on that side on screen (`element`'s): right to left, the day on the left is the next one.
 */
export function arrowSteps(key: string, element?: Element | null): { days: number; weeks: number } | null {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowRight':
      return { days: inlineStep(key, element), weeks: 0 };
    case 'ArrowUp':
      return { days: 0, weeks: -1 };
    case 'ArrowDown':
      return { days: 0, weeks: 1 };
    default:
      return null;
  }
}

/** Saves new dates of `task`; `sentence` is announced. */
export type DateSave = (task: Task, changes: Pick<UpdateTaskBody, 'deadline' | 'startAt'>, sentence: string) => void;

/**
 * Saves new dates of a task. `said`: what a screen reader hears once the change is made (the
 * view shows it at once). A refusal puts the task back (the update's own rollback) and `error`
 * holds the server's message until the next change or `dismiss`.
 */
export function useDateMoves() {
  const update = useUpdateTask({ quiet: true });
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const { mutate } = update;
  const save = useCallback<DateSave>(
    (task, changes, sentence) => {
      setError(null);
      setSaid(sentence);
      mutate(
        { task, changes },
        {
          onError: (failure) => {
            // A 409 opens the conflict dialog (update-task.ts); a 401 is the session's to handle.
            if (isUnauthorized(failure) || conflictingTask(failure)) return;
            const title = task.taskTitle;
            const why = errorText(failure);
            setError(t`Couldn’t save “${title}”. ${why}`);
            setSaid('');
          },
        },
      );
    },
    [mutate],
  );
  const dismiss = useCallback(() => {
    setError(null);
  }, []);
  return { save, error, said, dismiss };
}
