import type { Kysely } from 'kysely';
import type { LabelColor } from '#shared/constants.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** The case-insensitive key of a label's name (the unique index is on it): lower-cased here, as SQLite's lower() knows only ASCII. */
export const nameKeyOf = (name: string) => name.toLowerCase();

/**
 * A board's labels and which tasks carry them. Labels are ordered by `name_key`, the order Task
 * JSON lists them in too (task-columns.ts), so a task's labels and the board's list agree.
 */
export function createLabelsRepository(db: Kysely<DB>) {
  const select = (ex: Executor) => ex.selectFrom('labels').select(['id', 'name', 'color']);
  /** Label JSON, field by field. */
  const toLabel = (row: { id: string; name: string; color: LabelColor }): Label => ({ _id: row.id, name: row.name, color: row.color });

  return {
    /** The board's labels, by name. */
    async list(boardId: string, ex: Executor = db): Promise<Label[]> {
      return (await select(ex).where('boardId', '=', boardId).orderBy('nameKey').execute()).map(toLabel);
    },

    async find(boardId: string, labelId: string, ex: Executor = db): Promise<Label | undefined> {
      const row = await select(ex).where('boardId', '=', boardId).where('id', '=', labelId).executeTakeFirst();
      return row === undefined ? undefined : toLabel(row);
    },

    /** Those of `ids` that are labels of the board, by name (a task's labels as Task JSON lists them). */
    async ofBoard(boardId: string, ids: readonly string[], ex: Executor = db): Promise<Label[]> {
      if (ids.length === 0) return [];
      return (await select(ex).where('boardId', '=', boardId).where('id', 'in', ids).orderBy('nameKey').execute()).map(toLabel);
    },

    async count(boardId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('labels')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
        .where('boardId', '=', boardId)
        .executeTakeFirstOrThrow();
      return row.n;
    },

    /** A new label; a name the board already has (ignoring case) fails on the unique index (isUniqueViolation). */
    async insert(label: { id: string; boardId: string; name: string; color: LabelColor; at: string }, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('labels')
        .values({ id: label.id, boardId: label.boardId, name: label.name, nameKey: nameKeyOf(label.name), color: label.color, createdAt: label.at, updatedAt: label.at })
        .execute();
    },

    /** Renames or recolors a label of the board (the unique index guards the name, as on insert). */
    async update(boardId: string, labelId: string, changes: { name?: string; color?: LabelColor; updatedAt: string }, ex: Executor = db): Promise<void> {
      const { name, ...rest } = changes;
      await ex
        .updateTable('labels')
        .set(name === undefined ? rest : { ...rest, name, nameKey: nameKeyOf(name) })
        .where('boardId', '=', boardId)
        .where('id', '=', labelId)
        .execute();
    },

    /** Deletes a label of the board (its task_labels rows cascade); false when there was none. */
    async delete(boardId: string, labelId: string, ex: Executor = db): Promise<boolean> {
      const result = await ex.deleteFrom('labels').where('boardId', '=', boardId).where('id', '=', labelId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type LabelsRepository = ReturnType<typeof createLabelsRepository>;

