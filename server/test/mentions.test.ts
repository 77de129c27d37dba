import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { MENTIONS_PER_COMMENT } from '#shared/mentions.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Comment, Person } from '#shared/schemas/comments.ts';
import { newId } from '../db/ids.ts';
import { SENDER_MAIL_CAP } from '../services/mail-cap.ts';
import { boardsApi } from './boards-support.ts';
import { createSignedInUser, createTask, insertBoard, signIn, uniqueEmail } from './factories.ts';
import { TEST_ORIGIN, useTestApp } from './helpers.ts';

/**
 * Mentions: `@address` in a comment. The addresses that see the task (an active member of its
 * board, any role, or its assignee) are stored with the comment and, except the author, get
 * one mail; any other address stays plain text and nothing about it is revealed.
 */
const t = useTestApp();

const post = (cookie: string, taskId: string, body: string) => t.request('POST', `/api/tasks/${taskId}/comments`, { cookie, body: { body } });
const edit = (cookie: string, taskId: string, commentId: string, body: string) =>
  t.request('PATCH', `/api/tasks/${taskId}/comments/${commentId}`, { cookie, body: { body } });
const peopleOf = (cookie: string, taskId: string) => t.request('GET', `/api/tasks/${taskId}/people`, { cookie });
const comment = (res: { json: unknown }) => (res.json as { data: { comment: Comment } }).data.comment;
const lastComment = (res: { json: unknown }) => (res.json as { data: { comments: Comment[] } }).data.comments.at(-1);
const peopleIn = (res: { json: unknown }) => (res.json as { data: { people: Person[] } }).data.people;
const emailsOf = (res: { json: unknown }) => peopleIn(res).map((p) => p.email);
const mentionMailsTo = (email: string) => t.mail.to(email).filter((mail) => mail.subject.includes(' mentioned you on '));
const outboxTo = (email: string) => t.app.db.selectFrom('outbox').select(['kind', 'toEmail']).where('toEmail', '=', email).execute();

/**
 * A shared board: Alice (admin), Bob (member), Vera (viewer), an invitation to an address with
 * no account yet; Olga has an account but is not on it. The task is assigned to Ann, who has
 * no account and is not a member.
 */
async function scene() {
  const alice = await createSignedInUser(t, { fullName: 'Alice Admin' });
  const bob = await createSignedInUser(t, { fullName: 'Bob Member' });
  const vera = await createSignedInUser(t, { fullName: 'vera Viewer' });
  const olga = await createSignedInUser(t, { fullName: 'Olga Outsider' });
  const invited = uniqueEmail('invited');
  const ann = uniqueEmail('ann');
  const board = await insertBoard(t, alice.user, [
    { who: bob.user, role: 'member' },
    { who: vera.user, role: 'viewer' },
    { who: invited, role: 'member' },
  ]);
  const task = await createTask(t, alice.cookie, { boardId: board.id, assignee: ann, taskTitle: 'Fix the bridge' });
  await t.app.outbox.drain();
  return { alice, bob, vera, olga, invited, ann, board, task };
}

