import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: the trigram index covers the assignee as `lower(assignee_email)` instead of the
 * bare column (SQLite: nothing to do).
 *
 * pg_trgm 1.6 (PostgreSQL 14+) lets a trigram index answer `=` too, and the planner then used
 * the old index for the board's visibility test `assignee_email = $email`: every task's address
 * ends in a common domain, so those trigrams' posting lists hold most of the table, and each
 * search branch read them (a rare word: 11 ms on a 10,000-task table, 0.3 ms without). Addresses
 * are stored lower-case, so `lower(assignee_email) ILIKE '%…%'` finds the same rows, while the
 * visibility test no longer matches the indexed expression and keeps to the B-tree index.
 * @see https://www.postgresql.org/docs/15/pgtrgm.html#PGTRGM-INDEX
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const ops = await trigramOps(db);
  await sql`drop index if exists tasks_search_trgm_idx`.execute(db);
  await sql`create index tasks_search_trgm_idx on tasks using gin
    (task_title ${ops}, work_title ${ops}, description ${ops}, lower(assignee_email) ${ops})`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: they must not depend on the app's current schema types
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const ops = await trigramOps(db);
  await sql`drop index if exists tasks_search_trgm_idx`.execute(db);
  await sql`create index tasks_search_trgm_idx on tasks using gin
    (task_title ${ops}, work_title ${ops}, description ${ops}, assignee_email ${ops})`.execute(db);
}

/** The operator class, in whichever schema holds the extension (see migration 0005). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
async function trigramOps(db: Kysely<any>) {
  const found = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  return sql`${sql.id(found.rows[0]?.schema ?? 'public')}.gin_trgm_ops`;
}
