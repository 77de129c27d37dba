import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { insertNotifications } from './notifications-support.ts';

/**
 * The bell asks for the unread count on every page, and the panel for a page of 20: both must
 * be reads of the notifications' indexes, whatever the size of the table, never a scan of it.
 * The plans are read for the repository's own compiled queries. PostgreSQL plans a seq scan
 * for a small table, so index scans are required there with `enable_seqscan` off: the test
 * asks whether an index CAN serve the query (the planner then prefers it as the table grows).
 */
const t = useTestApp();

async function planOf(query: CompiledQuery): Promise<string> {
  if (t.app.dbDialect === 'postgres') {
    return t.app.db.connection().execute(async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin'));
      try {
        await connection.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        const { rows } = await connection.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
        return rows.map((row) => Object.values(row).join(' ')).join('\n');
      } finally {
        await connection.executeQuery(CompiledQuery.raw('rollback'));
      }
    });
  }
  const { rows } = await t.app.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
  return rows.map((row) => row.detail).join('\n');
}

describe('the inbox reads', () => {
  it('count the unread and read a page through the notifications indexes, without sorting', async () => {
    const { user } = await createSignedInUser(t);
    await insertNotifications(t, user, 50);
    const queries = t.app.notificationsRepository.queries(user.id);

    const unread = await planOf(queries.unreadCount);
    expect(unread).toMatch(/notifications_user_unread_idx/);
    for (const page of [queries.firstPage, queries.unreadPage]) {
      const plan = await planOf(page);
      expect(plan).toMatch(/notifications_user_(created|unread)_idx/);
      expect(plan).not.toMatch(/Sort|TEMP B-TREE/i);
    }
  });
});