describe('mentions in comments', () => {
  it('stores the mentioned addresses that see the task and mails each of them but the author', async () => {
    const { alice, bob, vera, olga, invited, ann, task } = await scene();
    const nobody = uniqueEmail('nobody');
    const body = `@${bob.user.email.toUpperCase()}, @${vera.user.email} and @${ann}. Not @${olga.user.email} (@${invited}), @${nobody} or me @${alice.user.email}.`;
    const res = await post(alice.cookie, task._id, body);
    expect(res.status, res.body).toBe(201);
    expect(res.json.message).toBe(SERVER_MESSAGES.commentAdded);
    const created = comment(res);
    expect(created.body).toBe(body);
    expect(created.mentions).toEqual([bob.user.email, vera.user.email, ann, alice.user.email]);
    // The list reads the same from storage.
    const listed = await t.request('GET', `/api/tasks/${task._id}/comments`, { cookie: bob.cookie });
    expect(lastComment(listed)?.mentions).toEqual(created.mentions);

    await t.app.outbox.drain();
    const mail = t.mail.last(bob.user.email);
    expect(mail.subject).toBe('Alice Admin mentioned you on Fix the bridge');
    expect(mail.text).toContain('Alice Admin mentioned you in a comment');
    expect(mail.text).toContain(`> ${body}`);
    expect(mail.text).toContain(`${TEST_ORIGIN}/tasks/${task._id}`);
    expect(mail.text).toMatch(/Turn these mails off: \S+\/unsubscribe\?token=/);
    expect(mail.html).toContain('<blockquote');
    expect(mail.header('List-Unsubscribe')).toMatch(/^<\S+\/api\/unsubscribe\?token=\S+>$/);
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mentionMailsTo(vera.user.email)).toHaveLength(1);
    // The assignee without an account is led to sign up with the address filled in.
    expect(t.mail.last(ann).text).toContain(`${TEST_ORIGIN}/sign-up?email=${encodeURIComponent(ann)}`);
    for (const none of [alice.user.email, olga.user.email, invited, nobody]) expect(t.mail.to(none)).toEqual([]);
    const kinds = await t.app.db.selectFrom('outbox').select('kind').where('toEmail', '=', bob.user.email).execute();
    expect(kinds).toEqual([{ kind: 'mentioned' }]);
  });

  it('answers the same whether a mentioned address that cannot see the task has an account or not', async () => {
    const { alice, olga, task } = await scene();
    const nobody = uniqueEmail('nobody');
    const withAccount = await post(alice.cookie, task._id, `Ping @${olga.user.email}`);
    const withoutAccount = await post(alice.cookie, task._id, `Ping @${nobody}`);
    const shape = (res: typeof withAccount) => ({ status: res.status, message: res.json.message, mentions: comment(res).mentions, keys: Object.keys(comment(res)) });
    expect(shape(withAccount)).toEqual(shape(withoutAccount));
    expect(comment(withAccount).mentions).toEqual([]);
    await t.app.outbox.drain();
    expect(await outboxTo(olga.user.email)).toEqual([]);
    expect(await outboxTo(nobody)).toEqual([]);
    // Nor does the task's people list of someone who sees it name them.
    const people = await peopleOf(alice.cookie, task._id);
    expect(JSON.stringify(people.json)).not.toContain(olga.user.email);
  });

  it('follows the board: a removed member is no longer mentioned, a newly added one is', async () => {
    const { alice, bob, olga, board, task } = await scene();
    expect((await boardsApi(t).removeMember(alice.cookie, board.id, bob.user.email)).status).toBe(204);
    expect((await boardsApi(t).addMember(alice.cookie, board.id, olga.user.email, 'viewer')).status).toBe(201);
    await t.app.outbox.drain();
    const res = await post(alice.cookie, task._id, `@${bob.user.email} @${olga.user.email}`);
    expect(comment(res).mentions).toEqual([olga.user.email]);
    await t.app.outbox.drain();
    expect(mentionMailsTo(bob.user.email)).toEqual([]);
    expect(mentionMailsTo(olga.user.email)).toHaveLength(1);
  });

  it('a viewer may mention, and the assignee off the board may be mentioned and mention', async () => {
    const { alice, vera, task } = await scene();
    const res = await post(vera.cookie, task._id, `@${alice.user.email} have a look`);
    expect(res.status, res.body).toBe(201);
    expect(comment(res).mentions).toEqual([alice.user.email]);
    await t.app.outbox.drain();
    expect(t.mail.last(alice.user.email).subject).toBe('vera Viewer mentioned you on Fix the bridge');
  });

  it(`counts at most ${MENTIONS_PER_COMMENT} distinct addresses of a comment`, async () => {
    const { alice, bob, task } = await scene();
    const fillers = Array.from({ length: MENTIONS_PER_COMMENT }, () => `@${uniqueEmail('filler')}`).join(' ');
    const res = await post(alice.cookie, task._id, `${fillers} @${bob.user.email}`);
    expect(res.status, res.body).toBe(201);
    expect(comment(res).mentions).toEqual([]);
    await t.app.outbox.drain();
    expect(mentionMailsTo(bob.user.email)).toEqual([]);
  });

  it('honours notifyMentions: turned off, the mention is stored but no mail goes out', async () => {
    const { alice, bob, task } = await scene();
    const off = await t.request('PATCH', '/api/users/me/settings', { cookie: bob.cookie, body: { notifyMentions: false } });
    expect(off.status, off.body).toBe(200);
    expect(off.json.data).toEqual({ settings: { notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: false, language: 'en', weekStart: 'sunday', hourCycle: 'h12' } });
    const res = await post(alice.cookie, task._id, `@${bob.user.email}`);
    expect(comment(res).mentions).toEqual([bob.user.email]);
    await t.app.outbox.drain();
    expect(await outboxTo(bob.user.email)).toEqual([]);
  });

  it('one-click unsubscribe from a mention mail turns mention mails off, and only them', async () => {
    const { alice, bob, task } = await scene();
    await post(alice.cookie, task._id, `@${bob.user.email} first`);
    await t.app.outbox.drain();
    const link = /<(\S+\/api\/unsubscribe\?token=\S+)>/.exec(t.mail.last(bob.user.email).header('List-Unsubscribe'))?.[1] ?? '';
    const res = await t.request('POST', link.replace(TEST_ORIGIN, ''), {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({ status: 'success', message: ACCOUNT_MESSAGES.unsubscribed.mentions, data: { email: bob.user.email, kind: 'mentions' } });
    const settings = await t.request('GET', '/api/users/me/settings', { cookie: bob.cookie });
    expect(settings.json.data).toEqual({ settings: { notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: false, language: 'en', weekStart: 'sunday', hourCycle: 'h12' }, isAdmin: false });
    await post(alice.cookie, task._id, `@${bob.user.email} second`);
    await t.app.outbox.drain();
    expect(mentionMailsTo(bob.user.email)).toHaveLength(1);
  });

  it("counts mention mails against the sender's hourly cap: past it the comment is still written, with a note", async () => {
    const { alice, bob, vera, task } = await scene();
    const now = t.clock.now().toISOString();
    const used = await t.app.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number | string>().as('n')).where('causedBy', '=', alice.user.id).executeTakeFirst();
    const room = 1;
    const rows = Array.from({ length: SENDER_MAIL_CAP.mails - Number(used?.n ?? 0) - room }, () => ({
      id: newId(), kind: 'assigned', toEmail: uniqueEmail('x'), subject: 's', textBody: 't', htmlBody: 'h', headers: '{}', dedupeKey: null,
      status: 'sent' as const, attempts: 1, runAt: now, lockedBy: null, lockedUntil: null, lastError: null, createdAt: now, sentAt: now, causedBy: alice.user.id,
    }));
    await t.app.outboxRepository.insertMany(rows);
    const res = await post(alice.cookie, task._id, `@${bob.user.email} @${vera.user.email}`);
    expect(res.status, res.body).toBe(201);
    expect(res.json.message).toBe(`${SERVER_MESSAGES.commentAdded} ${SERVER_MESSAGES.mailCapReached}`);
    expect(comment(res).mentions).toEqual([bob.user.email, vera.user.email]);
    await t.app.outbox.drain();
    expect(mentionMailsTo(bob.user.email)).toHaveLength(1);
    expect(mentionMailsTo(vera.user.email)).toEqual([]);
    const mentioned = await t.app.db.selectFrom('outbox').select('causedBy').where('kind', '=', 'mentioned').where('toEmail', '=', bob.user.email).execute();
    expect(mentioned).toEqual([{ causedBy: alice.user.id }]);
  });

  it('an edit recomputes the mentions and mails only the newly mentioned', async () => {
    const { alice, bob, vera, task } = await scene();
    const first = comment(await post(alice.cookie, task._id, `@${bob.user.email} look`));
    await t.app.outbox.drain();
    expect(mentionMailsTo(bob.user.email)).toHaveLength(1);

    const both = await edit(alice.cookie, task._id, first._id, `@${bob.user.email} and @${vera.user.email} look`);
    expect(both.status, both.body).toBe(200);
    expect(both.json.message).toBe(SERVER_MESSAGES.commentUpdated);
    expect(comment(both).mentions).toEqual([bob.user.email, vera.user.email]);
    await t.app.outbox.drain();
    expect(mentionMailsTo(bob.user.email)).toHaveLength(1);
    expect(mentionMailsTo(vera.user.email)).toHaveLength(1);
    expect(t.mail.last(vera.user.email).text).toContain(`> @${bob.user.email} and @${vera.user.email} look`);

    // Taking a mention out stores it out; putting it back counts as new.
    const without = await edit(alice.cookie, task._id, first._id, `@${vera.user.email} look`);
    expect(comment(without).mentions).toEqual([vera.user.email]);
    const listed = await t.request('GET', `/api/tasks/${task._id}/comments`, { cookie: alice.cookie });
    expect(lastComment(listed)?.mentions).toEqual([vera.user.email]);
    await edit(alice.cookie, task._id, first._id, `@${vera.user.email} @${bob.user.email} look`);
    await t.app.outbox.drain();
    expect(mentionMailsTo(bob.user.email)).toHaveLength(2);
    expect(mentionMailsTo(vera.user.email)).toHaveLength(1);
  });

  it('the live event carries the mentions', async () => {
    const { alice, bob, task } = await scene();
    await post(alice.cookie, task._id, `@${bob.user.email}`);
    const row = await t.app.db.selectFrom('events').select('payload').where('type', '=', 'comment.created').where('subjectId', '=', task._id).executeTakeFirstOrThrow();
    expect((JSON.parse(row.payload) as { comment: Comment }).comment.mentions).toEqual([bob.user.email]);
  });
});

