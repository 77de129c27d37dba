import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { draggable, dropTargetForElements, monitorForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { addDays, addMonths, dayKeyOf, defaultDueOn, monthGrid, moveToDay, shiftByDays, weekDays, type DayKey } from '#shared/calendar-dates.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { cx } from '#web/lib/cx.ts';
import { dateTimeFormat, formatNumber } from '#web/lib/locale-format.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { formatDay, formatTimeOfDay, type DateSave } from './date-moves.ts';
import { moreNote, onAltArrow, PressedButtons, RangeSteps, useDatedTask, useDateView } from './use-date-view.tsx';
import type { ViewProps } from './view-props.ts';
import { ViewNotices } from './view-notices.tsx';
import './calendar-view.css';

/*
 * Tasks by deadline on a month or week grid, in the viewer's time zone and week start (a phone
 * gets the same days as an agenda, one under the other). A task moves to another day by drag
 * and drop, or by Alt+arrow keys on its chip (a day left or right, a week up or down); either
 * way it keeps its time of day. Tasks without a deadline wait in a list beside the grid.
 */

type CalendarMode = 'month' | 'week';
const MODES: { value: CalendarMode; label: MessageDescriptor }[] = [
  { value: 'month', label: msg({ message: 'Month', comment: 'The calendar showing a month' }) },
  { value: 'week', label: msg({ message: 'Week', comment: 'The calendar showing a week' }) },
];
const CALENDAR_DRAG = 'taskwise-calendar-task';
interface FocusRequest {
  taskId: string;
  day: DayKey;
}
/** The most undated tasks listed beside the grid (a filter may hold thousands). */
const UNDATED_SHOWN = 200;
/** Narrower than a phone's landscape width: the agenda instead of the grid. */
const PHONE_QUERY = '(max-width: 599px)';

// Formats of day keys (midnight UTC of the day, in UTC), made in the language in use when drawn.
const MONTH_TITLE: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric', timeZone: 'UTC' };
const WEEK_TITLE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const WEEKDAY_NAME: Intl.DateTimeFormatOptions = { weekday: 'short', timeZone: 'UTC' };
const utcDate = (key: DayKey) => new Date(`${key}T00:00:00Z`);

/** A task's chip: its title and time, a link to its page, dragged (or moved by Alt+arrows) to another day. */
function TaskChip({
  task,
  timeZone,
  now,
  hintId,
  focusRequest,
  onKeyMove,
  onFocused,
}: {
  task: Task;
  timeZone: string;
  now: number;
  hintId: string;
  /** A chip moved by keyboard, and the day it moved to. */
  focusRequest: FocusRequest | null;
  onKeyMove: (task: Task, days: number) => void;
  /** The chip took the focus it was asked to: asked no more (a later redraw must not take it again). */
  onFocused: () => void;
}) {
  const ref = useRef<HTMLAnchorElement>(null);
  const { to, canChange } = useDatedTask(task);
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || !canChange) return;
    return draggable({
      element,
      getInitialData: () => ({ [CALENDAR_DRAG]: true, taskId: task._id }),
      onDragStart: () => {
        setDragging(true);
      },
      onDrop: () => {
        setDragging(false);
      },
    });
  }, [task._id, canChange]);
  // A chip moved by keyboard is drawn again in its new day: the focus follows it there.
  // Only once the chip is drawn in that day (the change shows a moment after the key).
  const day = task.deadline === null ? null : dayKeyOf(task.deadline, timeZone);
  useEffect(() => {
    if (focusRequest?.taskId !== task._id || focusRequest.day !== day) return;
    ref.current?.focus();
    onFocused();
  }, [focusRequest, task._id, day, onFocused]);

  const done = task.status === 'done';
  const overdue = !done && task.deadline !== null && Date.parse(task.deadline) < now;
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
    onAltArrow(event, canChange, (days) => {
      onKeyMove(task, days);
    });
  };
  return (
    <Link
      ref={ref}
      to={to}
      state={{ fromBoard: true }}
      className={cx('calendar-chip', done && 'calendar-chip--done', overdue && 'calendar-chip--overdue', dragging && 'calendar-chip--dragging')}
      aria-describedby={canChange ? hintId : undefined}
      onKeyDown={onKeyDown}
    >
      {overdue ? (
        <span className="calendar-chip__flag" aria-hidden="true">
          !
        </span>
      ) : null}
      {done ? (
        <svg className="calendar-chip__check" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
          <path fill="currentColor" d="M13.3 4.3a1 1 0 0 1 0 1.4l-6 6a1 1 0 0 1-1.4 0l-3-3a1 1 0 1 1 1.4-1.4L6.6 9.6l5.3-5.3a1 1 0 0 1 1.4 0Z" />
        </svg>
      ) : null}
      {task.deadline ? <span className="calendar-chip__time">{formatTimeOfDay(task.deadline, timeZone)}</span> : null}
      <span className="calendar-chip__title" dir="auto">{task.taskTitle}</span>
      {done ? (
        <span className="visually-hidden">
          <Trans comment="After a task's title in the calendar">, completed</Trans>
        </span>
      ) : overdue ? (
        <span className="visually-hidden">
          <Trans comment="After a task's title in the calendar">, overdue</Trans>
        </span>
      ) : null}
    </Link>
  );
}

