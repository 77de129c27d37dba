import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { newId } from '../db/ids.ts';
import { codeFrom } from './mail-catcher.ts';
import { createSignedInUser, createTask, createUser, insertTasks, nextIp, registerThroughApi, signIn, uniqueEmail } from './factories.ts';
import { TEST_ORIGIN, useTestApp } from './helpers.ts';

const t = useTestApp();

const requestReset = (email: string, ip = nextIp()) => t.request('POST', '/api/password-resets', { body: { email }, ip });
const confirmReset = (body: unknown) => t.request('POST', '/api/password-resets/confirm', { body });
/** A comment row as the comments feature writes it (its API is not needed to test the export). */
async function writeComment(author: { id: string; fullName: string; email: string }, taskId: string, body: string) {
  const now = t.clock.now().toISOString();
  const id = newId();
  await t.app.db
    .insertInto('comments')
    .values({ id, taskId, authorId: author.id, authorName: author.fullName, authorEmail: author.email, body, createdAt: now, updatedAt: now })
    .execute();
  return id;
}
const me = (cookie: string) => t.request('GET', '/api/users/me', { cookie });

describe('POST /api/password-resets', () => {
  it('mails a known address a 6-digit code on its own line, and an unknown one "no account" with a sign-up link — same answer', async () => {
    const user = await createUser(t);
    const stranger = uniqueEmail('nobody');
    const known = await requestReset(user.email);
    const unknown = await requestReset(stranger);
    expect(known.status).toBe(201);
    expect(unknown.status).toBe(201);
    expect(known.json).toEqual(unknown.json);
    expect(known.json).toEqual({ status: 'success', message: ACCOUNT_MESSAGES.resetRequested });

    const codeMail = t.mail.last(user.email);
    expect(codeMail.subject).toBe('Your Taskwise password reset code');
    expect(codeFrom(codeMail)).toMatch(/^\d{6}$/);
    expect(codeMail.html).toContain(codeFrom(codeMail));
    const none = t.mail.last(stranger);
    expect(none.subject).toBe('No Taskwise account for this address');
    expect(none.text).toContain(`${TEST_ORIGIN}/sign-up?email=${encodeURIComponent(stranger)}`);
    expect(none.text).not.toMatch(/^\d{6}$/m);
  });

  it('has the per-address limits of codes: a second request within 60 s is 429 with Retry-After', async () => {
    const user = await createUser(t);
    expect((await requestReset(user.email)).status).toBe(201);
    const again = await requestReset(user.email);
    expect(again.status).toBe(429);
    expect(again.headers['retry-after']).toBeDefined();
  });

  it('has the per-IP limit of codes (30 an hour)', async () => {
    const ip = nextIp();
    for (let i = 0; i < 30; i++) expect((await requestReset(uniqueEmail('ip'), ip)).status).toBe(201);
    expect((await requestReset(uniqueEmail('ip'), ip)).status).toBe(429);
  });

  it('refuses a bad address with 400', async () => {
    expect((await requestReset('not-an-address')).status).toBe(400);
  });
});

describe('POST /api/password-resets/confirm', () => {
  it('sets the new password and ends every session of the account', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    await requestReset(user.email);
    const otp = codeFrom(t.mail.last(user.email));
    const res = await confirmReset({ email: user.email, otp, password: 'a brand new password' });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({ status: 'success', message: ACCOUNT_MESSAGES.passwordReset });
    expect((await me(cookie)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } })).status).toBe(401);
    await signIn(t, { email: user.email, password: 'a brand new password' });
  });

  it('refuses a wrong code, a used code, and a sign-up code with 400 INVALID_CODE', async () => {
    const user = await createUser(t);
    await requestReset(user.email);
    const otp = codeFrom(t.mail.last(user.email));
    const wrong = await confirmReset({ email: user.email, otp: otp === '000000' ? '111111' : '000000', password: 'another good password' });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ code: 'INVALID_CODE', message: SERVER_MESSAGES.invalidCode });
    expect((await confirmReset({ email: user.email, otp, password: 'another good password' })).status).toBe(200);
    expect((await confirmReset({ email: user.email, otp, password: 'yet another password' })).status).toBe(400);
    await signIn(t, { email: user.email, password: 'another good password' });

    // A sign-up code is for another purpose.
    const fresh = uniqueEmail('fresh');
    await t.request('POST', '/api/otps', { body: { email: fresh }, ip: nextIp() });
    const signUpCode = codeFrom(t.mail.last(fresh));
    expect((await confirmReset({ email: fresh, otp: signUpCode, password: 'another good password' })).status).toBe(400);
  });

  it('refuses a weak password without using up the code', async () => {
    const user = await createUser(t);
    await requestReset(user.email);
    const otp = codeFrom(t.mail.last(user.email));
    const res = await confirmReset({ email: user.email, otp, password: 'short' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect((await confirmReset({ email: user.email, otp, password: 'long enough now' })).status).toBe(200);
  });
});