describe('GET /api/tasks/:id/people', () => {
  it('lists everyone with an account who sees the task, by name, to anyone who sees it', async () => {
    const { alice, bob, vera, task } = await scene();
    const expected = [alice.user, bob.user, vera.user].map((u) => ({ fullName: u.fullName, email: u.email }));
    for (const cookie of [alice.cookie, bob.cookie, vera.cookie]) {
      const res = await peopleOf(cookie, task._id);
      expect(res.status, res.body).toBe(200);
      expect(res.json).toEqual({ status: 'success', data: { people: expected } });
    }
  });

  it('includes an assignee with an account who is not on the board; they may ask too', async () => {
    const { alice, bob, vera, board } = await scene();
    const off = await createSignedInUser(t, { fullName: 'Zed Assignee' });
    const task = await createTask(t, alice.cookie, { boardId: board.id, assignee: off.user.email });
    const res = await peopleOf(off.cookie, task._id);
    expect(res.status, res.body).toBe(200);
    expect(emailsOf(res)).toEqual([
      alice.user.email,
      bob.user.email,
      vera.user.email,
      off.user.email,
    ]);
  });

  it('answers 404 for a task the user cannot see, as for a missing one', async () => {
    const { olga, task } = await scene();
    const hidden = await peopleOf(olga.cookie, task._id);
    expect(hidden.status).toBe(404);
    const missing = await peopleOf(olga.cookie, newId());
    expect(missing.status).toBe(404);
    expect(hidden.json).toEqual(missing.json);
    expect((await peopleOf(olga.cookie, 'not-an-id')).status).toBe(404);
  });

  it('needs a session', async () => {
    const { task } = await scene();
    expect((await t.request('GET', `/api/tasks/${task._id}/people`)).status).toBe(401);
  });

  it('a personal task: its owner, and the assignee once they have an account', async () => {
    const owner = await createSignedInUser(t);
    const task = await createTask(t, owner.cookie);
    const alone = await peopleOf(owner.cookie, task._id);
    expect(peopleIn(alone)).toEqual([{ fullName: owner.user.fullName, email: owner.user.email }]);
    const assignee = await createSignedInUser(t, { email: task.assignee });
    await signIn(t, assignee.user);
    const both = await peopleOf(assignee.cookie, task._id);
    expect(emailsOf(both).toSorted()).toEqual([owner.user.email, task.assignee].toSorted());
  });
});
