import { constants } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { sqliteConnection } from '../db/connect.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { isPostgres, useTestApp } from './helpers.ts';

const t = useTestApp();

/**
 * SQLite runs the authorizer while it compiles a statement, and only then: on the first
 * prepare, and again on every re-prepare of an expired statement. Counting its calls counts
 * compilations, so a hot path whose statements are cached must count none.
 * docs/performance.md, "SQLite re-prepared statements on every call", tells why this can break.
 */
describe('SQLite statement cache', () => {
  it.runIf(!isPostgres)('compiles the hot calls’ statements once: later calls neither prepare nor re-prepare', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const forAlice = await createTask(t, bob.cookie, { assignee: alice.user.email });
    const sqlite = sqliteConnection(t.app.db);
    expect(sqlite).toBeDefined();

    const compiled: string[] = [];
    sqlite!.setAuthorizer((action, first, second) => {
      compiled.push(`${action} ${first ?? ''} ${second ?? ''}`);
      return constants.SQLITE_OK;
    });

    let round = 0;
    const hotCalls = async () => {
      round += 1;
      // Different users and values each round: SQLite may re-prepare when a bound value changes.
      const { cookie, user } = round % 2 === 0 ? alice : bob;
      const answers = [
        await t.request('GET', '/api/health'),
        await t.request('GET', '/api/users/me', { cookie }),
        await t.request('GET', '/api/tasks', { cookie }),
        await t.request('GET', '/api/tasks?status=todo&limit=50', { cookie }),
        await t.request('GET', '/api/tasks/counts', { cookie }),
        await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: `Round ${round}`, assignee: user.email } }),
        await t.request('PATCH', `/api/tasks/${forAlice._id}`, { cookie: bob.cookie, body: { taskTitle: `Renamed ${round}` } }),
      ];
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 201, 200]);
    };

    // Setting an authorizer expires every prepared statement, so this round compiles them again:
    // the probe must see that, or it would prove nothing below.
    await hotCalls();
    expect(compiled.length).toBeGreaterThan(0);

    compiled.length = 0;
    for (let i = 0; i < 10; i++) await hotCalls();
    expect(compiled, 'statements compiled again after the first round (action, table, column)').toEqual([]);
  });
});
