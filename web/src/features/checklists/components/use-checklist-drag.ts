import { combine } from '@atlaskit/pragmatic-drag-and-drop/combine';
import { draggable, dropTargetForElements, monitorForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import { attachClosestEdge } from '@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge/attach-closest-edge';
import { extractClosestEdge } from '@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge/extract-closest-edge';
import { getReorderDestinationIndex } from '@atlaskit/pragmatic-drag-and-drop-hitbox/util/get-reorder-destination-index';
import { useEffect, useRef, type RefObject } from 'react';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';

/** Marks drags of this list's items, so no other drag (a file, another task's item) lands here. */
const LIST_KEY = 'taskwiseChecklistItem';

/**
 * Dragging items by their handle (docs/decisions/066-checklist-drag-with-pragmatic-drag-and-drop.md):
 * the item under the pointer shows a line at the edge it would go to (`data-drop-edge`), and a
 * drop calls `onMove(itemId, index)`. Items marked `data-item` in `listRef` with a
 * `[data-control="handle"]` take part; the list is registered again whenever its items change.
 */
export function useChecklistDrag(listRef: RefObject<HTMLOListElement | null>, items: readonly ChecklistItem[], onMove: (itemId: string, to: number) => void): void {
  const onMoveRef = useRef(onMove);
  useEffect(() => {
    onMoveRef.current = onMove;
  });
  const order = items.map((item) => item._id).join(' ');
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const ids = order.split(' ');
    const cleanups = [...list.querySelectorAll<HTMLElement>('li[data-item]')].flatMap((row) => {
      const handle = row.querySelector('[data-control="handle"]');
      const itemId = row.dataset.item ?? '';
      if (!handle) return [];
      const showEdge = (edge: string | null) => {
        if (edge) row.dataset.dropEdge = edge;
        else delete row.dataset.dropEdge;
      };
      return [
        draggable({
          element: row,
          dragHandle: handle,
          getInitialData: () => ({ [LIST_KEY]: true, itemId }),
          onDragStart: () => { row.classList.add('checklist__item--dragging'); },
          onDrop: () => { row.classList.remove('checklist__item--dragging'); },
        }),
        dropTargetForElements({
          element: row,
          canDrop: ({ source }) => source.data[LIST_KEY] === true,
          getData: ({ input, element }) => attachClosestEdge({ itemId }, { input, element, allowedEdges: ['top', 'bottom'] }),
          onDrag: ({ self, source }) => {
            showEdge(source.data.itemId === itemId ? null : extractClosestEdge(self.data));
          },
          onDragLeave: () => {
            showEdge(null);
          },
          onDrop: () => {
            showEdge(null);
          },
        }),
      ];
    });
    const monitor = monitorForElements({
      canMonitor: ({ source }) => source.data[LIST_KEY] === true,
      onDrop: ({ source, location }) => {
        const target = location.current.dropTargets[0];
        if (!target) return;
        const sourceId = String(source.data.itemId);
        const startIndex = ids.indexOf(sourceId);
        const indexOfTarget = ids.indexOf(String(target.data.itemId));
        if (startIndex < 0 || indexOfTarget < 0) return;
        const to = getReorderDestinationIndex({ startIndex, indexOfTarget, closestEdgeOfTarget: extractClosestEdge(target.data), axis: 'vertical' });
        if (to !== startIndex) onMoveRef.current(sourceId, to);
      },
    });
    return combine(monitor, ...cleanups);
  }, [listRef, order]);
}
