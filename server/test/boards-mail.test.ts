import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { newId } from '../db/ids.ts';
import { SENDER_MAIL_CAP } from '../services/mail-cap.ts';
import { boardEventsOf, boardsApi, dataOf, lastEventId } from './boards-support.ts';
import { runCommand } from './commands.ts';
import { createSignedInUser, createUser, insertBoard, nextIp, signIn, uniqueEmail } from './factories.ts';
import { TEST_ORIGIN, useTestApp } from './helpers.ts';
import { codeFrom, codeIn } from './mail-catcher.ts';

/**
 * The "added you to a board" mail (through the outbox, read from the real SMTP catcher), its
 * setting and one-click unsubscribe, and invitations becoming memberships when an account is
 * made with the address (sign-up and `npm run admin -- users:create`).
 */
const t = useTestApp();
const api = boardsApi(t);

const outboxRowsTo = (email: string) => t.app.db.selectFrom('outbox').select(['kind', 'causedBy']).where('toEmail', '=', email).execute();

describe('the "added you to a board" mail', () => {
  it('goes to an added account with a link to the board and one-click unsubscribe headers, counted as the adder\'s', async () => {
    const { user: admin, cookie } = await createSignedInUser(t, { fullName: 'Ada Admin' });
    const board = await insertBoard(t, admin, [], 'Launch plan');
    const member = await createUser(t);
    expect((await api.addMember(cookie, board.id, member.email, 'viewer')).status).toBe(201);
    await t.app.outbox.drain();
    const mail = t.mail.last(member.email);
    expect(mail.subject).toBe('Ada Admin added you to Launch plan');
    expect(mail.text).toContain('Ada Admin added you to the board "Launch plan"');
    expect(mail.text).toContain(`Open the board: ${TEST_ORIGIN}/boards/${board.id}`);
    expect(mail.html).toContain(`${TEST_ORIGIN}/boards/${board.id}`);
    expect(mail.text).toContain('Viewer');
    expect(mail.header('list-unsubscribe')).toMatch(new RegExp(`^<${TEST_ORIGIN}/api/unsubscribe\\?token=[^>]+>$`));
    expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(await outboxRowsTo(member.email)).toEqual([{ kind: 'board-added', causedBy: admin.id }]);
  });

  it('invites an address without an account to sign up with the address filled in', async () => {
    const { user: admin, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, admin);
    const address = uniqueEmail('new+person');
    expect((await api.addMember(cookie, board.id, address)).status).toBe(201);
    await t.app.outbox.drain();
    const mail = t.mail.last(address);
    expect(mail.subject).toBe(`${admin.fullName} added you to ${board.name}`);
    expect(mail.text).toContain(`Create your account: ${TEST_ORIGIN}/sign-up?email=${encodeURIComponent(address)}`);
    expect(mail.text).not.toContain(`/boards/${board.id}`);
  });

  it('is not sent when the address turned board mail off (setting or one-click link); other mail is unaffected', async () => {
    const { user: admin, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, admin);
    const member = await createSignedInUser(t);

    const settings = await t.request('GET', '/api/users/me/settings', { cookie: member.cookie });
    expect(settings.json.data).toEqual({ settings: { notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true, language: 'en', weekStart: 'sunday', hourCycle: 'h12' }, isAdmin: false });
    const off = await t.request('PATCH', '/api/users/me/settings', { cookie: member.cookie, body: { notifyBoards: false, notifyMentions: true } });
    expect(off.status).toBe(200);
    expect(off.json.data).toEqual({ settings: { notifyAssigned: true, notifyReminders: true, notifyBoards: false, notifyMentions: true, language: 'en', weekStart: 'sunday', hourCycle: 'h12' } });
    expect((await api.addMember(cookie, board.id, member.user.email)).status).toBe(201);

    // An address without an account turns it off with the link of an earlier mail.
    const address = uniqueEmail('unsubscriber');
    const first = await insertBoard(t, admin);
    expect((await api.addMember(cookie, first.id, address)).status).toBe(201);
    await t.app.outbox.drain();
    const link = /<([^>]+)>/.exec(t.mail.last(address).header('list-unsubscribe'))?.[1] ?? '';
    const unsubscribed = await t.request('POST', link.replace(TEST_ORIGIN, ''), {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unsubscribed.status, unsubscribed.body).toBe(200);
    expect(unsubscribed.json.message).toBe(ACCOUNT_MESSAGES.unsubscribed.boards);
    expect(unsubscribed.json.data).toEqual({ email: address, kind: 'boards' });
    expect((await api.addMember(cookie, board.id, address)).status).toBe(201);

    await t.app.outbox.drain();
    expect(t.mail.to(member.user.email)).toEqual([]);
    expect(t.mail.to(address)).toHaveLength(1);
    expect(await outboxRowsTo(member.user.email)).toEqual([]);
  });

  it('sends one mail per addition and nothing for a role change or a removal', async () => {
    const { user: admin, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, admin);
    const member = await createUser(t);
    expect((await api.addMember(cookie, board.id, member.email)).status).toBe(201);
    expect((await api.setRole(cookie, board.id, member.email, 'admin')).status).toBe(200);
    const memberCookie = await signIn(t, member);
    expect((await api.removeMember(memberCookie, board.id, admin.email)).status).toBe(204);
    expect((await api.addMember(memberCookie, board.id, admin.email)).status).toBe(201);
    // The one mail is the first addition's; the admin re-added by someone else gets theirs.
    await t.app.outbox.drain();
    expect(t.mail.to(member.email)).toHaveLength(1);
    expect(t.mail.to(admin.email)).toHaveLength(1);

  });

  it(`counts against the adder's cap of ${SENDER_MAIL_CAP.mails} mails an hour: past it the member is added without mail, and the answer says so`, async () => {
    const { user: admin, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, admin);
    const now = t.clock.now().toISOString();
    await t.app.outboxRepository.insertMany(
      Array.from({ length: SENDER_MAIL_CAP.mails }, () => ({
        id: newId(), kind: 'assigned', toEmail: uniqueEmail('x'), subject: 's', textBody: 't', htmlBody: 'h', headers: '{}', dedupeKey: null,
        status: 'sent' as const, attempts: 1, runAt: now, lockedBy: null, lockedUntil: null, lastError: null, createdAt: now, sentAt: now, causedBy: admin.id,
      })),
    );
    const address = uniqueEmail('capped');
    const res = await api.addMember(cookie, board.id, address);
    expect(res.status).toBe(201);
    expect(res.json.message).toBe(`${BOARD_MESSAGES.invited} ${SERVER_MESSAGES.mailCapReached}`);
    expect(dataOf(res).member.email).toBe(address);
    await t.app.outbox.drain();
    expect(t.mail.to(address)).toEqual([]);
  });
});

describe('invitations become memberships when an account is made with the address', () => {
  it('at sign-up: the new account sees the boards at once; it gets board.added, the other members board.updated', async () => {
    const { user: admin, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, admin);
    const address = uniqueEmail('joiner');
    expect((await api.addMember(cookie, board.id, address, 'viewer')).status).toBe(201);
    const other = await insertBoard(t, admin, [{ who: address, role: 'member' }]);
    const start = await lastEventId(t);

    expect((await t.request('POST', '/api/otps', { body: { email: address }, ip: nextIp() })).status).toBe(201);
    await t.app.outbox.drain();
    const otp = codeFrom(t.mail.to(address).find((m) => codeIn(m) !== undefined) ?? t.mail.last(address));
    const registered = await t.request('POST', '/api/users/register', { body: { email: address, otp, fullName: 'Jo Joiner', password: 'a long enough password' } });
    expect(registered.status, registered.body).toBe(201);
    const user = await t.app.usersRepository.findByEmail(address);

    const joinerCookie = await signIn(t, { email: address, password: 'a long enough password' });
    const boards = dataOf(await api.list(joinerCookie)).boards;
    expect(boards.map((b) => [b._id, b.role]).toSorted()).toEqual(
      [
        [user?.id, 'admin'],
        [board.id, 'viewer'],
        [other.id, 'member'],
      ].toSorted(),
    );
    const members = dataOf(await api.get(cookie, board.id)).members;
    expect(members.find((m) => m.email === address)).toMatchObject({ status: 'active', fullName: 'Jo Joiner', role: 'viewer' });
    const rows = await t.app.db.selectFrom('boardMembers').select('userId').where('email', '=', address).execute();
    expect(rows.map((r) => r.userId)).toEqual([user?.id, user?.id, user?.id]);

    const events = await boardEventsOf(t, board.id, start);
    expect(events.map((e) => [e.type, e.audience, e.data.board.role])).toEqual([
      ['board.added', [address], 'viewer'],
      ['board.updated', [admin.email], 'admin'],
    ]);
    expect((await boardEventsOf(t, other.id, start)).map((e) => [e.type, e.audience])).toEqual([
      ['board.added', [address]],
      ['board.updated', [admin.email]],
    ]);
  });

  it('through `npm run admin -- users:create`', async () => {
    const { user: admin } = await createSignedInUser(t);
    const address = uniqueEmail('cli');
    const board = await insertBoard(t, admin, [{ who: address, role: 'member' }]);
    const start = await lastEventId(t);
    const database = t.config.database;
    const created = await runCommand('admin', ['users:create', '--email', address, '--name', 'Cli Person', '--password-stdin'], {
      env: { DATABASE_URL: database.kind === 'sqlite' ? `file:${database.file}` : database.url },
      cwd: process.cwd(),
      stdin: 'a chosen password\n',
    });
    expect(created, created.stderr).toEqual({ code: 0, stdout: `Created ${address} (now an active member of 1 board it was invited to).\n`, stderr: '' });
    const cookie = await signIn(t, { email: address, password: 'a chosen password' });
    expect(dataOf(await api.get(cookie, board.id)).board.role).toBe('member');
    expect((await boardEventsOf(t, board.id, start)).map((e) => [e.type, e.audience])).toEqual([
      ['board.added', [address]],
      ['board.updated', [admin.email]],
    ]);
  });
});