describe('PATCH /api/users/me', () => {
  it('changes the name; /users/me and new tasks show it', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await t.request('PATCH', '/api/users/me', { cookie, body: { fullName: '  Grace Hopper ' } });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({ status: 'success', message: ACCOUNT_MESSAGES.profileSaved, data: { user: { fullName: 'Grace Hopper', email: user.email } } });
    expect((await me(cookie)).json.data.user.fullName).toBe('Grace Hopper');
    expect((await createTask(t, cookie)).assignor).toBe('Grace Hopper');
  });

  it('refuses an empty name and callers without a session', async () => {
    const { cookie } = await createSignedInUser(t);
    expect((await t.request('PATCH', '/api/users/me', { cookie, body: { fullName: '   ' } })).status).toBe(400);
    expect((await t.request('PATCH', '/api/users/me', { body: { fullName: 'X' } })).status).toBe(401);
  });
});

describe('POST /api/users/me/password', () => {
  it('changes the password and ends the other sessions, not this one', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const res = await t.request('POST', '/api/users/me/password', { cookie, body: { currentPassword: user.password, newPassword: 'the new password' } });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({ status: 'success', message: ACCOUNT_MESSAGES.passwordChanged });
    expect((await me(cookie)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    await signIn(t, { email: user.email, password: 'the new password' });
  });

  it('answers 400 to a wrong current password and changes nothing', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const res = await t.request('POST', '/api/users/me/password', { cookie, body: { currentPassword: 'not my password', newPassword: 'the new password' } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'currentPassword', message: ACCOUNT_MESSAGES.wrongPassword }]);
    expect((await me(other)).status).toBe(200);
    await signIn(t, user);
  });
});

describe('POST /api/users/logout-all', () => {
  it('ends every session of the user, this one too, and clears the cookie', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const { cookie: stranger } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/users/logout-all', { cookie });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'success', message: ACCOUNT_MESSAGES.loggedOutEverywhere });
    expect(String(res.headers['set-cookie'])).toContain('taskwise_session=;');
    expect((await me(cookie)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await me(stranger)).status).toBe(200);
  });
});

describe('GET /api/users/me/export', () => {
  it('downloads the user, settings and every task they created or are assigned — nobody else\'s', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const { user: other, cookie: otherCookie } = await createSignedInUser(t);
    const created = await createTask(t, cookie, { taskTitle: 'Mine to give' });
    const assigned = await createTask(t, otherCookie, { taskTitle: 'Given to me', assignee: user.email });
    const notMine = await createTask(t, otherCookie, { taskTitle: 'Not mine', assignee: other.email });
    await writeComment(user, assigned._id, 'On it.');
    await writeComment(other, assigned._id, 'Thanks!');
    const res = await t.request('GET', '/api/users/me/export', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="taskwise-export-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = JSON.parse(res.body) as { user: unknown; settings: unknown; tasks: { taskTitle: string }[]; comments: unknown[] };
    expect(data.user).toEqual({ fullName: user.fullName, email: user.email, createdAt: expect.any(String) as string });
    expect(data.settings).toEqual({ notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true });
    expect(data.tasks.map((task) => task.taskTitle).sort()).toEqual([created.taskTitle, assigned.taskTitle].sort());
    expect(data.comments).toEqual([expect.objectContaining({ taskId: assigned._id, body: 'On it.' })]);
    expect(res.body).not.toContain('passwordHash');
    expect(res.body).not.toContain(notMine._id);
  });
});

