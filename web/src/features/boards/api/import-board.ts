import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrelloImportEnvelope } from '#shared/schemas/trello-import.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { writeBoard } from './board-cache.ts';

/** Shown when a refused import's answer carries no message of its own. */
const IMPORT_FAILED = msg`The import failed.`;

/** A Trello board export (the JSON file) → a new board; its answer says what was imported. */
export async function importTrello(file: Blob) {
  const envelope = await apiRequest<TrelloImportEnvelope>('/boards/import/trello', {
    method: 'POST',
    upload: { data: file, type: 'application/json' },
    fallbackMessage: i18n._(IMPORT_FAILED),
  });
  return { board: envelope.data.board, counts: envelope.data.counts, message: envelope.message };
}

export function useImportTrello() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importTrello,
    onSuccess: ({ board }) => {
      writeBoard(queryClient, board);
    },
  });
}

/** What a CSV import answers: how many tasks (and whatever else it counts) it made. */
export interface CsvImportEnvelope {
  status: 'success';
  message?: string;
  data: { counts: { tasks: number } & Record<string, number> };
}

/** A CSV file (the columns of the board's CSV export) → tasks on the board. */
export async function importCsv({ boardId, file }: { boardId: string; file: Blob }) {
  const envelope = await apiRequest<CsvImportEnvelope>(`/boards/${encodeURIComponent(boardId)}/import.csv`, {
    method: 'POST',
    upload: { data: file, type: 'text/csv' },
    fallbackMessage: i18n._(IMPORT_FAILED),
  });
  return envelope.data.counts;
}

/** The board's CSV export: a download (the browser saves the answer's attachment). */
export const csvExportUrl = (boardId: string) => `/api/boards/${encodeURIComponent(boardId)}/export.csv`;
