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
  'checklistDone',
  'checklistTotal',
  'repeatEvery',
  'repeatUnit',
  'columnId',
  'position',
  'startAt',
  'attachmentCount',
  'coverId',
  'coverWidth',
  'coverHeight',
] as const;

type TaskColumns = typeof TASK_COLUMNS;
type Prefixed<T extends readonly string[], P extends string> = { readonly [K in keyof T]: `${P}${T[K] & string}` };
export type TaskColumn = TaskColumns[number];

/**
 * The columns a list reads of each task: TASK_COLUMNS and the ids of its labels
 * (`tasks.label_ids`: comma-separated, null when it has none; triggers on task_labels keep it,
 * migration 0031). The labels themselves are read once per page (task-label-reads.ts).
 */
export const LISTED_COLUMNS = [...TASK_COLUMNS, 'labelIds'] as const;
export type ListedColumn = (typeof LISTED_COLUMNS)[number];

/** The select list of every query whose rows are TaskRowValues (`t`: tasks, `u`: its creator). */
export function taskSelect() {
  return [
    // `map` loses the tuple's order in its type; the prefix is the only change.
    ...(TASK_COLUMNS.map((c) => `t.${c}` as const) as unknown as Prefixed<TaskColumns, 't.'>),
    'u.fullName as assignor',
    'u.email as assignorEmail',
    't.labelIds',
  ] as const;
}

/** Tasks with their creator (the assignor), selected as `taskSelect`: the query every task row's type comes from. */
export function selectTasks(db: Kysely<DB>) {
  return db.selectFrom('tasks as t').innerJoin('users as u', 'u.id', 't.createdBy').select(taskSelect());
}

/**
 * A task row of the board's queries, read as an array (prepare's `rowsAsArrays`): the values of
 * `taskSelect` in that order (TASK_COLUMNS, then the creator's full name and e-mail, then the
 * label ids), each typed as Kysely types it in `selectTasks`. Only tasks-repository.ts reads it.
 */
export type TaskRowValues = ValuesOf<InferResult<ReturnType<typeof selectTasks>>[number], TaskSelectNames>;
type TaskSelectNames = readonly [...Prefixed<TaskColumns, 't.'>, 'u.fullName as assignor', 'u.email as assignorEmail', 't.labelIds'];

/** A task row written and read back (`returning(TASK_COLUMNS)`), as an array. */
export type TaskColumnValues = ValuesOf<Selectable<DB['tasks']>, TaskColumns>;

/** A column of `prefix` (a table alias, or '' for an unqualified name) as an SQL reference. */
export const columnRef = (prefix: string, name: string) => sql.ref(prefix === '' ? name : `${prefix}.${name}`);
