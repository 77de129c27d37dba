import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Column, ColumnEnvelope, CreateColumnBody, UpdateColumnBody } from '#shared/schemas/columns.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { refreshTasks } from './query-keys.ts';

/*
 * A board's columns: added, changed (name, WIP limit, category, place) and deleted by who may
 * change them (the server decides; the menu is only offered to them). These are sent at once,
 * not queued: they are a board admin's setup, refused offline with the server's words, never
 * guessed on the device. The board's columns come back through its `board.updated` event; the
 * caller's `onChanged` asks for the board again meanwhile, so this tab does not wait for it.
 */

const columnsPath = (boardId: string) => `/boards/${encodeURIComponent(boardId)}/columns`;
const columnPath = (boardId: string, columnId: string) => `${columnsPath(boardId)}/${encodeURIComponent(columnId)}`;

export async function createColumn(boardId: string, body: CreateColumnBody): Promise<Column> {
  const envelope = await apiRequest<ColumnEnvelope>(columnsPath(boardId), { method: 'POST', body });
  return envelope.data.column;
}

export async function updateColumn(boardId: string, columnId: string, body: UpdateColumnBody): Promise<Column> {
  const envelope = await apiRequest<ColumnEnvelope>(columnPath(boardId, columnId), { method: 'PATCH', body });
  return envelope.data.column;
}

export async function deleteColumn(boardId: string, columnId: string, moveTo: string | undefined): Promise<void> {
  await apiRequest(columnPath(boardId, columnId), { method: 'DELETE', query: { moveTo }, expectNoContent: true });
}

export type ColumnChange =
  | { kind: 'create'; body: CreateColumnBody }
  | { kind: 'update'; columnId: string; body: UpdateColumnBody }
  | { kind: 'delete'; columnId: string; moveTo?: string };

/**
 * One change of the board's columns. `onChanged`: asks for the board (its columns) again.
 * Deleting a column moves its tasks, and a category is its tasks' status: the board's lists are
 * asked again then too.
 */
export function useChangeColumns(boardId: string, onChanged: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ColumnChange): Promise<void> => {
      if (change.kind === 'create') await createColumn(boardId, change.body);
      else if (change.kind === 'update') await updateColumn(boardId, change.columnId, change.body);
      else await deleteColumn(boardId, change.columnId, change.moveTo);
    },
    onSuccess: async (_data, change) => {
      await onChanged();
      // A deleted column's tasks moved; a column's category is its tasks' status.
      if (change.kind === 'delete' || (change.kind === 'update' && change.body.category !== undefined)) await refreshTasks(queryClient);
    },
  });
}