/** Gives `task` a deadline on `day`: its own time of day, or 17:00 when it had none (nothing when it is due that day already). */
function moveTo(task: Task, day: DayKey, timeZone: string, save: DateSave): void {
  if (task.deadline !== null && dayKeyOf(task.deadline, timeZone) === day) return;
  const deadline = task.deadline === null ? defaultDueOn(day, timeZone) : moveToDay(task.deadline, day, timeZone);
  const title = task.taskTitle;
  const date = formatDay(day);
  const time = formatTimeOfDay(deadline, timeZone);
  save(task, { deadline }, i18n._(msg`“${title}” is now due ${date}, ${time}.`));
}

/** A day that takes dropped chips; `children` are its chips. */
function DropDay({ day, className, label, children }: { day: DayKey; className: string; label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [over, setOver] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    return dropTargetForElements({
      element,
      canDrop: ({ source }) => source.data[CALENDAR_DRAG] === true,
      getData: () => ({ day }),
      onDragEnter: () => {
        setOver(true);
      },
      onDragLeave: () => {
        setOver(false);
      },
      onDrop: () => {
        setOver(false);
      },
    });
  }, [day]);
  return (
    <div ref={ref} role="group" aria-label={label} className={cx(className, over && 'calendar-drop--over')} data-day={day}>
      {children}
    </div>
  );
}

/**
 * A day of the month grid shows at most this many chips: past that, the first MONTH_DAY_SHOWN and
 * a button for the rest, so the month keeps its shape and draws as fast with 60 tasks a day as
 * with 2. The week and the phone's agenda show every chip.
 */
const MONTH_DAY_CHIPS = 4;
const MONTH_DAY_SHOWN = 3;

