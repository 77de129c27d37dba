import { describe, expect, it } from 'vitest';
import { build } from '../app.ts';
import { createSignedInUser, createTask, createUser, uniqueEmail } from './factories.ts';
import { HOUR, isPostgres, MINUTE, TEST_ORIGIN, useTestApp } from './helpers.ts';

const t = useTestApp();

const isoIn = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });
/** One scan and delivery, as the instance's timers would do it (every 20 s). */
async function tick(ms = 0) {
  t.clock.advance(ms);
  await t.app.taskMail.scanReminders();
  await t.app.outbox.drain();
}
const subjects = (address: string) => t.mail.to(address).map((m) => m.subject);

describe('reminders', () => {
  it('sends "due soon" under 24 h before the deadline and "overdue" after it, once each, to assignee and creator', async () => {
    const { user: creator, cookie } = await createSignedInUser(t);
    const assignee = await createUser(t);
    const task = await createTask(t, cookie, { taskTitle: 'File the report', assignee: assignee.email, deadline: isoIn(30 * HOUR) });
    await tick();
    expect(subjects(creator.email)).toEqual([]);

    await tick(6 * HOUR - MINUTE);
    expect(subjects(creator.email)).toEqual([]);
    await tick(MINUTE);
    expect(subjects(creator.email)).toEqual(['Due soon: File the report']);
    expect(subjects(assignee.email)).toEqual([`${creator.fullName} assigned you: File the report`, 'Due soon: File the report']);
    const dueSoon = t.mail.last(creator.email);
    expect(dueSoon.text).toContain(`${TEST_ORIGIN}/tasks/${task._id}`);
    expect(dueSoon.text).toContain('You got this mail because you created this task.');
    expect(t.mail.last(assignee.email).text).toContain('You got this mail because this task is assigned to you.');
    expect(dueSoon.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    await tick(23 * HOUR);
    expect(subjects(creator.email)).toEqual(['Due soon: File the report']);
    await tick(HOUR);
    expect(subjects(creator.email)).toEqual(['Due soon: File the report', 'Overdue: File the report']);
    expect(subjects(assignee.email).at(-1)).toBe('Overdue: File the report');

    await tick(3 * HOUR);
    expect(subjects(creator.email)).toHaveLength(2);
    expect(subjects(assignee.email)).toHaveLength(3);
  });

  it('sends one mail, not two, when the creator is the assignee', async () => {
    const { user, cookie } = await createSignedInUser(t);
    await createTask(t, cookie, { taskTitle: 'Own task', assignee: user.email, deadline: isoIn(2 * HOUR) });
    await tick();
    expect(subjects(user.email)).toEqual(['Due soon: Own task']);
    expect(t.mail.last(user.email).text).toContain('you created this task and it is assigned to you');
  });

  it('links an assignee without an account to sign-up', async () => {
    const { cookie } = await createSignedInUser(t);
    const stranger = uniqueEmail('stranger');
    await createTask(t, cookie, { assignee: stranger, deadline: isoIn(HOUR) });
    await tick();
    expect(t.mail.last(stranger).text).toContain(`${TEST_ORIGIN}/sign-up?email=${encodeURIComponent(stranger)}`);
  });

  it('never reminds about done or deleted tasks', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const done = await createTask(t, cookie, { taskTitle: 'Done early', assignee: user.email, deadline: isoIn(30 * HOUR) });
    const gone = await createTask(t, cookie, { taskTitle: 'Deleted', assignee: user.email, deadline: isoIn(30 * HOUR) });
    expect((await patch(cookie, done._id, { status: 'done' })).status).toBe(200);
    expect((await t.request('DELETE', `/api/tasks/${gone._id}`, { cookie })).status).toBe(204);
    await tick(29 * HOUR);
    await tick(2 * HOUR);
    expect(subjects(user.email)).toEqual([]);
  });

  it('re-arms both reminders when the deadline changes', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { taskTitle: 'Moved', assignee: user.email, deadline: isoIn(HOUR) });
    await tick();
    expect(subjects(user.email)).toEqual(['Due soon: Moved']);
    expect((await patch(cookie, task._id, { deadline: isoIn(48 * HOUR) })).status).toBe(200);
    await tick(2 * HOUR);
    expect(subjects(user.email)).toEqual(['Due soon: Moved']);
    await tick(23 * HOUR);
    expect(subjects(user.email)).toEqual(['Due soon: Moved', 'Due soon: Moved']);
    await tick(24 * HOUR);
    expect(subjects(user.email)).toEqual(['Due soon: Moved', 'Due soon: Moved', 'Overdue: Moved']);
  });

  it('skips a person who turned reminders off; the other still gets theirs', async () => {
    const { user: creator, cookie } = await createSignedInUser(t);
    const { user: assignee, cookie: assigneeCookie } = await createSignedInUser(t);
    expect((await t.request('PATCH', '/api/users/me/settings', { cookie: assigneeCookie, body: { notifyReminders: false } })).status).toBe(200);
    await createTask(t, cookie, { taskTitle: 'Quiet', assignee: assignee.email, deadline: isoIn(HOUR) });
    await tick();
    expect(subjects(creator.email)).toEqual(['Due soon: Quiet']);
    expect(subjects(assignee.email).filter((s) => s.startsWith('Due soon'))).toEqual([]);
  });

  it.runIf(isPostgres)('writes each reminder once when two instances scan at the same time', async () => {
    const second = await build({ config: t.config, clock: t.clock });
    try {
      const { user, cookie } = await createSignedInUser(t);
      for (let i = 0; i < 30; i++) await createTask(t, cookie, { taskTitle: `Race ${i}`, assignee: user.email, deadline: isoIn(2 * HOUR) });
      await Promise.all([t.app.taskMail.scanReminders(), second.taskMail.scanReminders(), t.app.taskMail.scanReminders()]);
      await Promise.all([t.app.outbox.drain(), second.outbox.drain()]);
      const dueSoon = subjects(user.email).filter((s) => s.startsWith('Due soon'));
      expect(dueSoon).toHaveLength(30);
      expect(new Set(dueSoon).size).toBe(30);
    } finally {
      await second.close();
    }
  });
});
