import { combine } from '@atlaskit/pragmatic-drag-and-drop/combine';
import { draggable, dropTargetForElements, monitorForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { Alert } from '#web/components/alert.tsx';
import { useLabels } from '#web/features/labels/api/get-labels.ts';
import { cx } from '#web/lib/cx.ts';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import type { BoardFilter } from '../api/board-filter.ts';
import { groupChange, groupName, groupTasks, type BoardGroup, type TaskGroup } from '../api/board-group.ts';
import { useCollapsedGroups } from '../api/collapsed-groups.ts';
import { useMoveTask } from '../api/move-task.ts';
import { isPendingTask } from '../api/pending-tasks.ts';
import { useUpdateTask } from '../api/update-task.ts';
import { useViewTasks, VIEW_TASKS_MAX } from '../api/view-tasks.ts';
import type { MoveDirection } from './card-behaviour.ts';
import { CompactTaskCard } from './compact-task-card.tsx';
import { TaskCard } from './task-card.tsx';
import type { BoardColumn } from './task-column.tsx';
import type { EditDraft } from './task-edit-form.tsx';
import './grouped-board.css';

/*
 * The board grouped (`?group=`): a lane per group across the columns, each lane a header (the
 * group's name, its number of tasks, collapse/expand) over one cell per column. It reads the
 * whole filter at once (as the table does) and splits it here; the columns' own order (Manual)
 * is the tasks' position keys. A card dropped in another lane changes that field through the
 * same queued update as the task page (a label lane: the source lane's label off, the target's
 * on); in another column it also moves there (to the top), through the same queued move. The
 * server decides: a refusal puts the card back and says why in the board's notices. By keyboard,
 * Alt+Left/Right on a focused card moves it to the next column in its lane, Alt+Up/Down to the
 * lane above or below.
 */

/** Marks a grouped board's card drags, so nothing else lands on a lane. */
const LANE_CARD_DRAG = 'taskwiseLaneCard';

const byPosition = (a: Task, b: Task) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);
const inColumn = (task: Task, column: BoardColumn) => (column._id === null ? task.status === column.category : task.columnId === column._id);

/** Puts focus back on a card moved by the keyboard once it is drawn in its new cell (a second at most). */
function refocus(taskId: string, groupKey: string, columnId: string | null, tries = 60): void {
  requestAnimationFrame(() => {
    const cell = `[data-lane-cell][data-group-key="${CSS.escape(groupKey)}"]${columnId === null ? '' : `[data-column-id="${CSS.escape(columnId)}"]`}`;
    const card = document.querySelector<HTMLElement>(`${cell} [data-task-id="${CSS.escape(taskId)}"]`);
    if (card) {
      if (document.activeElement !== card) card.focus();
    } else if (tries > 0) refocus(taskId, groupKey, columnId, tries - 1);
  });
}

export interface GroupedBoardProps {
  group: Exclude<BoardGroup, 'none'>;
  filter: BoardFilter;
  /** The columns shown (a phone: the one chosen in the switcher). */
  columns: readonly BoardColumn[];
  /** Whether cards move (a board's columns; not "All my tasks"). */
  movable: boolean;
  compact: boolean;
  /** A phone's column switcher, above the lanes. */
  switcher?: ReactNode;
  now: Date;
  editing: EditDraft | null;
  onEdit: (task: Task) => void;
  onDraftChange: (draft: EditDraft) => void;
  onEditEnd: () => void;
  onDelete: (task: Task) => void;
  /** Says a move in the board's live region. */
  onAnnounce: (text: string) => void;
}

