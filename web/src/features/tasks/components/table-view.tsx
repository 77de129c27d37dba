import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Link, useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { PRIORITY_ORDER, PRIORITY_RANK, type Priority } from '#shared/constants.ts';
import type { Column } from '#shared/schemas/columns.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { ChecklistCounts, Task, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { Alert } from '#web/components/alert.tsx';
import { LabelChips } from '#web/features/labels/components/label-chips.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { cx } from '#web/lib/cx.ts';
import { errorText } from '#web/lib/error-text.ts';
import { formatLocale, formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { useNow } from '#web/lib/use-now.ts';
import { useBoardScope, useCanChangeTask } from '../api/board-scope.ts';
import { taskSelection, useIsSelected, useTaskSelection } from '../api/task-selection.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { useViewTasks, VIEW_TASKS_MAX } from '../api/view-tasks.ts';
import { groupName, groupTasks, type BoardGroup, type TaskGroup } from '../api/board-group.ts';
import { useCollapsedGroups } from '../api/collapsed-groups.ts';
import { useLabels } from '#web/features/labels/api/get-labels.ts';
import { dateTimeLocalToIso, formatDeadline, formatDeadlineFull, formatRelative, toDateTimeLocal } from '../utils/deadline.ts';
import { taskPathOf } from './card-behaviour.ts';
import { DeadlineText } from './deadline-text.tsx';
import { ChecklistCount } from './task-card-marks.tsx';
import { PRIORITY_LABELS } from './priority.tsx';
import type { ViewProps } from './view-props.ts';
import './table-view.css';

/*
 * The table view: a row per task of the filter (the whole list useViewTasks reads), sorted
 * here by any header, rows rendered only as they scroll into view (TanStack Virtual; spacer rows
 * stand in for the rest, so a native table keeps its layout and a screen reader hears the real
 * size through aria-rowcount / aria-rowindex). Rows are one tab stop: arrows move between them,
 * Enter opens the task, Space selects it. Title, assignee, deadline and priority are edited in
 * place through the same queued single-task update as the task page; the checklist's progress and
 * the last change are only shown. Grouped (`?group=`), each group is a header row (its name, its
 * number of tasks, collapse/expand) over its rows, the sort applying within each group; a task
 * with several labels has a row in each label's group.
 */

/** Every row is one line high: sizes need no measuring, so scrolling never re-lays rows out. */
const ROW_HEIGHT = 44;
const OVERSCAN = 5;

type SortKey = 'title' | 'assignee' | 'deadline' | 'priority' | 'column' | 'labels' | 'checklist' | 'updated' | 'start';
interface Sort {
  key: SortKey;
  dir: 'asc' | 'desc';
}
type EditField = 'title' | 'assignee' | 'deadline' | 'priority';
interface Editing {
  id: string;
  field: EditField;
}

const HEADERS: readonly { key: SortKey; label: MessageDescriptor }[] = [
  { key: 'title', label: msg({ message: 'Title', comment: 'Table column: the task’s title' }) },
  { key: 'assignee', label: msg`Assignee` },
  { key: 'deadline', label: msg`Deadline` },
  { key: 'priority', label: msg`Priority` },
  { key: 'column', label: msg({ message: 'Column', comment: 'Table column: the board’s column the task is in' }) },
  { key: 'labels', label: msg`Labels` },
  { key: 'checklist', label: msg({ message: 'Checklist', context: 'Table column', comment: 'Table column: how many of the task’s checklist items are done (“2/5”); a narrow header' }) },
  { key: 'updated', label: msg({ message: 'Last change', comment: 'Table column: when the task was last changed (“5 minutes ago”); a narrow header' }) },
  { key: 'start', label: msg({ message: 'Start', comment: 'When the work on the task starts' }) },
];

/** Where a task's column stands in the sort: its place on the board, or its status on "All my tasks". */
function columnRank(columns: readonly Column[] | undefined) {
  const places = new Map(columns?.map((column, i) => [column._id, i]));
  return (task: Task) => places.get(task.columnId) ?? (task.status === 'done' ? 1 : 0);
}

/** The task's column as the table shows it (made at render, in the language in use): its name, or its status on "All my tasks". */
export function columnName(task: Task, columns: readonly Column[] | undefined): string {
  const name = columns?.find((column) => column._id === task.columnId)?.name;
  if (name !== undefined) return displayName(name);
  return task.status === 'done' ? t({ message: 'Completed', context: 'Task status' }) : t({ message: 'To do', context: 'Task status' });
}

/** Texts in the order of the language in use. */
const byText = (a: string, b: string) => a.localeCompare(b, formatLocale(), { sensitivity: 'base' });
/** Dates ascending; a missing one last whichever way the column is sorted. */
const time = (value: string | null) => (value === null ? null : Date.parse(value));

function sortTasks(tasks: readonly Task[], sort: Sort | null, columns: readonly Column[] | undefined): readonly Task[] {
  if (sort === null) return tasks;
  const sign = sort.dir === 'asc' ? 1 : -1;
  const rank = columnRank(columns);
  const compare: (a: Task, b: Task) => number = {
    title: (a: Task, b: Task) => byText(a.taskTitle, b.taskTitle),
    assignee: (a: Task, b: Task) => byText(a.assignee, b.assignee),
    // The most pressing first when ascending.
    priority: (a: Task, b: Task) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority],
    column: (a: Task, b: Task) => rank(a) - rank(b),
    labels: (a: Task, b: Task) => byText(a.labels.map((l) => l.name).join(','), b.labels.map((l) => l.name).join(',')),
    deadline: (a: Task, b: Task) => byTime(a.deadline, b.deadline, sign),
    start: (a: Task, b: Task) => byTime(a.startAt, b.startAt, sign),
    checklist: (a: Task, b: Task) => byChecklist(a.checklist, b.checklist, sign),
    // The oldest change first when ascending, the newest when descending.
    updated: (a: Task, b: Task) => byTime(a.updatedAt, b.updatedAt, sign),
  }[sort.key];
  const signed = sort.key === 'deadline' || sort.key === 'start' || sort.key === 'checklist' || sort.key === 'updated';
  // Sorted once per change of the list or the order (5,000 tasks: a few milliseconds).
  return tasks.toSorted((a, b) => (signed ? compare(a, b) : sign * compare(a, b)));
}

