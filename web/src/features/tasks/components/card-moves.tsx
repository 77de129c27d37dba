import { combine } from '@atlaskit/pragmatic-drag-and-drop/combine';
import { draggable, dropTargetForElements, monitorForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import { attachClosestEdge } from '@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge/attach-closest-edge';
import { extractClosestEdge } from '@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge/extract-closest-edge';
import { t } from '@lingui/core/macro';
import type { Edge } from '@atlaskit/pragmatic-drag-and-drop-hitbox/types';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Column } from '#shared/schemas/columns.ts';
import type { Task, TaskCounts } from '#shared/schemas/tasks.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { startSide } from '#web/lib/direction.ts';
import type { BoardFilter } from '../api/board-filter.ts';
import type { ColumnChange } from '../api/change-columns.ts';
import { useMoveTask } from '../api/move-task.ts';
import { isPendingTask } from '../api/pending-tasks.ts';
import { taskKeys, type TaskPages } from '../api/query-keys.ts';
import type { MoveDirection } from './card-behaviour.ts';

/** Marks the board's drags, so nothing else (a file, a checklist item) lands on a column. */
const CARD_DRAG = 'taskwiseCard';
const COLUMN_DRAG = 'taskwiseColumn';

/** The loaded cards of a board's column, in the order shown. */
function cardsOf(queryClient: QueryClient, column: Column, filter: BoardFilter): Task[] {
  const data = queryClient.getQueryData<TaskPages>(taskKeys.list(column.category, filter, column._id));
  return data?.pages.flatMap((page) => page.tasks) ?? [];
}

/**
 * What a screen reader hears after a move (`column`: the name as shown). The title is in curly
 * quotes: a straight apostrophe is the escape character of the messages' format (ICU), which
 * would print "{title}" itself.
 */
export function movedText(title: string, column: string, position: number | null, total: number | null): string {
  if (position === null || total === null) return t`Moved ‘${title}’ to ${column}`;
  const place = formatNumber(position);
  const size = formatNumber(total);
  return t`Moved ‘${title}’ to ${column}, position ${place} of ${size}`;
}

/**
 * The column a column dropped at `edge` of `targetId`'s lands after (null: first). The edge is
 * the side on screen (the hitbox's): the layout's start side, left or right to left the right,
 * puts it before the target.
 */
export function columnDropAfter(columns: readonly Column[], movedId: string, targetId: string, edge: Edge | null, element: Element): string | null {
  const others = columns.filter((c) => c._id !== movedId);
  const at = others.findIndex((c) => c._id === targetId);
  return edge === startSide(element) ? (others[at - 1]?._id ?? null) : targetId;
}

/** Puts focus back on a moved card once it is drawn in its new column (a second at most). */
function refocus(taskId: string, columnId: string, tries = 60): void {
  requestAnimationFrame(() => {
    const card = document.querySelector<HTMLElement>(`[data-column-id="${CSS.escape(columnId)}"] [data-task-id="${CSS.escape(taskId)}"]`);
    if (card) {
      if (document.activeElement !== card) card.focus();
    } else if (tries > 0) refocus(taskId, columnId, tries - 1);
  });
}

interface CardMovesOptions {
  /** The board's columns; none on "All my tasks", where cards are not moved. */
  columns: readonly Column[] | undefined;
  filter: BoardFilter;
  counts: TaskCounts | undefined;
  /** Whether the viewer may reorder the board's columns (dragging a column's header). */
  canChangeColumns: boolean;
  changeColumns: (change: ColumnChange) => Promise<unknown>;
}

/**
 * Moving cards on a board: by keyboard (Alt+arrows on a focused card) and by drag and drop
 * (pragmatic-drag-and-drop: cards within a column in Manual order, cards between columns, and
 * columns by their header for who may change them). A move sends only the column and the card
 * it goes below; the server computes its position. Each move is announced in a live region.
 */
