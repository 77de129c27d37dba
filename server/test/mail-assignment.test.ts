import { describe, expect, it } from 'vitest';
import { createSignedInUser, createTask, createUser, uniqueEmail } from './factories.ts';
import { HOUR, TEST_ORIGIN, useTestApp } from './helpers.ts';

const t = useTestApp();

const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });

/** A new user creates a task assigned to `to`; the mail `to` then receives. */
async function assignNewTaskTo(to: string) {
  const { cookie } = await createSignedInUser(t);
  await createTask(t, cookie, { assignee: to });
  await t.app.outbox.drain();
  return t.mail.last(to);
}

describe('assignment mail', () => {
  it('tells a new assignee with an account: subject, task details and a link to the task', async () => {
    const { user: ada, cookie } = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createUser(t);
    const deadline = new Date(t.clock.now().getTime() + 3 * HOUR).toISOString();
    const task = await createTask(t, cookie, { taskTitle: 'Send the invoice', assignee: bob.email, priority: 'high', deadline, workTitle: 'Billing' });
    await t.app.outbox.drain();

    const mails = t.mail.to(bob.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Ada Lovelace assigned you: Send the invoice');
    expect(mail.text).toContain('Task: Send the invoice');
    expect(mail.text).toContain(`Assigned by: ${ada.fullName}`);
    expect(mail.text).toContain('Priority: High');
    // In the reader's clock: an account made without a browser has English's 12-hour clock.
    expect(mail.text).toContain('Deadline: Mon, 10 Mar 2031, 12:00 pm UTC');
    expect(mail.text).toContain(`${TEST_ORIGIN}/tasks/${task._id}`);
    expect(mail.text).toContain('You got this mail because a task was assigned to this address.');
    // The HTML part carries the same content and link.
    expect(mail.html).toContain('Send the invoice');
    expect(mail.html).toContain(`href="${TEST_ORIGIN}/tasks/${task._id}"`);
    // Nobody else gets anything.
    expect(t.mail.to(ada.email)).toEqual([]);
  });

  it('links an address without an account to sign-up with the address prefilled', async () => {
    const stranger = uniqueEmail('stranger');
    const mail = await assignNewTaskTo(stranger);
    expect(mail.text).toContain(`${TEST_ORIGIN}/sign-up?email=${encodeURIComponent(stranger)}`);
    expect(mail.text).not.toContain('/tasks/');
  });

  it('carries a one-click unsubscribe link and the RFC 8058 headers', async () => {
    const to = uniqueEmail('to');
    const mail = await assignNewTaskTo(to);
    const token = /\/unsubscribe\?token=([\w.-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    expect(mail.header('List-Unsubscribe')).toBe(`<${TEST_ORIGIN}/api/unsubscribe?token=${token}>`);
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('is never sent for assigning yourself, on create or on reassignment', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { assignee: user.email });
    const other = await createTask(t, cookie);
    expect((await patch(cookie, other._id, { assignee: user.email })).status).toBe(200);
    await t.app.outbox.drain();
    expect(t.mail.to(user.email)).toEqual([]);
    expect(task.assignee).toBe(user.email);
  });

  it('goes to the new assignee only on reassignment, and not again for other changes', async () => {
    const { cookie } = await createSignedInUser(t);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    const task = await createTask(t, cookie, { assignee: first });
    expect((await patch(cookie, task._id, { priority: 'urgent', taskTitle: 'Renamed task' })).status).toBe(200);
    expect((await patch(cookie, task._id, { assignee: second })).status).toBe(200);
    await t.app.outbox.drain();
    expect(t.mail.to(first)).toHaveLength(1);
    expect(t.mail.to(second).map((m) => m.subject)).toEqual([expect.stringContaining('assigned you: Renamed task')]);
  });

  it('is mailed by the assignee on reassignment to the creator (the creator is told, not the assignee)', async () => {
    const { user: creator, cookie: creatorCookie } = await createSignedInUser(t);
    const { user: assignee, cookie: assigneeCookie } = await createSignedInUser(t, { fullName: 'Bea Assignee' });
    const task = await createTask(t, creatorCookie, { assignee: assignee.email });
    expect((await patch(assigneeCookie, task._id, { assignee: creator.email })).status).toBe(200);
    await t.app.outbox.drain();
    expect(t.mail.to(creator.email).map((m) => m.subject)).toEqual([`Bea Assignee assigned you: ${task.taskTitle}`]);
  });

  it('is not sent when the assignee turned assignment mails off', async () => {
    const { cookie } = await createSignedInUser(t);
    const { user: quiet, cookie: quietCookie } = await createSignedInUser(t);
    const off = await t.request('PATCH', '/api/users/me/settings', { cookie: quietCookie, body: { notifyAssigned: false } });
    expect(off.status, off.body).toBe(200);
    await createTask(t, cookie, { assignee: quiet.email });
    await t.app.outbox.drain();
    expect(t.mail.to(quiet.email)).toEqual([]);
  });

  it('never makes the API wait or fail: the task is created while the mail server refuses', async () => {
    t.mail.refuse = true;
    try {
      const { cookie } = await createSignedInUser(t);
      const to = uniqueEmail('later');
      const res = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'Mail later', assignee: to } });
      expect(res.status).toBe(201);
      await t.app.outbox.drain();
      expect(t.mail.to(to)).toEqual([]);
      expect(await t.app.outbox.pending()).toBeGreaterThan(0);
    } finally {
      t.mail.refuse = false;
    }
  });
});
