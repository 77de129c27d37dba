import type { KeyboardEvent, MouseEvent } from 'react';
import { useLocation } from 'react-router';
import type { Task } from '#shared/schemas/tasks.ts';
import { displayName } from '#web/lib/product-names.ts';
import { inlineStep } from '#web/lib/direction.ts';
import { useLatestRouter } from '#web/lib/latest-router.tsx';
import { useBoardNames } from '../api/board-names.ts';
import { boardPath, useBoardScope } from '../api/board-scope.ts';
import { taskSelection, useIsSelected } from '../api/task-selection.ts';

/** Which way a keyboard move goes: to the previous or next column's top, or one place up or down. */
export type MoveDirection = 'previous' | 'next' | 'up' | 'down';

/**
 * The move an arrow key asks for on `card`: ArrowLeft to the column on its left, which is the
 * previous one left to right and the next one right to left (lib/direction.ts).
 */
export function moveDirectionOf(key: string, card: Element): MoveDirection | undefined {
  if (key === 'ArrowUp') return 'up';
  if (key === 'ArrowDown') return 'down';
  const step = inlineStep(key, card);
  return step === 0 ? undefined : step < 0 ? 'previous' : 'next';
}

/** A card's task page: over the board on screen (its address keeps the board), the filters kept behind it. */
export function useTaskPath(task: Pick<Task, '_id'>): { pathname: string; search: string } {
  const { search } = useLocation();
  const { boardId } = useBoardScope();
  return taskPathOf(task._id, boardId, search);
}

/** `useTaskPath` for a list that reads the address and the board once for all its rows. */
export function taskPathOf(taskId: string, boardId: string | null | undefined, search: string): { pathname: string; search: string } {
  const pathname = boardId ? `${boardPath(boardId)}/tasks/${encodeURIComponent(taskId)}` : `/tasks/${encodeURIComponent(taskId)}`;
  return { pathname, search };
}

/**
 * What a card does with keys and clicks: a click or Enter opens its task page; Shift+click
 * (or Ctrl/Cmd+click) selects it (`selected`, and `data-selected` on the card); Alt+arrows move it (`onMove`,
 * where the board allows moves and the viewer may change the task). Only keys pressed on the
 * card itself, not on a control in it. `cardProps` go on the card's `article`: focusable, so
 * Enter and Alt+arrows reach it (its title link and buttons stay in the tab order).
 */
export function useCardKeys(task: Task, onMove: ((task: Task, direction: MoveDirection) => void) | undefined) {
  // The address is read when the card is opened, not when it renders: a change of filters or
  // search does not re-render every card on screen.
  const router = useLatestRouter();
  const { boardId } = useBoardScope();
  const open = () => {
    const { navigate, location } = router();
    void navigate(taskPathOf(task._id, boardId, location.search), { state: { fromBoard: true } });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      open();
      return;
    }
    const direction = event.altKey && !event.ctrlKey && !event.metaKey ? moveDirectionOf(event.key, event.currentTarget) : undefined;
    if (direction && onMove) {
      event.preventDefault();
      onMove(task, direction);
    }
  };
  const selected = useIsSelected(task._id);
  // A click anywhere on the card but its controls (and the edit form) opens it too; not when it
  // ends a text selection. With Shift, Ctrl or Cmd it picks the card for a change of many
  // tasks at once (the bulk bar) instead.
  const onClick = (event: MouseEvent<HTMLElement>) => {
    if (!(event.target instanceof Element) || event.target.closest('a, button, input, select, textarea, label, form')) return;
    if (event.shiftKey || event.ctrlKey || event.metaKey) {
      // Shift+click also extends the page's text selection: not wanted here.
      window.getSelection()?.removeAllRanges();
      taskSelection.toggle(task._id);
      return;
    }
    if ((window.getSelection()?.toString() ?? '') !== '') return;
    open();
  };
  return { open, selected, cardProps: { 'data-task-id': task._id, 'data-selected': selected || undefined, tabIndex: 0, onKeyDown, onClick } };
}

/**
 * In "All my tasks", where a card is: its board's name and its column's (boards differ in their
 * columns), as shown (the product's own names in the reader's language). A board the viewer is not on (a task of it is assigned to them) is asked for its
 * names. Undefined on a board, and until the names are known.
 */
export function useCardPlace(task: Pick<Task, 'boardId' | 'columnId'>): { boardName: string; columnName: string | undefined } | undefined {
  const { boards, boardId } = useBoardScope();
  const own = boards?.find((b) => b._id === task.boardId);
  const other = useBoardNames(task.boardId, boardId === null && boards !== undefined && own === undefined);
  const board = boardId === null ? (own ?? other) : undefined;
  if (!board) return undefined;
  const columnName = board.columns.find((column) => column._id === task.columnId)?.name;
  return { boardName: displayName(board.name), columnName: columnName === undefined ? undefined : displayName(columnName) };
}

