import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { newId } from '../db/ids.ts';
import { english } from '../i18n/translate.ts';
import { SENDER_MAIL_CAP } from '../services/mail-cap.ts';
import { createSignedInUser, createTask, createUser, uniqueEmail } from './factories.ts';
import { HOUR, isPostgres, useTestApp } from './helpers.ts';

/**
 * Mail people cause to others is capped per sender: at most 100 such mails per account per
 * rolling hour, counted in the database (so across instances). Past the cap the change still
 * succeeds, no mail is written, and the answer's message says so.
 */
const t = useTestApp();

const post = (cookie: string, assignee: string) => t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'Spam, spam, spam', assignee } });

/** Resolves once a task write waits for an advisory lock (pg_stat_activity shows only the start of its long statement). */
async function writeWaitsForAdvisoryLock(): Promise<void> {
  const waiting = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where wait_event_type = 'Lock' and wait_event = 'advisory' and query like '%task as (insert into tasks%'`.execute(t.app.db);
    return rows[0]?.n ?? 0;
  };
  await expect.poll(waiting, { message: 'a task write waits for the advisory lock', timeout: 10_000, interval: 10 }).toBeGreaterThan(0);
}

describe('assignment mail cap per sender', () => {
  it('sends 100 mails an hour; the 101st change succeeds with a note and no mail; an hour later mail flows again', async () => {
    const { cookie } = await createSignedInUser(t);
    const recipients = Array.from({ length: SENDER_MAIL_CAP.mails }, () => uniqueEmail('victim'));
    for (const to of recipients) {
      const res = await post(cookie, to);
      expect(res.status, res.body).toBe(201);
      expect(res.json.message).toBe(SERVER_MESSAGES.taskCreated);
    }
    await t.app.outbox.drain();
    for (const to of recipients) expect(t.mail.to(to)).toHaveLength(1);

    // The 101st: a create…
    const extra = uniqueEmail('victim');
    const created = await post(cookie, extra);
    expect(created.status, created.body).toBe(201);
    expect(created.json.message).toBe(`${SERVER_MESSAGES.taskCreated} ${SERVER_MESSAGES.mailCapReached}`);
    expect(created.json.data.task.assignee).toBe(extra);
    // …and a reassignment of one task, which is the other way to send such mail.
    const other = uniqueEmail('victim');
    const reassigned = await t.request('PATCH', `/api/tasks/${created.json.data.task._id}`, { cookie, body: { assignee: other } });
    expect(reassigned.status, reassigned.body).toBe(200);
    expect(reassigned.json.message).toBe(`${SERVER_MESSAGES.taskUpdated} ${SERVER_MESSAGES.mailCapReached}`);
    expect(reassigned.json.data.task.assignee).toBe(other);
    await t.app.outbox.drain();
    expect(t.mail.to(extra)).toEqual([]);
    expect(t.mail.to(other)).toEqual([]);
    // …and a reassignment of many tasks at once.
    const bulk = uniqueEmail('victim');
    const many = await t.request('POST', '/api/tasks/bulk', { cookie, body: { taskIds: [created.json.data.task._id], change: { assignee: bulk } } });
    expect(many.status, many.body).toBe(200);
    expect(many.json.message).toBe(`${english(SERVER_MESSAGES.tasksChanged(1))} ${SERVER_MESSAGES.mailCapReached}`);
    await t.app.outbox.drain();
    expect(t.mail.to(bulk)).toEqual([]);
    // A change that sends no mail says nothing about mail.
    const edit = await t.request('PATCH', `/api/tasks/${created.json.data.task._id}`, { cookie, body: { priority: 'high' } });
    expect(edit.json.message).toBe(SERVER_MESSAGES.taskUpdated);

    // The window rolls: an hour after the first mails, mail goes out again.
    t.clock.advance(HOUR);
    const later = uniqueEmail('later');
    const res = await post(cookie, later);
    expect(res.json.message).toBe(SERVER_MESSAGES.taskCreated);
    await t.app.outbox.drain();
    expect(t.mail.to(later)).toHaveLength(1);
  });

  it('counts per sender: another account still sends while one is capped', async () => {
    const spammer = await createSignedInUser(t);
    const now = t.clock.now().toISOString();
    // 100 mails caused by the spammer in the last hour, written directly (fast).
    const rows = Array.from({ length: SENDER_MAIL_CAP.mails }, () => ({
      id: newId(), kind: 'assigned', toEmail: uniqueEmail('x'), subject: 's', textBody: 't', htmlBody: 'h', headers: '{}', dedupeKey: null,
      status: 'sent' as const, attempts: 1, runAt: now, lockedBy: null, lockedUntil: null, lastError: null, createdAt: now, sentAt: now, causedBy: spammer.user.id,
    }));
    await t.app.outboxRepository.insertMany(rows);
    const held = await post(spammer.cookie, uniqueEmail('victim'));
    expect(held.json.message).toBe(`${SERVER_MESSAGES.taskCreated} ${SERVER_MESSAGES.mailCapReached}`);

    const { cookie } = await createSignedInUser(t);
    const to = await createUser(t);
    await createTask(t, cookie, { assignee: to.email });
    await t.app.outbox.drain();
    expect(t.mail.to(to.email)).toHaveLength(1);
  });

  it.runIf(isPostgres)('lets only one of two concurrent writes be the 100th mail (PostgreSQL)', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const now = t.clock.now().toISOString();
    const since = new Date(t.clock.now().getTime() - HOUR).toISOString();
    const row = (causedBy: string) => ({
      id: newId(), kind: 'assigned', toEmail: uniqueEmail('x'), subject: 's', textBody: 't', htmlBody: 'h', headers: '{}', dedupeKey: null,
      status: 'sent' as const, attempts: 1, runAt: now, lockedBy: null, lockedUntil: null, lastError: null, createdAt: now, sentAt: now, causedBy,
    });
    await t.app.outboxRepository.insertMany(Array.from({ length: SENDER_MAIL_CAP.mails - 1 }, () => row(user.id)));
    // Another write of the same sender is writing the 100th mail and has not committed yet.
    const other = await t.app.db.startTransaction().execute();
    try {
      await sql`select mail_quota_used(${user.id}, ${since})`.execute(other);
      await t.app.outboxRepository.insert(row(user.id), other);
      const answer = post(cookie, uniqueEmail('victim'));
      await writeWaitsForAdvisoryLock();
      await other.commit().execute();
      const res = await answer;
      expect(res.status, res.body).toBe(201);
      expect(res.json.message).toBe(`${SERVER_MESSAGES.taskCreated} ${SERVER_MESSAGES.mailCapReached}`);
    } finally {
      await other.rollback().execute().catch(() => undefined);
    }
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from outbox where caused_by = ${user.id}`.execute(t.app.db);
    expect(rows[0]?.n).toBe(SENDER_MAIL_CAP.mails);
  });
});
