import type { Kysely } from 'kysely';
import type { Executor } from '../db/prepared.ts';
import { placedAtTop } from './columns-repository.ts';
import type { DB, TasksTable } from '../db/schema.ts';
import type { Insertable } from 'kysely';

/** Rows per insert statement: 18 values a task, well under SQLite's and PostgreSQL's limits of bound values. */
const CHUNK = 500;

/** A task row of an import, with the reminder schedule's column (see outbox-repository.ts). */
export type ImportedTask = Omit<Insertable<TasksTable>, 'columnId' | 'position'> & { nextReminderAt: string | null };
/** An imported task already placed (its column and key). */
export type PlacedImportedTask = ImportedTask & { columnId: string; position: string };

/** The bulk writes of a board's CSV import (services/csv-import.ts), run in the import's one transaction. */
export function createTaskImportRepository(db: Kysely<DB>) {
  return {
    /** The tasks go to the top of the first column of their status, the first row topmost. */
    /** Inserts tasks: each at the top of its board's first column of its status, unless all are placed already. */
    async insertTasks(unplaced: readonly ImportedTask[] | readonly PlacedImportedTask[], ex: Executor = db): Promise<void> {
      const isPlaced = (rows: readonly ImportedTask[] | readonly PlacedImportedTask[]): rows is readonly PlacedImportedTask[] => rows.every((row) => 'columnId' in row);
      const rows = isPlaced(unplaced) ? unplaced : await placedAtTop(ex, unplaced);
      const tasks = ex.$extendTables<{ tasks: { nextReminderAt: string | null } }>();
      for (let i = 0; i < rows.length; i += CHUNK) await tasks.insertInto('tasks').values(rows.slice(i, i + CHUNK)).execute();
    },

    async insertTaskLabels(rows: readonly { taskId: string; labelId: string }[], ex: Executor = db): Promise<void> {
      for (let i = 0; i < rows.length; i += CHUNK * 4) await ex.insertInto('taskLabels').values(rows.slice(i, i + CHUNK * 4)).execute();
    },

    /** The board's labels as (name key → id). */
    async labelKeys(boardId: string, ex: Executor = db): Promise<Map<string, string>> {
      const rows = await ex.selectFrom('labels').select(['id', 'nameKey']).where('boardId', '=', boardId).execute();
      return new Map(rows.map((row) => [row.nameKey, row.id]));
    },
  };
}

export type TaskImportRepository = ReturnType<typeof createTaskImportRepository>;
