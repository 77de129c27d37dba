import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { appendEvent } from '../repositories/events-repository.ts';
import { useTestApp } from './helpers.ts';
import { migratorOf, openUnmigrated } from './migration-support.ts';

/**
 * Migration 0018 renames the events table's `task_id` to `subject_id` (it also held board,
 * notification and user ids). A log filled up to 0017 keeps every row, id and value, and new
 * events are appended after them.
 */

// Just before the test clock's start (helpers.ts), so housekeeping keeps them.
const at = (i: number) => new Date(Date.UTC(2031, 2, 10, 8, 59, i)).toISOString();
const OLD = [
  { type: 'task.created', subject: 'task-1', board: 'board-1' },
  { type: 'board.updated', subject: 'board-1', board: 'board-1' },
  { type: 'notification.created', subject: 'notification-1', board: null },
  { type: 'notification.read', subject: 'user-1', board: null },
] as const;

async function fillVersionBefore(url: string): Promise<void> {
  const db = openUnmigrated(url);
  try {
    const result = await (await migratorOf(db)).migrateTo('0017-outbox-lanes');
    if (result.error !== undefined) throw result.error as Error;
    for (const [i, event] of OLD.entries()) {
      await sql`insert into events (type, task_id, board_id, audience, from_board_id, from_audience, payload, created_at)
        values (${event.type}, ${event.subject}, ${event.board}, '["ada@example.test"]', null, null, ${JSON.stringify({ n: i })}, ${at(i)})`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

const t = useTestApp({ before: fillVersionBefore });

describe('migration 0018 (events.subject_id)', () => {
  it('keeps every event with its id and subject, and appends new ones after them', async () => {
    const rows = await t.app.db.selectFrom('events').select(['id', 'type', 'subjectId', 'boardId', 'payload']).orderBy('id').execute();
    expect(rows.map((row) => [row.type, row.subjectId, row.boardId, row.payload])).toEqual(OLD.map((event, i) => [event.type, event.subject, event.board, JSON.stringify({ n: i })]));
    const last = Number(rows.at(-1)?.id);
    const id = await t.app.events.transaction((trx) =>
      appendEvent(trx, { type: 'board.updated', subjectId: 'board-1', boardId: 'board-1', audience: ['ada@example.test'], data: { n: 4 }, at: at(4) }),
    );
    expect(id).toBeGreaterThan(last);
    expect(await t.app.db.selectFrom('events').select('subjectId').where('id', '=', id).executeTakeFirst()).toEqual({ subjectId: 'board-1' });
  });
});
