import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BySqlText } from '../db/driver-shared.ts';
import { sqliteStatementStats } from '../db/sqlite-driver.ts';
import { prepare, slot } from '../db/prepared.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';

const t = useTestApp();

/**
 * SQLite may silently re-compile a cached statement on a later run ("re-prepare"), which cost
 * more than the rest of a board request together; docs/performance.md tells why. The database
 * layer counts those runs (server/db/sqlite-driver.ts), so this checks the count, not the speed.
 */
describe('SQLite statement cache', () => {
  it.runIf(!isPostgres)('re-prepares none of the statements of the hot calls, whoever calls and with whatever values', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const forAlice = await createTask(t, bob.cookie, { assignee: alice.user.email });
    const stats = sqliteStatementStats(t.app.db)!;
    expect(stats).toBeDefined();

    let round = 0;
    const hotCalls = async () => {
      round += 1;
      const { cookie, user } = round % 2 === 0 ? alice : bob;
      const answers = [
        await t.request('GET', '/api/health'),
        await t.request('GET', '/api/users/me', { cookie }),
        await t.request('GET', '/api/tasks', { cookie }),
        await t.request('GET', '/api/tasks?status=todo&limit=50', { cookie }),
        await t.request('GET', `/api/tasks?priority=${round % 2 === 0 ? 'normal' : 'high'}&limit=${10 + round}`, { cookie }),
        await t.request('GET', '/api/tasks/counts', { cookie }),
        await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: `Round ${round}`, assignee: user.email } }),
        await t.request('PATCH', `/api/tasks/${forAlice._id}`, { cookie: bob.cookie, body: { taskTitle: `Renamed ${round}` } }),
      ];
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200, 201, 200]);
    };

    await hotCalls();
    const before = { ...stats };
    for (let i = 0; i < 10; i++) await hotCalls();
    expect(stats.reprepared - before.reprepared, `re-prepared, last: ${stats.lastReprepared ?? '-'}`).toBe(0);
  });

  it.runIf(!isPostgres)('counts a re-prepare when SQLite makes one (a bare `LIMIT ?` is re-prepared on every run)', async () => {
    const stats = sqliteStatementStats(t.app.db)!;
    const before = stats.reprepared;
    // Written by hand: the app's own queries never bind a bare `?` (server/db/sqlite-compiler.ts).
    const query = (limit: number) => CompiledQuery.raw('select id from tasks order by created_at limit ?', [limit]);
    for (const limit of [5, 6, 7]) await t.app.db.executeQuery(query(limit));
    expect(stats.reprepared - before).toBeGreaterThanOrEqual(2);
    expect(stats.lastReprepared).toContain('limit ?');
  });
});

/**
 * PostgreSQL runs the app's queries as named prepared statements, which switch to one generic
 * plan after five runs. A search's best plan depends on its word (a rare word: from the text
 * index; a common one: the viewer's rows in order), so searches are planned per run.
 */
describe('PostgreSQL prepared statements', () => {
  it.runIf(isPostgres)('names the board queries once per connection and plans every search anew', async () => {
    const alice = await createSignedInUser(t);
    await createTask(t, alice.cookie, { taskTitle: 'Quarterly invoice' });
    const viewer = { userId: alice.user.id, email: alice.user.email };
    await t.app.db.connection().execute(async (connection) => {
      for (let i = 0; i < 7; i++) {
        await t.app.tasksRepository.list(viewer, { view: 'all', sort: 'newest', status: 'todo', limit: 50 }, connection);
        expect(await t.app.tasksRepository.list(viewer, { view: 'all', sort: 'newest', q: 'invoice', limit: 50 }, connection)).toHaveLength(1);
        expect((await t.app.tasksRepository.counts(viewer, { view: 'all', q: 'invoice' }, new Date().toISOString(), connection)).todo).toBe(1);
      }
      const named = await connection.executeQuery<{ statement: string }>(CompiledQuery.raw('select statement from pg_prepared_statements'));
      const statements = named.rows.map((r) => r.statement);
      expect(statements.some((s) => s.includes('"status" = $'))).toBe(true);
      expect(statements.filter((s) => /ilike|strpos/i.test(s))).toEqual([]);
    });
  });
});

/**
 * Both drivers find what they keep for a SQL text (a statement, a statement's name) without
 * hashing the text, which often arrives as a new string: texts are grouped by length and compared.
 */
describe('statements by SQL text', () => {
  it('finds a text built anew, and tells apart texts of the same length', () => {
    const names = new BySqlText<string>();
    const parts = (last: string) => ['with task as (insert into tasks (id) select $1 returning id)', `select id from task where $${last} = 1`];
    names.set(parts('2').join(', '), 'tw_two');
    names.set(parts('3').join(', '), 'tw_three');
    names.set('select 1', 'tw_one');
    expect(names.size).toBe(3);
    // Equal texts made separately (not the same string object) find their names.
    expect(names.get([...parts('2')].join(', '))).toBe('tw_two');
    expect(names.get(`${parts('3')[0]!}, ${parts('3')[1]!}`)).toBe('tw_three');
    expect(names.get(['select', '1'].join(' '))).toBe('tw_one');
    // Same length, other text; and a length nothing has.
    expect(names.get(parts('4').join(', '))).toBeUndefined();
    expect(names.get('select 12')).toBeUndefined();
    names.clear();
    expect(names.size).toBe(0);
    expect(names.get('select 1')).toBeUndefined();
  });
});

/**
 * A prepared statement's options travel with each run to the driver (db/prepared.ts
 * StatementOptions), not in its SQL text: the same text prepared both ways keeps both ways.
 */
describe('prepare() options', () => {
  it('runs the same SQL as row objects and as arrays, each as it was prepared', async () => {
    const { user } = await createSignedInUser(t);
    const query = t.app.db.selectFrom('users').select(['email', 'fullName']).where('id', '=', slot('id'));
    const objects = prepare<{ id: string }, { email: string; fullName: string }>(query);
    const arrays = prepare<{ id: string }, readonly [string, string]>(query, { rowsAsArrays: true });
    expect(arrays.sql).toBe(objects.sql);
    for (let round = 0; round < 2; round++) {
      expect((await objects.execute(t.app.db, { id: user.id })).rows).toEqual([{ email: user.email, fullName: user.fullName }]);
      expect((await arrays.execute(t.app.db, { id: user.id })).rows).toEqual([[user.email, user.fullName]]);
    }
  });
});
