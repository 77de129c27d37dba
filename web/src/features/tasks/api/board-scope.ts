import { createContext, use, useCallback } from 'react';
import { canChangeTask, canDeleteAttachment, canEditTasks } from '#shared/rights.ts';
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

/**
 * The full names of the board on screen's members with an account, by lower-cased address. A
 * context of its own: the members arrive after the board's cards are drawn, and only the cards
 * that show a person's initials are drawn again for them, not every card of the board.
 */
export const MemberNamesContext = createContext<ReadonlyMap<string, string> | undefined>(undefined);

export function useBoardScope(): BoardScope {
  return use(BoardScopeContext);
}

/** The full name of the person at `email` when they are a member of the board on screen with an account. */
export function useMemberName(email: string): string | undefined {
  return use(MemberNamesContext)?.get(email.toLowerCase());
}

/** The boards a task can be created on or moved to: where the viewer is admin or member. */
export function writableBoards(boards: readonly Board[] | undefined): Board[] {
  return (boards ?? []).filter((board) => canEditTasks(board.role));
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
 * write (by the rule of shared/rights.ts); this only hides what it would refuse: a viewer of the
 * task's board may change only the tasks assigned to them. While the boards load, and for a
 * board not in the list (which only its assignee sees a task of), the controls are offered.
 */
export function useCanChangeTask(task: Pick<Task, 'boardId' | 'assignee'>): boolean {
  const { boards } = useBoardScope();
  const { viewer } = useLiveBoard();
  const board = boards?.find((b) => b._id === task.boardId);
  return board === undefined || canChangeTask(board.role, task.assignee === viewer.email);
}

/**
 * Whether the viewer may delete a file of the task, by its uploader's address: the uploader, or
 * an admin of the task's board. Where the board is not known here, the server decides.
 */
export function useCanDeleteAttachment(task: Pick<Task, 'boardId'>): (uploaderEmail: string) => boolean {
  const { boards } = useBoardScope();
  const { viewer } = useLiveBoard();
  const board = boards?.find((b) => b._id === task.boardId);
  return useCallback((uploaderEmail) => board === undefined || canDeleteAttachment(board.role, uploaderEmail.toLowerCase() === viewer.email.toLowerCase()), [board, viewer.email]);
}

/**
 * Where completing (`done`) or reopening (`todo`) puts a task: the first column of that status on
 * its board, as the server does, unless it is in such a column already; undefined when the board
 * is not known here. Only for showing the card there before the answer.
 */
export function useStatusColumn(task: Pick<Task, 'boardId' | 'columnId'>, status: Task['status']): string | undefined {
  const { boards } = useBoardScope();
  const columns = boards?.find((b) => b._id === task.boardId)?.columns;
  if (!columns || columns.some((column) => column._id === task.columnId && column.category === status)) return undefined;
  return columns.find((column) => column.category === status)?._id;
}

/** Whether the viewer may create tasks on the board on screen ("All my tasks": on their own boards). */
export function useCanCreateHere(): boolean {
  const { boards, boardId } = useBoardScope();
  if (boardId === null) return true;
  const board = boards?.find((b) => b._id === boardId);
  return board === undefined || canEditTasks(board.role);
}