export function useCardMoves({ columns, filter, counts, canChangeColumns, changeColumns }: CardMovesOptions) {
  const queryClient = useQueryClient();
  const move = useMoveTask();
  const [announcement, setAnnouncement] = useState('');
  const columnsRef = useRef<HTMLDivElement>(null);
  const manual = filter.sort === 'position';

  const total = useCallback(
    (column: Column, loaded: number) => Math.max(counts?.columns?.[column._id] ?? loaded, loaded),
    [counts],
  );

  /** Moves `task` into `column` directly below `afterId` and says where it went. */
  const moveTo = useCallback(
    (task: Task, column: Column, afterId: string | null) => {
      if (task.columnId === column._id && (afterId === task._id || !manual)) return;
      const cards = cardsOf(queryClient, column, filter).filter((t) => t._id !== task._id);
      const index = afterId === null ? 0 : cards.findIndex((t) => t._id === afterId) + 1;
      const size = total(column, cards.length + (task.columnId === column._id ? 1 : 0)) + (task.columnId === column._id ? 0 : 1);
      move.mutate({ task, columnId: column._id, category: column.category, afterId });
      setAnnouncement(movedText(task.taskTitle, displayName(column.name), manual ? index + 1 : null, manual ? size : null));
    },
    [queryClient, filter, manual, move, total],
  );

  const onMoveKey = useMemo(() => {
    if (!columns) return undefined;
    return (task: Task, direction: MoveDirection) => {
      const at = columns.findIndex((column) => column._id === task.columnId);
      const here = columns[at];
      if (!here) return;
      if (direction === 'previous' || direction === 'next') {
        const target = columns[direction === 'previous' ? at - 1 : at + 1];
        if (!target) return;
        moveTo(task, target, null);
        refocus(task._id, target._id);
      } else {
        // One place up or down exists only in the column's own order.
        if (!manual) return;
        const cards = cardsOf(queryClient, here, filter);
        const index = cards.findIndex((t) => t._id === task._id);
        if (index === -1) return;
        if (direction === 'up') {
          if (index === 0) return;
          moveTo(task, here, index >= 2 ? (cards[index - 2]?._id ?? null) : null);
        } else {
          const below = cards[index + 1];
          if (!below) return;
          moveTo(task, here, below._id);
        }
        refocus(task._id, here._id);
      }
    };
  }, [columns, manual, queryClient, filter, moveTo]);

  // Columns as drop targets (a card dropped on a column, not on a card, goes to its end; on an
  // empty one, its top), and their headers as drag handles for who may reorder them.
  const columnIds = columns?.map((column) => column._id).join(' ') ?? '';
  const latest = useRef({ columns, moveTo, changeColumns, filter });
  useEffect(() => {
    latest.current = { columns, moveTo, changeColumns, filter };
  });
  useEffect(() => {
    const container = columnsRef.current;
    if (!container || columnIds === '') return;
    const findColumn = (id: unknown) => latest.current.columns?.find((column) => column._id === id);
    const cleanups = [...container.querySelectorAll<HTMLElement>('section[data-column-id]')].flatMap((section) => {
      const columnId = section.dataset.columnId ?? '';
      const header = section.querySelector<HTMLElement>('.column__header');
      const showOver = (over: boolean) => {
        section.classList.toggle('column--drop-over', over);
      };
      const showEdge = (edge: string | null) => {
        if (edge) section.dataset.dropEdge = edge;
        else delete section.dataset.dropEdge;
      };
      return [
        dropTargetForElements({
          element: section,
          canDrop: ({ source }) => source.data[CARD_DRAG] === true || (source.data[COLUMN_DRAG] === true && source.data.columnId !== columnId),
          getData: ({ input, element }) => attachClosestEdge({ columnId }, { input, element, allowedEdges: ['left', 'right'] }),
          onDrag: ({ source, self, location }) => {
            if (source.data[COLUMN_DRAG] === true) showEdge(extractClosestEdge(self.data));
            // Over the column itself, not one of its cards (which shows its own line).
            else showOver(location.current.dropTargets[0]?.element === section);
          },
          onDragLeave: () => {
            showOver(false);
            showEdge(null);
          },
          onDrop: () => {
            showOver(false);
            showEdge(null);
          },
        }),
        ...(canChangeColumns && header
          ? [draggable({ element: section, dragHandle: header, getInitialData: () => ({ [COLUMN_DRAG]: true, columnId }) })]
          : []),
      ];
    });
    const monitor = monitorForElements({
      canMonitor: ({ source }) => source.data[CARD_DRAG] === true || source.data[COLUMN_DRAG] === true,
      onDrop: ({ source, location }) => {
        const target = location.current.dropTargets[0];
        if (!target) return;
        const { columns: all, moveTo: send, changeColumns: change, filter: current } = latest.current;
        const column = findColumn(target.data.columnId);
        if (!column || !all) return;
        if (source.data[COLUMN_DRAG] === true) {
          const moved = String(source.data.columnId);
          const afterId = columnDropAfter(all, moved, column._id, extractClosestEdge(target.data), target.element);
          change({ kind: 'update', columnId: moved, body: { afterId } }).catch(() => undefined);
          return;
        }
        const task = source.data.task as Task;
        const cards = cardsOf(queryClient, column, current).filter((t) => t._id !== task._id);
        if (current.sort !== 'position') {
          // Not in the column's own order: the card goes to its top.
          send(task, column, null);
        } else if (typeof target.data.taskId !== 'string') {
          // On the column, not on a card: its end.
          send(task, column, cards.at(-1)?._id ?? null);
        } else {
          const targetId = target.data.taskId;
          const at = cards.findIndex((t) => t._id === targetId);
          const afterId = extractClosestEdge(target.data) === 'top' ? (cards[at - 1]?._id ?? null) : targetId;
          send(task, column, afterId);
        }
      },
    });
    return combine(monitor, ...cleanups);
  }, [columnIds, canChangeColumns, queryClient]);

  const wrapCard = useMemo(() => {
    if (!columns) return undefined;
    return (task: Task, card: ReactNode) => (
      <DraggableCard task={task} manual={manual}>
        {card}
      </DraggableCard>
    );
  }, [columns, manual]);

  return { onMoveKey, wrapCard, columnsRef, announcement };
}

