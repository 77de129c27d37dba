import type { Column } from '#shared/schemas/columns.ts';
import type { BoardFilter } from '../api/board-filter.ts';
import type { BoardGroup } from '../api/board-group.ts';

/** What every view other than the board's columns is given by the board page (task-board.tsx). */
export interface ViewProps {
  /** The filter of the page (from its address): every view shows exactly its tasks. */
  filter: BoardFilter;
  /** The board on screen; "" on "All my tasks". */
  boardId: string;
  /** The board's columns, left to right; undefined on "All my tasks" (its two categories). */
  columns: readonly Column[] | undefined;
  /** How the view groups its tasks (`?group=`; the table's only); none when not given. */
  group?: BoardGroup;
}