describe('GET /api/users/me/export of a large account', () => {
  it('streams one valid document (no Content-Length): every task newest first, every comment oldest first', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const newestFirst = (await insertTasks(t, user, 1234)).reverse();
    // More comments than one page of the export, written in bulk, in order.
    const now = t.clock.now().toISOString();
    const comments = Array.from({ length: 567 }, (_, i) => ({
      id: newId(),
      taskId: newestFirst[i % 10] ?? '',
      authorId: user.id,
      authorName: user.fullName,
      authorEmail: user.email,
      body: `Comment ${i}`,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < comments.length; i += 200) await t.app.db.insertInto('comments').values(comments.slice(i, i + 200)).execute();
    const commentIds = comments.map((comment) => comment.id);
    const res = await t.request('GET', '/api/users/me/export', { cookie });
    expect(res.status).toBe(200);
    // A body sent as one string gets a Content-Length; a stream goes out in chunks.
    expect(res.headers['content-length']).toBeUndefined();
    const data = JSON.parse(res.body) as { exportedAt: string; tasks: { _id: string }[]; comments: { _id: string }[] };
    expect(Object.keys(data)).toEqual(['exportedAt', 'user', 'settings', 'boards', 'tasks', 'comments', 'notifications']);
    expect(data.tasks.map((task) => task._id)).toEqual(newestFirst);
    expect(data.comments.map((comment) => comment._id)).toEqual(commentIds);
    // The same text JSON.stringify(data, null, 2) writes.
    expect(res.body).toBe(JSON.stringify(data, null, 2));
  });

  it('writes empty lists as []', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('GET', '/api/users/me/export', { cookie });
    const data = JSON.parse(res.body) as { tasks: unknown[]; comments: unknown[] };
    expect(data.tasks).toEqual([]);
    expect(data.comments).toEqual([]);
    expect(res.body).toBe(JSON.stringify(data, null, 2));
  });
});

describe('DELETE /api/users/me', () => {
  it('deletes the account with the password: sessions end, private tasks go, tasks for others stay under the name, the address may register again', async () => {
    const { user, cookie } = await createSignedInUser(t, { fullName: 'Leaving Person' });
    const { user: colleague, cookie: colleagueCookie } = await createSignedInUser(t);
    const forColleague = await createTask(t, cookie, { taskTitle: 'For the colleague', assignee: colleague.email });
    const privateTask = await createTask(t, cookie, { taskTitle: 'Only mine', assignee: user.email });
    const fromColleague = await createTask(t, colleagueCookie, { taskTitle: 'From the colleague', assignee: user.email });
    await t.request('PATCH', '/api/users/me/settings', { cookie, body: { notifyReminders: false } });
    const commentId = await writeComment(user, forColleague._id, 'Please start Monday.');

    const res = await t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } });
    expect(res.status, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await me(cookie)).status).toBe(401);
    expect((await t.request('POST', '/api/users/login', { body: { email: user.email, password: user.password } })).status).toBe(401);

    const seen = (await t.request('GET', '/api/tasks', { cookie: colleagueCookie })).json.data.tasks;
    const kept = seen.find((task) => task._id === forColleague._id);
    expect(kept?.assignor).toBe('Leaving Person');
    expect(seen.some((task) => task._id === fromColleague._id)).toBe(true);
    const comment = await t.app.db.selectFrom('comments').select(['body', 'authorName']).where('id', '=', commentId).executeTakeFirst();
    expect(comment).toEqual({ body: 'Please start Monday.', authorName: 'Leaving Person' });
    expect(await t.app.db.selectFrom('tasks').select('id').where('id', '=', privateTask._id).execute()).toEqual([]);
    // What the address turned off stays off (mail-settings.test.ts › outlive the account…).
    expect(await t.app.mailSettingsRepository.get(user.email)).toEqual({ notifyAssigned: true, notifyReminders: false, notifyBoards: true, notifyMentions: true });

    // The address is free again: the whole sign-up flow works for it.
    await registerThroughApi(t, { email: user.email });
    const again = await signIn(t, { email: user.email, password: 'a long enough password' });
    expect((await me(again)).json.data.user.email).toBe(user.email);
  });

  it('answers 400 to a wrong password and deletes nothing', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await t.request('DELETE', '/api/users/me', { cookie, body: { password: 'wrong password' } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'password', message: ACCOUNT_MESSAGES.wrongPassword }]);
    expect((await me(cookie)).status).toBe(200);
    await signIn(t, user);
  });
});