/**
 * A card that can be dragged (by the mouse, or by touch where the browser drags on a long
 * press) and dropped on: a line shows at the edge of the card it would land next to. Within
 * its own column only in Manual order; onto another column's card in any order.
 */
function DraggableCard({ task, manual, children }: { task: Task; manual: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [edge, setEdge] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const pending = isPendingTask(task);
  useEffect(() => {
    const element = ref.current;
    if (!element || pending) return;
    const { _id: taskId, columnId } = task;
    return combine(
      draggable({
        element,
        getInitialData: () => ({ [CARD_DRAG]: true, task, columnId }),
        onDragStart: () => {
          setDragging(true);
        },
        onDrop: () => {
          setDragging(false);
        },
      }),
      dropTargetForElements({
        element,
        canDrop: ({ source }) => source.data[CARD_DRAG] === true && (source.data.task as Task)._id !== taskId && (manual || (source.data.columnId !== columnId)),
        getData: ({ input, element: target }) => attachClosestEdge({ taskId, columnId }, { input, element: target, allowedEdges: ['top', 'bottom'] }),
        onDrag: ({ self }) => {
          setEdge(manual ? extractClosestEdge(self.data) : 'top');
        },
        onDragLeave: () => {
          setEdge(null);
        },
        onDrop: () => {
          setEdge(null);
        },
      }),
    );
  }, [task, manual, pending]);
  return (
    <div ref={ref} className="card-drag" data-drop-edge={edge ?? undefined} data-dragging={dragging || undefined}>
      {children}
    </div>
  );
}
