import { createContext, use } from 'react';
import type { Board } from '#shared/schemas/boards.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { useLiveBoard } from './live-board-context.ts';

/**
 * What the task screens know of boards, handed down by the app (features do not import each
 * other): the boards the viewer is on, with their role, and the board on screen.
 */
export interface BoardScope {
  /** The viewer's boards, personal first; undefined while they load. */
  boards: readonly Board[] | undefined;
  /** The board on screen (`/boards/:id`); null on "All my tasks". */
  boardId: string | null;
}

export const BoardScopeContext = createContext<BoardScope>({ boards: undefined, boardId: null });

export function useBoardScope(): BoardScope {
  return use(BoardScopeContext);
}

/** The boards a task can be created on or moved to: where the viewer is admin or member. */
export function writableBoards(boards: readonly Board[] | undefined): Board[] {
  return (boards ?? []).filter((board) => board.role !== 'viewer');
}

export function personalBoardOf(boards: readonly Board[] | undefined): Board | undefined {
  return boards?.find((board) => board.personal);
}

/** The address of the board on screen, or of "All my tasks". */
export function boardPath(boardId: string | null): string {
  return boardId ? `/boards/${encodeURIComponent(boardId)}` : '/tasks';
}

/**
 * Whether to offer the edit, complete and delete controls of a task. The server decides every
 * write; this only hides what it would refuse: a viewer of the task's board may change only
 * the tasks assigned to them. A board not in the list (a task assigned to the viewer on a board
 * they are not on) is theirs to change as its assignee.
 */
export function useCanChangeTask(task: Pick<Task, 'boardId' | 'assignee'>): boolean {
  const { boards } = useBoardScope();
  const { viewer } = useLiveBoard();
  if (task.assignee === viewer.email) return true;
  return boards?.find((board) => board._id === task.boardId)?.role !== 'viewer';
}

/** Whether the viewer may create tasks on the board on screen (every board but a viewer's). */
export function useCanCreateHere(): boolean {
  const { boards, boardId } = useBoardScope();
  if (boardId === null) return true;
  return boards?.find((board) => board._id === boardId)?.role !== 'viewer';
}
