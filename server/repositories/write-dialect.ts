import type { Dialect } from '../db/connect.ts';
import { EVENT_CHANNEL_SQL, EVENT_ORDER_LOCK_SQL } from './events-repository.ts';

/** How a field of a write's JSON rows is read (PostgreSQL declares it; SQLite reads JSON's own type). */
export type JsonFieldType = 'text' | 'integer' | 'boolean';

/**
 * Everything in which the SQL of a task write differs between the databases, and nothing else:
 * the parts of a write (write-parts.ts) are described once and built through this.
 *
 * PostgreSQL runs a write as ONE statement of CTEs: every CTE reads the snapshot from before the
 * statement, a part reads the written task row from the `task` CTE, and the event-order lock and
 * the NOTIFY are CTEs of the same statement. SQLite runs the same parts one statement at a time,
 * after the task row, in the caller's transaction (one writer at a time, no network): a part
 * reads the task row from the table and sees the rows the statements before it wrote.
 */
export interface WriteDialect {
  readonly name: Dialect;
  /** True: one statement whose CTEs read the snapshot before it. False: statements one by one, each seeing the earlier ones' rows. */
  readonly oneStatement: boolean;
  /** The placeholder of the `index`-th parameter (1-based) of a statement. */
  placeholder(index: number): string;
  /** A FROM item of the rows of the JSON array bound at `param`, named `alias`; `fields`: its fields and their types. */
  jsonRows(param: string, alias: string, fields: Readonly<Record<string, JsonFieldType>>): string;
  /** Field `name` of a row of `jsonRows` named `alias`. */
  field(alias: string, name: string): string;
  /** What a list of text values is bound as (see `listRows`, `inList`). */
  listValue(values: readonly string[]): unknown;
  /** A FROM item of the values of the list bound at `param`, named `alias`, its value `alias.value`. */
  listRows(param: string, alias: string): string;
  /** `expr` is one of the list bound at `param`. */
  inList(expr: string, param: string): string;
  /** `value` is an element of `array`, JSON text of an array of strings (a column). */
  inJsonArray(value: string, array: string): string;
  /** A JSON object (SQL expression) of `[key, SQL expression]` pairs; `jsonText` makes it text. */
  jsonObject(pairs: readonly (readonly [string, string])[]): string;
  jsonText(object: string): string;
  /** Where the parts read the task row as written: the `task` CTE, or the table (written before them). */
  readonly taskRows: string;
  /** The guard of every part: the task row was written (always true on SQLite, where the parts run only after it). */
  readonly written: string;
  /** Appended to the read of a write that only locks the task row. */
  readonly forUpdate: string;
  /**
   * The sender's mails counted against the cap since `since`. PostgreSQL: `mail_quota_used`, which
   * first takes the sender's transaction-scoped lock (concurrent writes of one sender queue up);
   * SQLite has one writer at a time.
   */
  mailsUsed(sender: string, since: string): string;
  /**
   * The body of the CTE `ordered`, which takes the event-order lock before the events are
   * inserted, after the CTEs `after` (so the lock is the last one a write takes): PostgreSQL only
   * (see appendEvent).
   */
  eventOrderLock(after: readonly string[]): string[];
  /** The FROM items an event insert starts with (the lock's CTE, so the insert runs after it). */
  readonly eventsFrom: string;
  /** The body of the CTE `notified`, which NOTIFYs the other instances of the newest id of the CTEs `inserted`. */
  notify(inserted: readonly string[]): string[];
  /** The SQL expression answering whether NOTIFY ran (PostgreSQL's final select). */
  readonly notified: string;
}

const postgres: WriteDialect = {
  name: 'postgres',
  oneStatement: true,
  placeholder: (index) => `$${index}`,
  jsonRows: (param, alias, fields) =>
    `json_to_recordset(${param}::json) as ${alias}(${Object.entries(fields)
      .map(([name, type]) => `"${name}" ${type}`)
      .join(', ')})`,
  field: (alias, name) => `${alias}."${name}"`,
  listValue: (values) => values,
  listRows: (param, alias) => `unnest(${param}::text[]) as ${alias}(value)`,
  inList: (expr, param) => `${expr} = any(${param}::text[])`,
  inJsonArray: (value, array) => `exists (select 1 from json_array_elements_text(${array}::json) el(v) where el.v = ${value})`,
  jsonObject: (pairs) => `json_build_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})`,
  jsonText: (object) => `(${object})::text`,
  taskRows: 'task',
  written: 'exists (select 1 from task)',
  forUpdate: ' for update',
  mailsUsed: (sender, since) => `mail_quota_used(${sender}, ${since})`,
  // Once, however many task rows the statement writes (the event inserts join its one row).
  eventOrderLock: (after) => [`select ${EVENT_ORDER_LOCK_SQL} from (select 1 from task limit 1) written where true${after.map((name) => ` and (select count(*) from ${name}) >= 0`).join('')}`],
  eventsFrom: 'ordered, ',
  notify: (inserted) => [
    `select pg_notify(${EVENT_CHANNEL_SQL}, max(id)::text) from (${inserted.map((name) => `select id from ${name}`).join(' union all ')}) e having count(*) > 0`,
  ],
  notified: '(select count(*) from notified)',
};

const sqlite: WriteDialect = {
  name: 'sqlite',
  oneStatement: false,
  // `+?`, never a bare `?`: see db/sqlite-compiler.ts (a bare parameter can make SQLite re-prepare the statement on every run).
  placeholder: () => '+?',
  jsonRows: (param, alias) => `json_each(${param}) ${alias}`,
  field: (alias, name) => `(${alias}.value ->> '$.${name}')`,
  listValue: (values) => JSON.stringify(values),
  listRows: (param, alias) => `json_each(${param}) ${alias}`,
  inList: (expr, param) => `${expr} in (select value from json_each(${param}))`,
  inJsonArray: (value, array) => `exists (select 1 from json_each(${array}) el where el.value = ${value})`,
  jsonObject: (pairs) => `json_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})`,
  jsonText: (object) => object,
  taskRows: 'tasks',
  written: 'true',
  forUpdate: '',
  mailsUsed: (sender, since) => `(select count(*) from outbox where caused_by = ${sender} and created_at > ${since})`,
  eventOrderLock: () => [],
  eventsFrom: '',
  notify: () => [],
  notified: '0',
};

export const writeDialect = (dialect: Dialect): WriteDialect => (dialect === 'postgres' ? postgres : sqlite);