export default function CalendarView({ filter }: ViewProps) {
  const { t } = useLingui();
  const { tasks, isPending, busy, timeZone, weekStart, now: nowDate, today, anchor, setAnchor, save, hintId, titleId, asideId: undatedId, notices } = useDateView(filter);
  const now = nowDate.getTime();
  const [mode, setMode] = useState<CalendarMode>('month');
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  // The days of the month grid opened to show all their chips.
  const [openDays, setOpenDays] = useState<ReadonlySet<DayKey>>(() => new Set());
  const openDay = (day: DayKey, open: boolean) => {
    setOpenDays((days) => {
      const next = new Set(days);
      if (open) next.add(day);
      else next.delete(day);
      return next;
    });
  };
  const phone = useMediaQuery(PHONE_QUERY);

  const weeks = useMemo(() => (mode === 'month' ? monthGrid(anchor, weekStart) : [weekDays(anchor, weekStart)]), [mode, anchor, weekStart]);
  const monthPrefix = anchor.slice(0, 7);
  const visible = useMemo(() => new Set(weeks.flat()), [weeks]);

  const { byDay, undated } = useMemo(() => {
    const days = new Map<DayKey, Task[]>();
    const none: Task[] = [];
    for (const task of tasks ?? []) {
      if (task.deadline === null) {
        none.push(task);
        continue;
      }
      const day = dayKeyOf(task.deadline, timeZone);
      const list = days.get(day);
      if (list) list.push(task);
      else days.set(day, [task]);
    }
    for (const list of days.values()) list.sort((a, b) => Date.parse(a.deadline ?? '') - Date.parse(b.deadline ?? ''));
    return { byDay: days, undated: none };
  }, [tasks, timeZone]);
  // The days a phone lists: the month's own days, or the week's; before today only those with a
  // task. A deadline is never set in the past, so an empty past day is neither news nor a place
  // to drop a task, and a month opened near its end would start with weeks of "Nothing due".
  const agendaDays = useMemo(
    () => weeks.flat().filter((day) => (mode === 'week' || day.startsWith(monthPrefix)) && (day >= today || byDay.has(day))),
    [weeks, mode, monthPrefix, today, byDay],
  );

  // Set up again when the tasks change: a drop reads the newest copy of the task.
  useEffect(
    () =>
      monitorForElements({
        canMonitor: ({ source }) => source.data[CALENDAR_DRAG] === true,
        onDrop: ({ source, location }) => {
          const day = location.current.dropTargets[0]?.data.day;
          const task = tasks?.find((t) => t._id === source.data.taskId);
          if (typeof day === 'string' && task) moveTo(task, day, timeZone, save);
        },
      }),
    [tasks, timeZone, save],
  );

  const onKeyMove = (task: Task, days: number) => {
    // A task without a deadline is given one counted from today.
    const deadline = task.deadline === null ? defaultDueOn(addDays(today, days), timeZone) : shiftByDays(task.deadline, days, timeZone);
    const day = dayKeyOf(deadline, timeZone);
    moveTo(task, day, timeZone, save);
    if (!visible.has(day)) setAnchor(day);
    // Never into a folded day, where the chip could not take the focus.
    openDay(day, true);
    // The chip is drawn again in its new day, and takes the focus there.
    setFocusRequest({ taskId: task._id, day });
  };

  const onFocused = useCallback(() => {
    setFocusRequest(null);
  }, []);

  const step = (direction: -1 | 1) => {
    setAnchor(mode === 'month' ? addMonths(anchor, direction) : addDays(anchor, 7 * direction));
  };
  const title =
    mode === 'month'
      ? dateTimeFormat(MONTH_TITLE).format(utcDate(anchor))
      : dateTimeFormat(WEEK_TITLE).formatRange(utcDate(weeks[0]?.[0] ?? anchor), utcDate(weeks[0]?.[6] ?? anchor));
  const modes = MODES.map((option) => ({ value: option.value, label: i18n._(option.label) }));

  const chips = (list: readonly Task[] | undefined) =>
    list && list.length > 0 ? (
      <ul className="calendar__chips">
        {list.map((task) => (
          <li key={task._id}>
            <TaskChip task={task} timeZone={timeZone} now={now} hintId={hintId} focusRequest={focusRequest} onKeyMove={onKeyMove} onFocused={onFocused} />
          </li>
        ))}
      </ul>
    ) : null;

  /** A day's chips in the grid: a month's day with many shows a few and a button for the rest. */
  const monthDayChips = (day: DayKey) => {
    const list = byDay.get(day);
    if (mode !== 'month' || list === undefined || list.length <= MONTH_DAY_CHIPS) return chips(list);
    const open = openDays.has(day);
    const hidden = list.length - MONTH_DAY_SHOWN;
    const dayName = formatDay(day);
    return (
      <>
        {chips(open ? list : list.slice(0, MONTH_DAY_SHOWN))}
        <button
          type="button"
          className="calendar__more"
          aria-expanded={open}
          data-more={open ? 0 : hidden}
          onClick={() => {
            openDay(day, !open);
          }}
        >
          {open ? (
            <Trans>
              Show fewer <span className="visually-hidden">due {dayName}</span>
            </Trans>
          ) : (
            <Trans>
              <Plural value={hidden} one="# more" other="# more" /> <span className="visually-hidden">due {dayName}</span>
            </Trans>
          )}
        </button>
      </>
    );
  };

  return (
    <section className="calendar" aria-labelledby={titleId}>
      <div className="calendar__toolbar">
        <h2 id={titleId} className="calendar__title" aria-live="polite">
          {title}
        </h2>
        <PressedButtons label={t`Calendar range`} className="calendar__modes" options={modes} value={mode} onChange={setMode} />
        <RangeSteps
          label={t`Move through the calendar`}
          className="calendar__steps"
          unit={mode}
          onStep={step}
          onToday={() => {
            setAnchor(today);
          }}
        />
      </div>
      <p id={hintId} className="visually-hidden">
        <Trans>Alt+Left or Alt+Right moves the deadline a day, Alt+Up or Alt+Down a week, keeping its time. A task without a deadline gets one counted from today, at 17:00.</Trans>
      </p>
      <ViewNotices {...notices} noteClassName="calendar__note" />
      <div className="calendar__body" aria-busy={busy}>
        {phone ? (
          <div className="calendar__agenda">
            {agendaDays.length === 0 && !isPending ? (
              <p className="calendar__empty">
                <Trans>Nothing due</Trans>
              </p>
            ) : null}
            {agendaDays.map((day) => {
              const dayName = formatDay(day);
              return (
                <DropDay key={day} day={day} label={dayName} className={cx('calendar__agenda-day', day === today && 'calendar__day--today')}>
                  <h3 className="calendar__agenda-heading">
                    {day === today ? (
                      <Trans>
                        {dayName}
                        <span className="calendar__today-tag"> (today)</span>
                      </Trans>
                    ) : (
                      dayName
                    )}
                  </h3>
                  {chips(byDay.get(day)) ?? (
                    <p className="calendar__empty">
                      <Trans>Nothing due</Trans>
                    </p>
                  )}
                </DropDay>
              );
            })}
          </div>
        ) : (
          <div className={cx('calendar__grid', mode === 'week' && 'calendar__grid--week')}>
            <div className="calendar__weekdays" aria-hidden="true">
              {(weeks[0] ?? []).map((day) => (
                <span key={day}>{dateTimeFormat(WEEKDAY_NAME).format(utcDate(day))}</span>
              ))}
            </div>
            {weeks.map((week) => (
              <div key={week[0]} className="calendar__week">
                {week.map((day) => {
                  const dayName = formatDay(day);
                  return (
                    <DropDay
                      key={day}
                      day={day}
                      label={day === today ? t`${dayName} (today)` : dayName}
                      className={cx('calendar__day', day === today && 'calendar__day--today', mode === 'month' && !day.startsWith(monthPrefix) && 'calendar__day--outside')}
                    >
                      <span className="calendar__date" aria-hidden="true">
                        {formatNumber(Number(day.slice(8)))}
                      </span>
                      {monthDayChips(day)}
                    </DropDay>
                  );
                })}
              </div>
            ))}
          </div>
        )}
        <aside className="calendar__undated" aria-labelledby={undatedId}>
          <h3 id={undatedId} className="calendar__undated-title">
            <Trans>No deadline</Trans>
          </h3>
          <p className="calendar__undated-hint">
            <Trans>Drop a task on a day to give it that day at 17:00.</Trans>
          </p>
          {chips(undated.slice(0, UNDATED_SHOWN)) ??
            (isPending ? null : (
              <p className="calendar__empty">
                <Trans>Every task has a deadline.</Trans>
              </p>
            ))}
          {undated.length > UNDATED_SHOWN ? <p className="calendar__empty">{moreNote(undated.length, UNDATED_SHOWN)}</p> : null}
        </aside>
      </div>
    </section>
  );
}
