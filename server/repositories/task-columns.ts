import { sql, type InferResult, type Kysely, type Selectable } from 'kysely';
import type { ValuesOf } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';

/** The columns of a task, in the order every task row (`TaskRowValues`, `TaskColumnValues`) has them. */
export const TASK_COLUMNS = [
  'id',
  'workTitle',
  'taskTitle',
  'assigneeEmail',
  'createdBy',
  'deadline',
  'priority',
  'status',
  'description',
  'createdAt',
  'updatedAt',
  'version',
  'boardId',
] as const;

type TaskColumns = typeof TASK_COLUMNS;
type Prefixed<T extends readonly string[], P extends string> = { readonly [K in keyof T]: `${P}${T[K] & string}` };
export type TaskColumn = TaskColumns[number];

/** The select list of every query whose rows are TaskRowValues (`t`: tasks, `u`: its creator). */
export const TASK_SELECT = [
  // `map` loses the tuple's order in its type; the prefix is the only change.
  ...(TASK_COLUMNS.map((c) => `t.${c}` as const) as unknown as Prefixed<TaskColumns, 't.'>),
  'u.fullName as assignor',
  'u.email as assignorEmail',
] as const;

/** Tasks with their creator (the assignor), selected as TASK_SELECT: the query every task row's type comes from. */
export function selectTasks(db: Kysely<DB>) {
  return db.selectFrom('tasks as t').innerJoin('users as u', 'u.id', 't.createdBy').select(TASK_SELECT);
}

/**
 * A task row of the board's queries, read as an array (prepare's `rowsAsArrays`): the values of
 * TASK_SELECT in that order (TASK_COLUMNS, then the creator's full name and e-mail), each typed
 * as Kysely types it in `selectTasks`. Only `toTaskJson` (tasks-repository.ts) reads it.
 */
export type TaskRowValues = ValuesOf<InferResult<ReturnType<typeof selectTasks>>[number], typeof TASK_SELECT>;

/** A task row written and read back (`returning(TASK_COLUMNS)`), as an array. */
export type TaskColumnValues = ValuesOf<Selectable<DB['tasks']>, TaskColumns>;

/** A column of `prefix` (a table alias, or '' for an unqualified name) as an SQL reference. */
export const columnRef = (prefix: string, name: string) => sql.ref(prefix === '' ? name : `${prefix}.${name}`);
