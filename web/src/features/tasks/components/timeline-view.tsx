import type { MessageDescriptor } from '@lingui/core';
import { msg, select, t } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Link } from 'react-router';
import { addDays, dayKeyOf, daysBetween, shiftByDays, shiftTimeline, timelineRange, type DayKey, type TimelineZoom } from '#shared/calendar-dates.ts';
import type { Task, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { cx } from '#web/lib/cx.ts';
import { dateTimeFormat, formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { inlineStep, isRtl } from '#web/lib/direction.ts';
import { useTaskPath } from './card-behaviour.ts';
import { formatDay, type DateSave } from './date-moves.ts';
import { moreNote, onAltArrow, PressedButtons, RangeSteps, useDatedTask, useDateView } from './use-date-view.tsx';
import type { ViewProps } from './view-props.ts';
import { ViewNotices } from './view-notices.tsx';
import './timeline-view.css';

/*
 * Each task a bar from its start to its deadline, by day, in the viewer's time zone (a task with
 * only one of them: a one-day bar on that day; with neither: listed under "Not scheduled"),
 * grouped by column (status on "All my tasks") or by assignee. A bar is dragged with the pointer
 * (moving both dates by whole days) or by its ends (one date); Alt+arrows on a bar and the
 * arrow keys on an end (a slider) do the same by keyboard. Every date keeps its time of day.
 */

type Grouping = 'column' | 'assignee';
type Part = 'move' | 'start' | 'end';

/** Pixels a day takes at each zoom. */
const DAY_WIDTH: Record<TimelineZoom, number> = { day: 48, week: 20, month: 5 };
const ZOOMS: { value: TimelineZoom; label: MessageDescriptor }[] = [
  { value: 'day', label: msg({ message: 'Day', comment: 'Timeline zoom: a column per day' }) },
  { value: 'week', label: msg({ message: 'Week', comment: 'Timeline zoom: the days grouped by week' }) },
  { value: 'month', label: msg({ message: 'Month', comment: 'Timeline zoom: the days grouped by month' }) },
];
/** The most unscheduled tasks listed (a filter may hold thousands). */
const UNSCHEDULED_SHOWN = 200;
/** A pointer that moves less than this is a click (it opens the task), not a drag. */
const DRAG_THRESHOLD = 4;

/** The options of the head's units (a day, a week, a month) and of the range's title; formats made when used, in the language in use. */
const UNIT_FORMATS: Record<TimelineZoom, Intl.DateTimeFormatOptions> = {
  day: { weekday: 'narrow', day: 'numeric', timeZone: 'UTC' },
  week: { day: 'numeric', month: 'short', timeZone: 'UTC' },
  month: { month: 'short', year: '2-digit', timeZone: 'UTC' },
};
const RANGE_TITLE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const utcDate = (key: DayKey) => new Date(`${key}T00:00:00Z`);
/** Days since 1970-01-01: a slider's value. */
const dayNumber = (key: DayKey) => daysBetween('1970-01-01', key);

/** The days a task's bar covers; null for a task with neither date. */
function span(task: Task, timeZone: string): { first: DayKey; last: DayKey } | null {
  const from = task.startAt ?? task.deadline;
  const to = task.deadline ?? task.startAt;
  if (from === null || to === null) return null;
  return { first: dayKeyOf(from, timeZone), last: dayKeyOf(to, timeZone) };
}

/**
 * The change that moves `part` of `task` by `days`, each date keeping its time of day. A task
 * with one date has no ends to pull: that date moves whatever part was dragged.
 */
function shifted(task: Task, part: Part, days: number, timeZone: string): Pick<UpdateTaskBody, 'deadline' | 'startAt'> {
  const both = task.startAt !== null && task.deadline !== null;
  const changes: Pick<UpdateTaskBody, 'deadline' | 'startAt'> = {};
  if (task.startAt !== null && (part !== 'end' || !both)) changes.startAt = shiftByDays(task.startAt, days, timeZone);
  if (task.deadline !== null && (part !== 'start' || !both)) changes.deadline = shiftByDays(task.deadline, days, timeZone);
  return changes;
}

/** What a screen reader hears once a move is made (made when the move is, in the language in use). */
function sentence(task: Task, part: Part, changes: Pick<UpdateTaskBody, 'deadline' | 'startAt'>, timeZone: string): string {
  const day = (iso: string | null | undefined) => (iso ? formatDay(dayKeyOf(iso, timeZone)) : '');
  const title = task.taskTitle;
  if (part === 'start' && changes.startAt) {
    const start = day(changes.startAt);
    return t`“${title}” now starts ${start}.`;
  }
  if (part === 'end' && changes.deadline) {
    const deadline = day(changes.deadline);
    return t`“${title}” is now due ${deadline}.`;
  }
  const start = changes.startAt ?? task.startAt;
  const end = changes.deadline ?? task.deadline;
  if (start && end && start !== end) {
    const first = day(start);
    const last = day(end);
    return t`“${title}” now runs ${first} to ${last}.`;
  }
  const date = day(end ?? start);
  return t`“${title}” is now on ${date}.`;
}

/** A bar's name: the task, its dates, and whether it is completed. */
function barName(task: Task, days: { first: DayKey; last: DayKey }): string {
  const title = task.taskTitle;
  const status = task.status;
  const first = formatDay(days.first);
  if (task.startAt !== null && task.deadline !== null && days.first !== days.last) {
    const last = formatDay(days.last);
    return t({
      message: select(status, { done: `${title}, ${first} to ${last}, completed`, other: `${title}, ${first} to ${last}` }),
      comment: 'A task’s bar on the timeline: its title and the days it runs',
    });
  }
  if (task.deadline === null) {
    return t({ message: select(status, { done: `${title}, starts ${first}, completed`, other: `${title}, starts ${first}` }), comment: 'A task’s bar on the timeline: its title and its start' });
  }
  if (task.startAt === null) {
    return t({ message: select(status, { done: `${title}, due ${first}, completed`, other: `${title}, due ${first}` }), comment: 'A task’s bar on the timeline: its title and its deadline' });
  }
  return t({ message: select(status, { done: `${title}, ${first}, completed`, other: `${title}, ${first}` }), comment: 'A task’s bar on the timeline: its title and the one day it is on' });
}

interface Drag {
  taskId: string;
  part: Part;
  /** Days moved so far (whole days). */
  days: number;
}

/** One task's row: its title (a link), and its bar placed over the range's days. */
function TimelineRow({
  task,
  rangeStart,
  rangeDays,
  dayWidth,
  timeZone,
  hintId,
  save,
}: {
  task: Task;
  rangeStart: DayKey;
  rangeDays: number;
  dayWidth: number;
  timeZone: string;
  hintId: string;
  save: DateSave;
}) {
  const { to, canChange } = useDatedTask(task);
  const { t } = useLingui();
  const [drag, setDrag] = useState<Drag | null>(null);
  /** `sign`: -1 right to left, where the later days are to the left. */
  const pointer = useRef<{ x: number; sign: number; part: Part; moved: boolean } | null>(null);
  const suppressClick = useRef(false);
  const days = span(task, timeZone);
  if (!days) return null;
  const both = task.startAt !== null && task.deadline !== null;
  const done = task.status === 'done';

  const commit = (part: Part, by: number) => {
    if (by === 0) return;
    const changes = shifted(task, part, by, timeZone);
    save(task, changes, sentence(task, part, changes, timeZone));
  };

  // The bar while dragged: its ends moved by the days dragged so far.
  const moveFirst = drag && (drag.part === 'move' || drag.part === 'start' || !both) ? drag.days : 0;
  const moveLast = drag && (drag.part === 'move' || drag.part === 'end' || !both) ? drag.days : 0;
  const first = daysBetween(rangeStart, days.first) + moveFirst;
  const last = Math.max(first, daysBetween(rangeStart, days.last) + moveLast);
  const inRange = last >= 0 && first < rangeDays;
  const inlineStart = Math.max(0, first) * dayWidth;
  const width = (Math.min(rangeDays - 1, last) - Math.max(0, first) + 1) * dayWidth;

  // The part dragged is the element's `data-part`.
  const onPointerDown = (event: ReactPointerEvent<HTMLElement>) => {
    const part = event.currentTarget.dataset.part as Part | undefined;
    if (!canChange || event.button !== 0 || !part) return;
    event.stopPropagation();
    pointer.current = { x: event.clientX, sign: isRtl(event.currentTarget) ? -1 : 1, part, moved: false };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLElement>) => {
    const start = pointer.current;
    if (!start) return;
    const dx = (event.clientX - start.x) * start.sign;
    if (!start.moved && Math.abs(dx) < DRAG_THRESHOLD) return;
    start.moved = true;
    setDrag({ taskId: task._id, part: start.part, days: Math.round(dx / dayWidth) });
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLElement>) => {
    const start = pointer.current;
    pointer.current = null;
    if (!start?.moved) return;
    suppressClick.current = true;
    const by = Math.round(((event.clientX - start.x) * start.sign) / dayWidth);
    setDrag(null);
    commit(start.part, by);
  };
  const onPointerCancel = () => {
    pointer.current = null;
    setDrag(null);
  };
  const pointerHandlers = { onPointerMove, onPointerUp, onPointerCancel };

  const onBarKey = (event: KeyboardEvent<HTMLAnchorElement>) => {
    onAltArrow(event, canChange, (days) => {
      commit('move', days);
    });
  };
  const onEndKey = (part: 'start' | 'end') => (event: KeyboardEvent<HTMLSpanElement>) => {
    // Left and right as on screen (right to left, the later days are to the left).
    const by = inlineStep(event.key, event.currentTarget) || (event.key === 'ArrowDown' ? -1 : event.key === 'ArrowUp' ? 1 : event.key === 'PageDown' ? -7 : event.key === 'PageUp' ? 7 : 0);
    if (by === 0 || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    commit(part, by);
  };

  const name = barName(task, days);
  const title = task.taskTitle;

  const endHandle = (part: 'start' | 'end') => {
    const key = part === 'start' ? days.first : days.last;
    return (
      <span
        role="slider"
        tabIndex={0}
        className={cx('timeline-bar__end', `timeline-bar__end--${part}`)}
        aria-label={part === 'start' ? t`Start of “${title}”` : t`Deadline of “${title}”`}
        aria-valuemin={0}
        aria-valuemax={dayNumber('9999-12-31')}
        aria-valuenow={dayNumber(key)}
        aria-valuetext={formatDay(key)}
        data-part={part}
        onKeyDown={onEndKey(part)}
        onPointerDown={onPointerDown}
        {...pointerHandlers}
      />
    );
  };

  return (
    <li className="timeline__row">
      <span className={cx('timeline__label', done && 'timeline__label--done')} dir="auto">
        {task.taskTitle}
      </span>
      <div className="timeline__track">
        {inRange ? (
          <div className={cx('timeline-bar', done && 'timeline-bar--done', drag && 'timeline-bar--dragging', !both && 'timeline-bar--point')} style={{ insetInlineStart: inlineStart, width }}>
            <Link
              to={to}
              state={{ fromBoard: true }}
              className="timeline-bar__body"
              dir="auto"
              aria-label={name}
              aria-describedby={canChange ? hintId : undefined}
              draggable={false}
              data-part="move"
              onKeyDown={onBarKey}
              onPointerDown={onPointerDown}
              {...pointerHandlers}
              onClick={(event) => {
                // The click that ends a drag does not open the task.
                if (suppressClick.current) {
                  suppressClick.current = false;
                  event.preventDefault();
                }
              }}
            >
              <span className="timeline-bar__title" aria-hidden="true">
                {task.taskTitle}
              </span>
            </Link>
            {canChange && both ? (
              <>
                {endHandle('start')}
                {endHandle('end')}
              </>
            ) : null}
          </div>
        ) : null}
      </div>
    </li>
  );
}

export default function TimelineView({ filter, columns }: ViewProps) {
  const { tasks, isPending, busy, timeZone, weekStart, today, anchor, setAnchor, save, hintId, titleId, asideId: unscheduledId, notices } = useDateView(filter);
  const [zoom, setZoom] = useState<TimelineZoom>('week');
  const [grouping, setGrouping] = useState<Grouping>('column');
  const { t, i18n } = useLingui();

  const range = useMemo(() => timelineRange(anchor, zoom, weekStart), [anchor, zoom, weekStart]);
  const dayWidth = DAY_WIDTH[zoom];
  const lastDay = range.days - 1;
  const todayAt = daysBetween(range.start, today);

  const { groups, unscheduled, outside } = useMemo(() => {
    const byGroup = new Map<string, Task[]>();
    const none: Task[] = [];
    let away = 0;
    for (const task of tasks ?? []) {
      const days = span(task, timeZone);
      if (!days) {
        none.push(task);
        continue;
      }
      if (daysBetween(range.start, days.last) < 0 || daysBetween(range.start, days.first) > lastDay) {
        away++;
        continue;
      }
      const key = grouping === 'assignee' ? task.assignee : columns ? task.columnId : task.status;
      const list = byGroup.get(key);
      if (list) list.push(task);
      else byGroup.set(key, [task]);
    }
    const order: { key: string; name: string }[] =
      grouping === 'assignee'
        ? [...byGroup.keys()].sort().map((key) => ({ key, name: key }))
        : columns
          ? columns.map((column) => ({ key: column._id, name: displayName(column.name) }))
          : [
              { key: 'todo', name: t({ message: 'To do', context: 'Task status' }) },
              { key: 'done', name: t({ message: 'Completed', context: 'Task status' }) },
            ];
    // A column the page does not know (yet): its tasks still show, after the known ones.
    const other = t({ message: 'Other column', comment: 'Timeline group of tasks in a column the page does not know yet' });
    for (const key of byGroup.keys()) if (!order.some((group) => group.key === key)) order.push({ key, name: other });
    const sorted = order
      .map(({ key, name }) => ({
        key,
        name,
        tasks: (byGroup.get(key) ?? []).toSorted((a, b) => Date.parse(a.startAt ?? a.deadline ?? '') - Date.parse(b.startAt ?? b.deadline ?? '')),
      }))
      .filter((group) => group.tasks.length > 0);
    return { groups: sorted, unscheduled: none, outside: away };
  }, [tasks, timeZone, range.start, lastDay, grouping, columns, t]);

  const unitFormat = dateTimeFormat(UNIT_FORMATS[zoom]);
  const unitLabel = (key: DayKey) => unitFormat.format(utcDate(key));
  const zooms = ZOOMS.map(({ value, label }) => ({ value, label: i18n._(label) }));
  const unscheduledCount = formatNumber(unscheduled.length);
  const trackWidth = range.days * dayWidth;

  return (
    <section className="timeline" aria-labelledby={titleId} style={{ '--timeline-track': `${trackWidth}px`, '--timeline-day': `${dayWidth}px` } as CSSProperties}>
      <div className="timeline__toolbar">
        <h2 id={titleId} className="timeline__title" aria-live="polite">
          {dateTimeFormat(RANGE_TITLE).formatRange(utcDate(range.start), utcDate(addDays(range.start, lastDay)))}
        </h2>
        <PressedButtons
          label={t`Group by`}
          className="timeline__group"
          options={[
            { value: 'column', label: columns ? t({ message: 'Column', comment: 'Timeline grouping: by the board’s column' }) : t({ message: 'Status', comment: 'Timeline grouping: by to do or completed' }) },
            { value: 'assignee', label: t({ message: 'Assignee', comment: 'Timeline grouping: by the person the task is assigned to' }) },
          ]}
          value={grouping}
          onChange={setGrouping}
        />
        <PressedButtons label={t({ message: 'Zoom', comment: 'How many days the timeline shows at once' })} className="timeline__group" options={zooms} value={zoom} onChange={setZoom} />
        <RangeSteps
          label={t`Move through the timeline`}
          className="timeline__group"
          onStep={(direction) => {
            setAnchor(shiftTimeline(anchor, zoom, direction));
          }}
          onToday={() => {
            setAnchor(today);
          }}
        />
      </div>
      <p id={hintId} className="visually-hidden">
        <Trans>
          Alt+Left or Alt+Right moves both dates a day, Alt+Up or Alt+Down a week; on the start or deadline of a bar, the arrow keys move that date a day and Page Up or Page Down a week.
        </Trans>
      </p>
      <ViewNotices {...notices} noteClassName="timeline__note" />
      <div className="timeline__scroll" aria-busy={busy}>
        <div className="timeline__grid">
          <div className="timeline__head" aria-hidden="true">
            <span className="timeline__label" />
            <div className="timeline__units">
              {range.units.map((unit) => (
                <span key={unit.start} className="timeline__unit" style={{ width: unit.days * dayWidth }}>
                  {unitLabel(unit.start)}
                </span>
              ))}
              {todayAt >= 0 && todayAt < range.days ? <span className="timeline__today" style={{ insetInlineStart: todayAt * dayWidth + dayWidth / 2 }} /> : null}
            </div>
          </div>
          {groups.map((group) => (
            <section key={group.key} className="timeline__lane" aria-label={group.name}>
              <h3 className="timeline__lane-title">
                {group.name} <span className="timeline__count">({formatNumber(group.tasks.length)})</span>
              </h3>
              <ul className="timeline__rows">
                {group.tasks.map((task) => (
                  <TimelineRow key={task._id} task={task} rangeStart={range.start} rangeDays={range.days} dayWidth={dayWidth} timeZone={timeZone} hintId={hintId} save={save} />
                ))}
              </ul>
            </section>
          ))}
          {!isPending && groups.length === 0 ? (
            <p className="timeline__note timeline__empty">
              <Trans>No scheduled tasks in this range.</Trans>
            </p>
          ) : null}
        </div>
      </div>
      {outside > 0 ? (
        <p className="timeline__note">
          <Plural value={outside} one="# scheduled task is outside this range." other="# scheduled tasks are outside this range." />
        </p>
      ) : null}
      {unscheduled.length > 0 ? (
        <section className="timeline__unscheduled" aria-labelledby={unscheduledId}>
          <h3 id={unscheduledId} className="timeline__lane-title">
            <Trans comment="Heading of the tasks with neither a start nor a deadline, with their number">
              Not scheduled <span className="timeline__count">({unscheduledCount})</span>
            </Trans>
          </h3>
          <ul className="timeline__unscheduled-list">
            {unscheduled.slice(0, UNSCHEDULED_SHOWN).map((task) => (
              <li key={task._id}>
                <UnscheduledLink task={task} />
              </li>
            ))}
          </ul>
          {unscheduled.length > UNSCHEDULED_SHOWN ? <p className="timeline__note">{moreNote(unscheduled.length, UNSCHEDULED_SHOWN)}</p> : null}
        </section>
      ) : null}
    </section>
  );
}

function UnscheduledLink({ task }: { task: Task }) {
  const title = task.taskTitle;
  return (
    <Link to={useTaskPath(task)} state={{ fromBoard: true }} className={cx('timeline__unscheduled-link', task.status === 'done' && 'timeline__label--done')} dir="auto">
      {task.status === 'done' ? (
        <Trans comment="A completed task’s link; “, completed” is read by screen readers only">
          {title}
          <span className="visually-hidden">, completed</span>
        </Trans>
      ) : (
        title
      )}
    </Link>
  );
}