export function GroupedBoard(props: GroupedBoardProps) {
  const { group, filter, columns, movable, switcher, onAnnounce } = props;
  const list = useViewTasks(filter);
  const labelsQuery = useLabels(group === 'label' && filter.board ? filter.board : null);
  const boardLabels: readonly Label[] = useMemo(() => labelsQuery.data ?? [], [labelsQuery.data]);
  const [collapsed, toggleCollapsed] = useCollapsedGroups(filter.board, group);
  const containerRef = useRef<HTMLDivElement>(null);
  const move = useMoveTask();
  const update = useUpdateTask();
  const { t, i18n } = useLingui();

  const manual = filter.sort === 'position';
  const groups = useMemo(() => {
    const tasks = list.data?.tasks ?? [];
    // The columns' own order is the position keys; any other order is the list's.
    return groupTasks(manual ? tasks.toSorted(byPosition) : tasks, group, boardLabels);
    // The groups' names are in the language in use: made again when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data, manual, group, boardLabels, i18n.locale]);

  /** Moves `task` from lane `from` to the cell of lane `to` and column `column`: each change that differs. */
  const place = useCallback(
    (task: Task, from: TaskGroup, to: TaskGroup, column: BoardColumn) => {
      const change = groupChange(task, group, from, to, boardLabels);
      const columnMove = column._id !== null && column._id !== task.columnId;
      if (!change && !columnMove) return;
      if (columnMove && column._id !== null) move.mutate({ task, columnId: column._id, category: column.category, afterId: null });
      // Queued after the move, so it is sent on the version the move leaves.
      if (change) update.mutate({ task, changes: change.changes, ...(change.labels ? { labels: change.labels } : {}) });
      const title = task.taskTitle;
      const lane = to.name;
      const columnName = displayName(column.name);
      onAnnounce(t`Moved ‘${title}’ to ${lane}, ${columnName}`);
    },
    [group, boardLabels, move, update, onAnnounce, t],
  );

  // Cells as drop targets; one monitor places the dropped card.
  const latest = useRef({ groups, columns, place });
  useEffect(() => {
    latest.current = { groups, columns, place };
  });
  // The cells on screen: none until the list is here (the lanes are drawn only then).
  const cellKeys = movable && list.data ? groups.map((g) => g.key).join(' ') + '|' + columns.map((c) => c._id).join(' ') + '|' + [...collapsed].join(' ') : '';
  useEffect(() => {
    const container = containerRef.current;
    if (!container || cellKeys === '') return;
    const cells = [...container.querySelectorAll<HTMLElement>('[data-lane-cell]')].map((cell) =>
      dropTargetForElements({
        element: cell,
        canDrop: ({ source }) => source.data[LANE_CARD_DRAG] === true && cell.dataset.dropOk === 'true',
        getData: () => ({ groupKey: cell.dataset.groupKey, columnId: cell.dataset.columnId }),
        onDragEnter: () => {
          cell.classList.add('lane__cell--over');
        },
        onDragLeave: () => {
          cell.classList.remove('lane__cell--over');
        },
        onDrop: () => {
          cell.classList.remove('lane__cell--over');
        },
      }),
    );
    const monitor = monitorForElements({
      canMonitor: ({ source }) => source.data[LANE_CARD_DRAG] === true,
      onDrop: ({ source, location }) => {
        const target = location.current.dropTargets[0];
        if (!target) return;
        const { groups: all, columns: shown, place: send } = latest.current;
        const from = all.find((g) => g.key === source.data.groupKey);
        const to = all.find((g) => g.key === target.data.groupKey);
        const column = shown.find((c) => c._id === target.data.columnId);
        if (!from || !to || !column) return;
        send(source.data.task as Task, from, to, column);
      },
    });
    return combine(monitor, ...cells);
  }, [cellKeys]);

  const onMoveKey = useCallback(
    (lane: TaskGroup) => (task: Task, direction: MoveDirection) => {
      const { groups: all, columns: shown, place: send } = latest.current;
      const column = shown.find((c) => inColumn(task, c));
      if (!column) return;
      if (direction === 'previous' || direction === 'next') {
        const at = shown.indexOf(column);
        const next = shown[direction === 'previous' ? at - 1 : at + 1];
        if (!next) return;
        send(task, lane, lane, next);
        refocus(task._id, lane.key, next._id);
        return;
      }
      const at = all.findIndex((g) => g.key === lane.key);
      const next = all[direction === 'up' ? at - 1 : at + 1];
      if (!next || !groupChange(task, group, lane, next, boardLabels)) return;
      send(task, lane, next, column);
      refocus(task._id, next.key, column._id);
    },
    [group, boardLabels],
  );

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

  const style = { '--columns': columns.length } as CSSProperties;
  const limit = formatNumber(VIEW_TASKS_MAX);
  return (
    <div className="lanes" ref={containerRef} data-group={group}>
      {list.data.truncated ? (
        <p className="table-view__note" role="note">
          <Trans>Showing the first {limit} tasks of this filter: narrow it (search, priority, labels) to see the rest.</Trans>
        </p>
      ) : null}
      {switcher}
      <div className="lanes__columns" style={style} aria-hidden="true">
        {columns.map((column) => (
          <span key={column._id ?? column.category} className="lanes__column-name">
            {displayName(column.name)}
          </span>
        ))}
      </div>
      {groups.map((lane) => (
        <Lane
          {...props}
          key={lane.key}
          lane={lane}
          collapsed={collapsed.has(lane.key)}
          onToggle={() => {
            toggleCollapsed(lane.key);
          }}
          onMoveKey={movable ? onMoveKey(lane) : undefined}
          style={style}
        />
      ))}
    </div>
  );
}

interface LaneProps extends GroupedBoardProps {
  lane: TaskGroup;
  collapsed: boolean;
  onToggle: () => void;
  onMoveKey: ((task: Task, direction: MoveDirection) => void) | undefined;
  style: CSSProperties;
}

/** One lane: its header (name, count, collapse) and a cell per column. */
function Lane({ lane, group, collapsed, onToggle, onMoveKey, style, columns, movable, compact, now, editing, onEdit, onDraftChange, onEditEnd, onDelete }: LaneProps) {
  const headingId = useId();
  const bodyId = useId();
  const count = lane.tasks.length;
  // An assignee cannot be taken off a task: "No assignee" takes no card.
  const dropOk = movable && !(group === 'assignee' && lane.value === null);
  const { t } = useLingui();
  return (
    <section className={cx('lane', collapsed && 'lane--collapsed')} aria-labelledby={headingId} data-group-key={lane.key}>
      <h2 className="lane__heading" id={headingId}>
        <button type="button" className="lane__toggle" aria-expanded={!collapsed} aria-controls={bodyId} aria-label={groupName(lane.name, count)} onClick={onToggle}>
          <svg className="lane__chevron" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
          <span className="lane__name" dir="auto">
            {lane.name}
          </span>
          <span className="lane__count" aria-hidden="true">
            {formatNumber(count)}
          </span>
        </button>
      </h2>
      <div className="lane__cells" id={bodyId} style={style} hidden={collapsed}>
        {collapsed
          ? null
          : columns.map((column) => {
              const tasks = lane.tasks.filter((task) => inColumn(task, column));
              const laneName = lane.name;
              const columnName = displayName(column.name);
              return (
                <div
                  key={column._id ?? column.category}
                  className="lane__cell"
                  role="group"
                  aria-label={t({ message: `${laneName}, ${columnName}`, comment: 'A cell of the grouped board: its group, its column' })}
                  data-lane-cell=""
                  data-group-key={lane.key}
                  data-column-id={column._id ?? undefined}
                  data-drop-ok={dropOk}
                >
                  {tasks.length === 0 ? (
                    <p className="lane__empty">
                      <Trans>No tasks</Trans>
                    </p>
                  ) : null}
                  {tasks.map((task) => {
                    const card = compact ? (
                      <CompactTaskCard task={task} now={now} onMoveKey={onMoveKey} />
                    ) : (
                      <TaskCard
                        task={task}
                        now={now}
                        draft={editing?.id === task._id ? editing : null}
                        onEdit={onEdit}
                        onDraftChange={onDraftChange}
                        onEditEnd={onEditEnd}
                        onDelete={onDelete}
                        onMoveKey={onMoveKey}
                      />
                    );
                    return movable ? (
                      <LaneCard key={task._id} task={task} groupKey={lane.key}>
                        {card}
                      </LaneCard>
                    ) : (
                      <div key={task._id}>{card}</div>
                    );
                  })}
                </div>
              );
            })}
      </div>
    </section>
  );
}

/** A card that can be dragged to another lane or column (not while it waits to be created). */
function LaneCard({ task, groupKey, children }: { task: Task; groupKey: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const pending = isPendingTask(task);
  useEffect(() => {
    const element = ref.current;
    if (!element || pending) return;
    return draggable({
      element,
      getInitialData: () => ({ [LANE_CARD_DRAG]: true, task, groupKey }),
      onDragStart: () => {
        setDragging(true);
      },
      onDrop: () => {
        setDragging(false);
      },
    });
  }, [task, groupKey, pending]);
  return (
    <div ref={ref} className="card-drag" data-dragging={dragging || undefined}>
      {children}
    </div>
  );
}