/**
 * By the share of items done (the least done first when ascending), then by the number of items;
 * a task without a checklist last in both directions, as a missing date is (`sign` applied here).
 */
function byChecklist(a: ChecklistCounts, b: ChecklistCounts, sign: number): number {
  if (a.total === 0 || b.total === 0) return a.total === b.total ? 0 : a.total === 0 ? 1 : -1;
  // a.done / a.total against b.done / b.total, multiplied out: exact, with no rounding.
  return sign * (a.done * b.total - b.done * a.total || a.total - b.total);
}

/** `sign` is applied here so that missing dates stay last in both directions. */
function byTime(a: string | null, b: string | null, sign: number): number {
  const x = time(a);
  const y = time(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  return sign * (x - y);
}

/**
 * The virtualizer's size of the scroll box. An element not laid out (a test's DOM) measures
 * 0 high: it then counts as the window's height, so the first rows still render.
 */
const observeRect: typeof observeElementRect = (instance, callback) =>
  observeElementRect(instance, (rect) => {
    callback(rect.height > 0 ? rect : { width: rect.width, height: window.innerHeight });
  });

/** A line of the table's body: a group's header row, or a task's row (`row`: its place among the task rows). */
export type Entry = { kind: 'group'; group: TaskGroup; collapsed: boolean } | { kind: 'task'; task: Task; row: number; key: string };

/** The body's lines: the sorted tasks, or (grouped) each group's header followed by its sorted tasks unless collapsed. */
export function tableEntries(sorted: readonly Task[], group: BoardGroup, labels: readonly Label[], collapsed: ReadonlySet<string>): Entry[] {
  if (group === 'none') return sorted.map((task, row) => ({ kind: 'task', task, row, key: task._id }));
  const entries: Entry[] = [];
  let row = 0;
  for (const g of groupTasks(sorted, group, labels)) {
    const shut = collapsed.has(g.key);
    entries.push({ kind: 'group', group: g, collapsed: shut });
    if (!shut) for (const task of g.tasks) entries.push({ kind: 'task', task, row: row++, key: `${g.key}/${task._id}` });
  }
  return entries;
}

export default function TableView({ filter, columns, group = 'none' }: ViewProps) {
  const list = useViewTasks(filter);
  const labelsQuery = useLabels(group === 'label' && filter.board ? filter.board : null);
  const [collapsed, toggleGroup] = useCollapsedGroups(filter.board, group);
  const [sort, setSort] = useState<Sort | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const focusRow = useRef<number | null>(null);
  const selection = useTaskSelection();
  const now = useNow(30_000);
  // Read once here for every row: a jump through 5,000 rows mounts two dozen new rows a frame.
  const { search } = useLocation();
  const { boardId: scopeBoardId } = useBoardScope();
  const navigate = useNavigate();
  const { mutate: updateTask } = useUpdateTask({ quiet: true });
  const { t, i18n } = useLingui();

  const tasks = list.data?.tasks;
  const sorted = useMemo(() => sortTasks(tasks ?? [], sort, columns), [tasks, sort, columns]);
  const entries = useMemo(() => tableEntries(sorted, group, labelsQuery.data ?? [], collapsed), [sorted, group, labelsQuery.data, collapsed]);
  // The task rows in the order shown (grouped by label, a task may have several), and where each one is among the entries.
  const taskEntries = useMemo(() => entries.filter((entry) => entry.kind === 'task'), [entries]);
  const rows = useMemo(() => taskEntries.map((entry) => entry.task), [taskEntries]);
  const entryOfRow = useMemo(() => entries.flatMap((entry, i) => (entry.kind === 'task' ? [i] : [])), [entries]);
  const order = useMemo(() => [...new Set(sorted.map((task) => task._id))], [sorted]);

  // The compiler leaves this component unmemoized (the virtualizer's functions change under
  // it); the rows are memoized by hand (TableRow), which is where the work is.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    observeElementRect: observeRect,
    // The sticky header row sits above the first row.
    scrollPaddingStart: ROW_HEIGHT,
  });

  // A row moved to by the keyboard gets focus once it is rendered.
  useEffect(() => {
    if (focusRow.current === null) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${String(focusRow.current)}"]`);
    if (row) {
      row.focus();
      focusRow.current = null;
    }
  });

  const moveTo = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(rows.length - 1, index));
      focusRow.current = next;
      setActive(next);
      virtualizer.scrollToIndex(entryOfRow[next] ?? next);
    },
    [rows.length, virtualizer, entryOfRow],
  );

  const pick = useCallback(
    (id: string, event: { shiftKey: boolean }) => {
      if (event.shiftKey) taskSelection.range(order, id);
      else taskSelection.toggle(id);
    },
    [order],
  );

  const onSaveError = useCallback((task: Task, failure: unknown) => {
    if (isUnauthorized(failure)) return;
    const title = task.taskTitle;
    const reason = errorText(failure);
    setSaveError(t`Couldn’t save “${title}”. ${reason}`);
  }, [t]);

  if (list.isPending) {
    return (
      <p className="board__view-loading">
        <Trans>Loading…</Trans>
      </p>
    );
  }
  if (list.isError) {
    return (
      <Alert tone="error" className="table-view__alert">
        {errorText(list.error)}
      </Alert>
    );
  }

  const allSelected = rows.length > 0 && rows.every((task) => selection.ids.has(task._id));
  const someSelected = !allSelected && rows.some((task) => selection.ids.has(task._id));
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const soFar = formatNumber(rows.length);
  const most = formatNumber(VIEW_TASKS_MAX);
  const rowCount = rows.length;

  return (
    <section className="table-view" aria-label={t`Tasks as a table`}>
      {list.data.complete ? null : (
        <p className="table-view__note" role="status">
          <Trans>Loading more tasks… {soFar} so far.</Trans>
        </p>
      )}
      {list.data.truncated ? (
        <p className="table-view__note" role="note">
          <Trans>Showing the first {most} tasks of this filter: narrow it (search, priority, labels) to see the rest.</Trans>
        </p>
      ) : null}
      {saveError !== null ? (
        <Alert tone="error" className="table-view__alert">
          {saveError}
        </Alert>
      ) : null}
      {sorted.length === 0 ? (
        <p className="table-view__empty">
          <Trans>No tasks match this filter.</Trans>
        </p>
      ) : (
        <div className="table-view__scroll" ref={scrollRef}>
          <table className="table-view__table" aria-rowcount={entries.length + 1} aria-label={t({ message: 'Tasks', comment: 'Name of the table of tasks' })}>
            <thead>
              <tr aria-rowindex={1}>
                {HEADERS.map(({ key, label }) => (
                  <th
                    key={key}
                    scope="col"
                    className={cx('table-view__head', `table-view__col--${key}`)}
                    aria-sort={sort?.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    <div className="table-view__cell-row">
                      {key === 'title' ? (
                        <input
                          type="checkbox"
                          className="table-view__check"
                          aria-label={t({ message: plural(rowCount, { other: 'Select all #' }), comment: 'Checkbox that selects every task of the table; # is their number' })}
                          checked={allSelected}
                          // "All" is every task of the filter: offered once every page is in.
                          disabled={!list.data.complete}
                          ref={(input) => {
                            if (input) input.indeterminate = someSelected;
                          }}
                          onChange={() => {
                            if (allSelected) taskSelection.clear();
                            else taskSelection.only(order);
                          }}
                        />
                      ) : null}
                      <button
                        type="button"
                        className="table-view__sort"
                        onClick={() => {
                          setSort(sort?.key === key && sort.dir === 'asc' ? { key, dir: 'desc' } : { key, dir: 'asc' });
                        }}
                      >
                        {i18n._(label)}
                        <SortMark dir={sort?.key === key ? sort.dir : null} />
                      </button>
                    </div>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {before > 0 ? <tr className="table-view__spacer" aria-hidden="true" style={{ height: before }} /> : null}
              {items.map((item) => {
                const entry = entries[item.index];
                if (!entry) return null;
                if (entry.kind === 'group') {
                  return <GroupRow key={entry.group.key} group={entry.group} collapsed={entry.collapsed} rowIndex={item.index + 2} onToggle={toggleGroup} />;
                }
                const task = entry.task;
                return (
                  <TableRow
                    key={entry.key}
                    task={task}
                    index={entry.row}
                    rowIndex={item.index + 2}
                    focusable={entry.row === Math.min(active, rows.length - 1)}
                    columns={columns}
                    now={now}
                    editing={editing?.id === task._id ? editing.field : null}
                    onEdit={setEditing}
                    onSaveError={onSaveError}
                    onClearError={setSaveError}
                    onPick={pick}
                    onMove={moveTo}
                    onFocusRow={setActive}
                    scopeBoardId={scopeBoardId}
                    search={search}
                    navigate={navigate}
                    updateTask={updateTask}
                  />
                );
              })}
              {after > 0 ? <tr className="table-view__spacer" aria-hidden="true" style={{ height: after }} /> : null}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A group's header row: a button with its name and number of tasks that collapses or expands it. */
function GroupRow({ group, collapsed, rowIndex, onToggle }: { group: TaskGroup; collapsed: boolean; rowIndex: number; onToggle: (key: string) => void }) {
  const count = group.tasks.length;
  return (
    <tr className="table-view__group" aria-rowindex={rowIndex} data-group-key={group.key}>
      <th scope="colgroup" colSpan={HEADERS.length} className="table-view__group-cell">
        <button
          type="button"
          className="table-view__group-toggle"
          aria-expanded={!collapsed}
          aria-label={groupName(group.name, count)}
          onClick={() => {
            onToggle(group.key);
          }}
        >
          <svg className={cx('table-view__group-chevron', collapsed && 'table-view__group-chevron--shut')} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
          <span className="table-view__group-name">{group.name}</span>
          <span className="table-view__group-count" aria-hidden="true">
            {count}
          </span>
        </button>
      </th>
    </tr>
  );
}

function SortMark({ dir }: { dir: 'asc' | 'desc' | null }) {
  return (
    <svg className={cx('table-view__sort-mark', dir === null && 'table-view__sort-mark--none')} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d={dir === 'desc' ? 'M4 6l4 4 4-4' : 'M4 10l4-4 4 4'} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

interface TableRowProps {
  task: Task;
  index: number;
  /** Its row number in the table (the header row is 1; group rows count). */
  rowIndex: number;
  /** The row the Tab key reaches (one tab stop for the whole table). */
  focusable: boolean;
  columns: readonly Column[] | undefined;
  now: Date;
  editing: EditField | null;
  onEdit: (editing: Editing | null) => void;
  onSaveError: (task: Task, failure: unknown) => void;
  onClearError: (error: null) => void;
  onPick: (id: string, event: { shiftKey: boolean }) => void;
  onMove: (index: number) => void;
  onFocusRow: (index: number) => void;
  /** The board on screen ("All my tasks": none) and the address's query: the task page's address (taskPathOf). */
  scopeBoardId: string | null | undefined;
  search: string;
  navigate: NavigateFunction;
  /** The table's one `useUpdateTask` (quiet): its `mutate`. */
  updateTask: ReturnType<typeof useUpdateTask>['mutate'];
}

/** One task's row; memoized, so scrolling renders only the rows that come into view. */
const TableRow = memo(function TableRow({ task, index, rowIndex, focusable, columns, now, editing, onEdit, onSaveError, onClearError, onPick, onMove, onFocusRow, scopeBoardId, search, navigate, updateTask }: TableRowProps) {
  const selected = useIsSelected(task._id);
  const canChange = useCanChangeTask(task);
  const { t } = useLingui();
  const to = taskPathOf(task._id, scopeBoardId, search);
  const rowRef = useRef<HTMLTableRowElement>(null);
  // A closed editor gives focus back to the cell it opened from.
  const returnTo = useRef<EditField | null>(null);
  useEffect(() => {
    if (editing !== null || returnTo.current === null) return;
    rowRef.current?.querySelector<HTMLElement>(`[data-edit="${returnTo.current}"]`)?.focus();
    returnTo.current = null;
  }, [editing]);

  const save = (changes: UpdateTaskBody) => {
    onEdit(null);
    onClearError(null);
    // Shown at once; a refusal puts the old value back and says why above the table.
    updateTask(
      { task, changes },
      {
        onError: (failure) => {
          onSaveError(task, failure);
        },
      },
    );
  };
  const cancel = () => {
    onEdit(null);
  };
  /** Saves only what differs; an unchanged value just closes the editor. */
  const saveIf = (changed: boolean, changes: UpdateTaskBody) => {
    if (changed) save(changes);
    else cancel();
  };
  const edit = (field: EditField) => {
    returnTo.current = field;
    onEdit({ id: task._id, field });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target !== event.currentTarget) return;
    const moves: Partial<Record<string, number>> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: Number.MAX_SAFE_INTEGER, PageDown: index + 10, PageUp: index - 10 };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      onMove(next);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void navigate(to, { state: { fromBoard: true } });
    } else if (event.key === ' ') {
      event.preventDefault();
      onPick(task._id, event);
    }
  };
  // A click on the row but its controls selects it (Shift: the range from the last one picked).
  const onClick = (event: MouseEvent<HTMLTableRowElement>) => {
    if (!(event.target instanceof Element) || event.target.closest('a, button, input, select, textarea, label, form')) return;
    onPick(task._id, event);
  };

  const title = task.taskTitle;
  // Only the row the keyboard is on puts its controls in the tab order.
  const inner = focusable ? 0 : -1;
  return (
    <tr
      ref={rowRef}
      className={cx('table-view__row', selected && 'table-view__row--selected')}
      aria-rowindex={rowIndex}
      aria-selected={selected}
      data-row={index}
      data-task-id={task._id}
      tabIndex={focusable ? 0 : -1}
      onKeyDown={onKeyDown}
      onClick={onClick}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onFocusRow(index);
      }}
    >
      <td className="table-view__cell table-view__col--title">
        <div className="table-view__cell-row">
          <input
            type="checkbox"
            className="table-view__check"
            aria-label={t({ message: `Select “${title}”`, comment: 'Checkbox that selects a task’s row' })}
            checked={selected}
            tabIndex={inner}
            onClick={(event) => {
              onPick(task._id, event);
            }}
            // The click above decides (it knows whether Shift was held).
            onChange={noChange}
          />
          {editing === 'title' ? (
            <TextEditor
              label={t({ message: `Title of “${title}”`, comment: 'The input that edits a task’s title in the table' })}
              type="text"
              initial={title}
              onSave={(value) => {
                saveIf(value !== title, { taskTitle: value });
              }}
              onCancel={cancel}
            />
          ) : (
            <>
              <Link className="table-view__title" to={to} state={{ fromBoard: true }} tabIndex={inner} dir="auto">
                {title}
              </Link>
              {canChange ? (
                <EditButton
                  label={t`Edit title of “${title}”`}
                  onClick={() => {
                    edit('title');
                  }}
                  tabIndex={inner}
                  field="title"
                />
              ) : null}
            </>
          )}
        </div>
      </td>
      <td className="table-view__cell table-view__col--assignee">
        {editing === 'assignee' ? (
          <TextEditor
            label={t({ message: `Assignee of “${title}”`, comment: 'The input that edits a task’s assignee in the table' })}
            type="email"
            initial={task.assignee}
            onSave={(value) => {
              saveIf(value.toLowerCase() !== task.assignee, { assignee: value });
            }}
            onCancel={cancel}
          />
        ) : (
          <Editable
            can={canChange}
            tabIndex={inner}
            field="assignee"
            label={t({ message: `edit assignee of “${title}”`, comment: 'Read by screen readers after the assignee shown in the table (lowercase)' })}
            onClick={() => {
              edit('assignee');
            }}
          >
            {task.assignee}
          </Editable>
        )}
      </td>
      <td className="table-view__cell table-view__col--deadline">
        {editing === 'deadline' ? (
          <TextEditor
            label={t({ message: `Deadline of “${title}”`, comment: 'The input that edits a task’s deadline in the table' })}
            type="datetime-local"
            initial={task.deadline ? toDateTimeLocal(new Date(task.deadline)) : ''}
            onSave={(value) => {
              const iso = value === '' ? null : dateTimeLocalToIso(value);
              // A value the browser could not complete is no deadline to save.
              if ((value !== '' && iso === null) || iso === task.deadline || (iso !== null && task.deadline !== null && Date.parse(iso) === Date.parse(task.deadline))) cancel();
              else save({ deadline: iso ?? '' });
            }}
            onCancel={cancel}
          />
        ) : (
          <Editable
            can={canChange}
            tabIndex={inner}
            field="deadline"
            label={t({ message: `edit deadline of “${title}”`, comment: 'Read by screen readers after the deadline shown in the table (lowercase)' })}
            onClick={() => {
              edit('deadline');
            }}
          >
            {task.deadline ? <DeadlineText deadline={task.deadline} done={task.status === 'done'} now={now} /> : <span className="table-view__none">{t({ message: 'None', comment: 'A task’s deadline in the table, when it has none' })}</span>}
          </Editable>
        )}
      </td>
      <td className="table-view__cell table-view__col--priority">
        {editing === 'priority' ? (
          <PriorityEditor
            label={t({ message: `Priority of “${title}”`, comment: 'The select that edits a task’s priority in the table' })}
            initial={task.priority}
            onSave={(value) => {
              saveIf(value !== task.priority, { priority: value });
            }}
            onCancel={cancel}
          />
        ) : (
          <Editable
            can={canChange}
            tabIndex={inner}
            field="priority"
            label={t({ message: `edit priority of “${title}”`, comment: 'Read by screen readers after the priority shown in the table (lowercase)' })}
            onClick={() => {
              edit('priority');
            }}
          >
            {PRIORITY_LABELS[task.priority]}
          </Editable>
        )}
      </td>
      <td className="table-view__cell table-view__col--column" dir="auto">
        {columnName(task, columns)}
      </td>
      <td className="table-view__cell table-view__col--labels">{task.labels.length > 0 ? <LabelChips labels={task.labels} max={3} /> : null}</td>
      <td className="table-view__cell table-view__col--checklist">
        <ChecklistCount counts={task.checklist} />
      </td>
      <td className="table-view__cell table-view__col--updated">
        <time dateTime={task.updatedAt} title={formatDeadlineFull(new Date(task.updatedAt))}>
          {formatRelative(new Date(task.updatedAt), now)}
        </time>
      </td>
      <td className="table-view__cell table-view__col--start">{task.startAt ? formatDeadline(new Date(task.startAt), now) : null}</td>
    </tr>
  );
});

const noChange = () => undefined;

/** A cell's value, as a button that opens its editor when the viewer may change the task. */
function Editable({ can, field, label, onClick, tabIndex, children }: { can: boolean; field: EditField; label: string; onClick: () => void; tabIndex: number; children: ReactNode }) {
  // The value is cut with an ellipsis in a box of its own (a flex container such as the button
  // cuts no text), in its own direction: an e-mail address in the Arabic app shows its start.
  const value = (
    <span className="table-view__value-text" dir="auto">
      {children}
    </span>
  );
  if (!can) return <span className="table-view__value">{value}</span>;
  return (
    <button type="button" className="table-view__value table-view__edit" onClick={onClick} tabIndex={tabIndex} data-edit={field}>
      {value}
      <span className="visually-hidden"> — {label}</span>
    </button>
  );
}

function EditButton({ label, onClick, tabIndex, field }: { label: string; onClick: () => void; tabIndex: number; field: EditField }) {
  return (
    <button type="button" className="table-view__pencil" aria-label={label} onClick={onClick} tabIndex={tabIndex} data-edit={field}>
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path d="M10.5 2.5l3 3-8 8H2.5v-3l8-8Z" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
      </svg>
    </button>
  );
}

/** Enter saves, Esc (or leaving the field) cancels. */
function editorKeys(onSave: () => void, onCancel: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onSave();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };
}

function TextEditor({ label, type, initial, onSave, onCancel }: { label: string; type: 'text' | 'email' | 'datetime-local'; initial: string; onSave: (value: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState(initial);
  return (
    <input
      className="table-view__input"
      type={type}
      aria-label={label}
      value={value}
      autoFocus
      onChange={(event) => {
        setValue(event.target.value);
      }}
      onKeyDown={editorKeys(() => {
        onSave(type === 'datetime-local' ? value : value.trim());
      }, onCancel)}
      onBlur={onCancel}
    />
  );
}

function PriorityEditor({ label, initial, onSave, onCancel }: { label: string; initial: Priority; onSave: (value: Priority) => void; onCancel: () => void }) {
  const [value, setValue] = useState(initial);
  return (
    <select
      className="table-view__input"
      aria-label={label}
      value={value}
      autoFocus
      onChange={(event) => {
        setValue(event.target.value as Priority);
      }}
      onKeyDown={editorKeys(() => {
        onSave(value);
      }, onCancel)}
      onBlur={onCancel}
    >
      {PRIORITY_ORDER.map((priority) => (
        <option key={priority} value={priority}>
          {PRIORITY_LABELS[priority]}
        </option>
      ))}
    </select>
  );
}
