import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { BOARD_POLICY, PERSONAL_BOARD_NAME } from '#shared/constants.ts';
import { newId } from '../db/ids.ts';
import { createSignedInUser, createUser, insertBoard, signIn, uniqueEmail } from './factories.ts';
import { anyString, HOUR, isPostgres, MINUTE, untilWaitingOnLock, useTestApp } from './helpers.ts';
import { boardEventsOf, boardsApi, dataOf, insertBoardTask, lastEventId } from './boards-support.ts';
import { english } from '../i18n/translate.ts';

/** Boards and their members: the API, who may do what, the limits, and the events each change writes. */
const t = useTestApp();
const api = boardsApi(t);

/** An admin, a member and a viewer (all signed in) on a fresh shared board, plus an invited address. */
async function team() {
  const admin = await createSignedInUser(t);
  const member = await createSignedInUser(t);
  const viewer = await createSignedInUser(t);
  const invited = uniqueEmail('invited');
  const board = await insertBoard(t, admin.user, [
    { who: member.user, role: 'member' },
    { who: viewer.user, role: 'viewer' },
    { who: invited, role: 'member' },
  ]);
  return { admin, member, viewer, invited, board };
}

const expectFail = (res: Awaited<ReturnType<typeof api.get>>, status: number, code: string, message?: string) => {
  expect(res.status, res.body).toBe(status);
  expect(res.json.status).toBe('fail');
  expect(res.json.code).toBe(code);
  if (message !== undefined) expect(res.json.message).toBe(message);
};

describe('POST /api/boards and GET /api/boards', () => {
  it('creates a shared board with me as its only admin, and lists my boards: personal first, then by name', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const start = await lastEventId(t);
    const zebra = await api.create(cookie, { name: '  zebra  ', description: '  Stripes  ' });
    expect(zebra.status, zebra.body).toBe(201);
    const board = dataOf(zebra).board;
    expect(board).toEqual({
      _id: anyString,
      name: 'zebra',
      description: 'Stripes',
      personal: false,
      role: 'admin',
      memberCount: 1,
      counts: { todo: 0, done: 0, overdue: 0 },
      columns: [
        { _id: anyString, name: 'Tasks To Do', category: 'todo', wipLimit: null, position: anyString },
        { _id: anyString, name: 'Completed', category: 'done', wipLimit: null, position: anyString },
      ],
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    await api.create(cookie, { name: 'Apple' });
    await api.create(cookie, { name: 'banana' });

    const list = await api.list(cookie);
    expect(list.status).toBe(200);
    expect(dataOf(list).boards.map((b) => [b.name, b.personal, b.role])).toEqual([
      [PERSONAL_BOARD_NAME, true, 'admin'],
      ['Apple', false, 'admin'],
      ['banana', false, 'admin'],
      ['zebra', false, 'admin'],
    ]);
    expect(dataOf(list).boards[0]?._id).toBe(user.id);

    // The creator's streams learn of the board.
    const events = await boardEventsOf(t, board._id, start);
    expect(events).toEqual([{ type: 'board.added', audience: [user.email], data: { board }, subjectId: board._id }]);
  });

  it('refuses a blank or too long name, a too long description and a wrong type, writing nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const cases: [unknown, string][] = [
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(81) }, 'name'],
      [{ name: 'Fine', description: 'd'.repeat(1001) }, 'description'],
      [{ name: 42 }, 'name'],
      [{}, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await api.create(cookie, body);
      expectFail(res, 400, 'VALIDATION_FAILED');
      expect(res.json.errors.map((e) => e.field), JSON.stringify(body)).toContain(field);
    }
    expect(dataOf(await api.list(cookie)).boards).toHaveLength(1);
    expect((await api.create(cookie, { name: 'x'.repeat(80), description: 'd'.repeat(1000) })).status).toBe(201);
  });

  it('counts each board\'s tasks (to do, done, overdue) and members (active and invited) in the list', async () => {
    const { admin, member, board } = await team();
    const past = new Date(t.clock.now().getTime() - HOUR).toISOString();
    const future = new Date(t.clock.now().getTime() + HOUR).toISOString();
    await insertBoardTask(t, board.id, admin.user);
    await insertBoardTask(t, board.id, admin.user, { deadline: future });
    await insertBoardTask(t, board.id, member.user, { deadline: past });
    await insertBoardTask(t, board.id, member.user, { status: 'done', deadline: past });
    await insertBoardTask(t, admin.user.id, admin.user, { deadline: past });
    const boards = dataOf(await api.list(admin.cookie)).boards;
    expect(boards.map((b) => [b.name, b.memberCount, b.counts])).toEqual([
      [PERSONAL_BOARD_NAME, 1, { todo: 1, done: 0, overdue: 1 }],
      [board.name, 4, { todo: 3, done: 1, overdue: 1 }],
    ]);
    // The member sees the same board with their own role.
    const theirs = dataOf(await api.list(member.cookie)).boards.find((b) => b._id === board.id);
    expect(theirs).toMatchObject({ role: 'member', memberCount: 4, counts: { todo: 3, done: 1, overdue: 1 } });
  });
});

describe('GET /api/boards/:id', () => {
  it('answers a member with the board and its members, longest-standing first; invited ones without a name', async () => {
    const { admin, member, viewer, invited, board } = await team();
    const res = await api.get(viewer.cookie, board.id);
    expect(res.status, res.body).toBe(200);
    expect(dataOf(res).board).toMatchObject({ _id: board.id, name: board.name, role: 'viewer', memberCount: 4, personal: false });
    const addedBy = { fullName: admin.user.fullName, email: admin.user.email };
    expect(dataOf(res).members).toEqual([
      { email: admin.user.email, fullName: admin.user.fullName, role: 'admin', status: 'active', addedAt: anyString, addedBy },
      { email: member.user.email, fullName: member.user.fullName, role: 'member', status: 'active', addedAt: anyString, addedBy },
      { email: viewer.user.email, fullName: viewer.user.fullName, role: 'viewer', status: 'active', addedAt: anyString, addedBy },
      { email: invited, fullName: null, role: 'member', status: 'invited', addedAt: anyString, addedBy },
    ]);
  });

  it('answers 404 to anyone who is not an active member: strangers, an address only invited, unknown and malformed ids', async () => {
    const { board } = await team();
    const stranger = await createSignedInUser(t);
    // An account whose address is on the board only as an invitation (written so on purpose).
    const onlyInvited = await createUser(t);
    await t.app.db
      .insertInto('boardMembers')
      .values({ boardId: board.id, email: onlyInvited.email, userId: null, role: 'admin', addedAt: t.clock.now().toISOString(), addedByName: 'x', addedByEmail: 'x@example.test' })
      .execute();
    const invitedCookie = await signIn(t, onlyInvited);
    for (const [cookie, id] of [
      [stranger.cookie, board.id],
      [invitedCookie, board.id],
      [stranger.cookie, newId()],
      [stranger.cookie, 'not*an*id'],
    ] as const) {
      expectFail(await api.get(cookie, id), 404, 'NOT_FOUND', BOARD_MESSAGES.boardNotFound);
      expectFail(await api.update(cookie, id, { name: 'Mine now' }), 404, 'NOT_FOUND');
      expectFail(await api.remove(cookie, id), 404, 'NOT_FOUND');
      expectFail(await api.addMember(cookie, id, uniqueEmail()), 404, 'NOT_FOUND');
      expectFail(await api.setRole(cookie, id, onlyInvited.email, 'viewer'), 404, 'NOT_FOUND');
      expectFail(await api.removeMember(cookie, id, onlyInvited.email), 404, 'NOT_FOUND');
    }
    expect(dataOf(await api.list(stranger.cookie)).boards.map((b) => b._id)).toEqual([stranger.user.id]);
  });

  it('needs a session', async () => {
    const { board } = await team();
    expect((await t.request('GET', `/api/boards/${board.id}`)).status).toBe(401);
    expect((await t.request('GET', '/api/boards')).status).toBe(401);
  });
});

describe('PATCH and DELETE /api/boards/:id', () => {
  it('lets an admin rename and describe; every active member gets board.updated with their own role', async () => {
    const { admin, member, viewer, board } = await team();
    const start = await lastEventId(t);
    t.clock.advance(MINUTE);
    const res = await api.update(admin.cookie, board.id, { name: ' Renamed ', description: ' What we do ' });
    expect(res.status, res.body).toBe(200);
    expect(dataOf(res).board).toMatchObject({ _id: board.id, name: 'Renamed', description: 'What we do', role: 'admin', updatedAt: t.clock.now().toISOString() });
    expect((await api.update(admin.cookie, board.id, { description: '' })).status).toBe(200);
    expect(dataOf(await api.get(member.cookie, board.id)).board).toMatchObject({ name: 'Renamed', description: '' });

    const events = await boardEventsOf(t, board.id, start);
    expect(events.slice(0, 3).map((e) => [e.type, e.audience, e.data.board.role, e.data.board.name])).toEqual([
      ['board.updated', [admin.user.email], 'admin', 'Renamed'],
      ['board.updated', [member.user.email], 'member', 'Renamed'],
      ['board.updated', [viewer.user.email], 'viewer', 'Renamed'],
    ]);
  });

  it('answers 403 to a member or viewer and 400 to an empty change, changing nothing', async () => {
    const { member, viewer, admin, board } = await team();
    for (const cookie of [member.cookie, viewer.cookie]) {
      expectFail(await api.update(cookie, board.id, { name: 'Taken over' }), 403, 'FORBIDDEN', BOARD_MESSAGES.forbidden);
      expectFail(await api.remove(cookie, board.id), 403, 'FORBIDDEN');
    }
    expectFail(await api.update(admin.cookie, board.id, {}), 400, 'VALIDATION_FAILED');
    expectFail(await api.update(admin.cookie, board.id, { name: '' }), 400, 'VALIDATION_FAILED');
    expect(dataOf(await api.get(admin.cookie, board.id)).board.name).toBe(board.name);
  });

  it('refuses to rename, describe, share, leave or delete a personal board (400 PERSONAL_BOARD)', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const personal = user.id;
    expectFail(await api.update(cookie, personal, { name: 'Mine' }), 400, 'PERSONAL_BOARD', BOARD_MESSAGES.personalBoard);
    expectFail(await api.update(cookie, personal, { description: 'Mine' }), 400, 'PERSONAL_BOARD');
    expectFail(await api.addMember(cookie, personal, uniqueEmail()), 400, 'PERSONAL_BOARD');
    expectFail(await api.removeMember(cookie, personal, user.email), 400, 'PERSONAL_BOARD');
    expectFail(await api.remove(cookie, personal), 400, 'PERSONAL_BOARD');
    expect(dataOf(await api.get(cookie, personal)).board).toMatchObject({ name: PERSONAL_BOARD_NAME, personal: true, memberCount: 1 });
  });

  it('deletes a board with its tasks, their comments, its memberships and its events; its members get board.removed', async () => {
    const { admin, member, viewer, board } = await team();
    const outsider = uniqueEmail('assignee');
    const taskId = await insertBoardTask(t, board.id, member.user);
    const outsiderTask = await insertBoardTask(t, board.id, member.user, { assigneeEmail: outsider });
    await t.app.db
      .insertInto('comments')
      .values({ id: newId(), taskId, authorId: member.user.id, authorName: member.user.fullName, authorEmail: member.user.email, body: 'A comment', createdAt: t.clock.now().toISOString(), updatedAt: t.clock.now().toISOString() })
      .execute();
    await api.update(admin.cookie, board.id, { name: 'Soon gone' });
    const kept = await insertBoardTask(t, member.user.id, member.user);

    const res = await api.remove(admin.cookie, board.id);
    expect(res.status, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await t.app.db.selectFrom('tasks').select('id').where('boardId', '=', board.id).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('comments').select('id').where('taskId', '=', taskId).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('boardMembers').select('email').where('boardId', '=', board.id).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('boards').select('id').where('id', '=', board.id).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('tasks').select('id').where('id', '=', kept).execute()).toHaveLength(1);
    // Only the news of the deletion is left of the board in the log.
    const events = await boardEventsOf(t, board.id);
    expect(events.map((e) => [e.type, e.audience])).toEqual([
      ['task.deleted', [outsider]],
      ['board.removed', [admin.user.email, member.user.email, viewer.user.email].toSorted()],
    ]);
    expect(events[0]?.subjectId).toBe(outsiderTask);
    expect(events[1]?.data).toEqual({ board: { _id: board.id } });
    expectFail(await api.get(member.cookie, board.id), 404, 'NOT_FOUND');
  });
});

describe('POST /api/boards/:id/members', () => {
  it('adds an account as an active member and an unknown address as invited; events tell who gained the board', async () => {
    const { admin, member, viewer, board } = await team();
    const newcomer = await createUser(t);
    const start = await lastEventId(t);
    const res = await api.addMember(admin.cookie, board.id, `  ${newcomer.email.toUpperCase()} `, 'viewer');
    expect(res.status, res.body).toBe(201);
    expect(res.json.message).toBe(BOARD_MESSAGES.memberAdded);
    expect(dataOf(res).member).toEqual({
      email: newcomer.email,
      fullName: newcomer.fullName,
      role: 'viewer',
      status: 'active',
      addedAt: t.clock.now().toISOString(),
      addedBy: { fullName: admin.user.fullName, email: admin.user.email },
    });
    const events = await boardEventsOf(t, board.id, start);
    expect(events.map((e) => [e.type, e.audience, e.data.board.role, e.data.board.memberCount])).toEqual([
      ['board.added', [newcomer.email], 'viewer', 5],
      ['board.updated', [admin.user.email], 'admin', 5],
      ['board.updated', [member.user.email], 'member', 5],
      ['board.updated', [viewer.user.email], 'viewer', 5],
    ]);

    const address = uniqueEmail('nobody');
    const invited = await api.addMember(admin.cookie, board.id, address, 'admin');
    expect(invited.status).toBe(201);
    expect(invited.json.message).toBe(BOARD_MESSAGES.invited);
    expect(dataOf(invited).member).toMatchObject({ email: address, fullName: null, role: 'admin', status: 'invited' });
    const newcomerCookie = await signIn(t, newcomer);
    expect(dataOf(await api.get(newcomerCookie, board.id)).board.memberCount).toBe(6);
  });

  it('answers 409 ALREADY_MEMBER for an address on the board (active or invited), 403 to non-admins, 400 to bad input', async () => {
    const { admin, member, viewer, invited, board } = await team();
    expectFail(await api.addMember(admin.cookie, board.id, member.user.email), 409, 'ALREADY_MEMBER', BOARD_MESSAGES.alreadyMember);
    expectFail(await api.addMember(admin.cookie, board.id, invited.toUpperCase()), 409, 'ALREADY_MEMBER');
    expectFail(await api.addMember(member.cookie, board.id, uniqueEmail()), 403, 'FORBIDDEN');
    expectFail(await api.addMember(viewer.cookie, board.id, uniqueEmail()), 403, 'FORBIDDEN');
    expectFail(await api.addMember(admin.cookie, board.id, 'not-an-address'), 400, 'VALIDATION_FAILED');
    expectFail(await api.addMember(admin.cookie, board.id, uniqueEmail(), 'owner'), 400, 'VALIDATION_FAILED');
    expect(dataOf(await api.get(admin.cookie, board.id)).members).toHaveLength(4);
  });

  it(`allows ${BOARD_POLICY.maxMemberAdditionsPerHour} additions per account per hour across boards, then 429 with Retry-After`, async () => {
    const { user, cookie } = await createSignedInUser(t);
    const first = await insertBoard(t, user);
    const second = await insertBoard(t, user);
    // Refused additions do not count.
    expectFail(await api.addMember(cookie, first.id, user.email), 409, 'ALREADY_MEMBER');
    for (let i = 0; i < BOARD_POLICY.maxMemberAdditionsPerHour; i++) {
      const res = await api.addMember(cookie, i % 2 === 0 ? first.id : second.id, uniqueEmail('bulk'));
      expect(res.status, res.body).toBe(201);
    }
    t.clock.advance(MINUTE);
    const refused = await api.addMember(cookie, second.id, uniqueEmail('late'));
    expectFail(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBe(HOUR / 1000 - 60);
    expect(dataOf(await api.get(cookie, second.id)).members).toHaveLength(1 + BOARD_POLICY.maxMemberAdditionsPerHour / 2);
    // Another admin is not limited by this one.
    const other = await createSignedInUser(t);
    const theirs = await insertBoard(t, other.user);
    expect((await api.addMember(other.cookie, theirs.id, uniqueEmail())).status).toBe(201);
    t.clock.advance(HOUR);
    expect((await api.addMember(cookie, second.id, uniqueEmail('later'))).status).toBe(201);
  });

  it(`stops a board at ${BOARD_POLICY.maxMembers} members (409 LIMIT_REACHED)`, async () => {
    const { user, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, user);
    const now = t.clock.now().toISOString();
    const rows = Array.from({ length: BOARD_POLICY.maxMembers - 2 }, () => ({
      boardId: board.id, email: uniqueEmail('many'), userId: null, role: 'viewer' as const, addedAt: now, addedByName: 'x', addedByEmail: user.email,
    }));
    for (let i = 0; i < rows.length; i += 200) await t.app.db.insertInto('boardMembers').values(rows.slice(i, i + 200)).execute();
    expect((await api.addMember(cookie, board.id, uniqueEmail('last'))).status).toBe(201);
    expectFail(await api.addMember(cookie, board.id, uniqueEmail('one-too-many')), 409, 'LIMIT_REACHED', english(BOARD_MESSAGES.tooManyMembers));
    expect(dataOf(await api.get(cookie, board.id)).board.memberCount).toBe(BOARD_POLICY.maxMembers);
  });

  it(`keeps an account on at most ${BOARD_POLICY.maxSharedBoardsPerAccount} shared boards: creating or being added to one more is 409 LIMIT_REACHED`, async () => {
    const { user, cookie } = await createSignedInUser(t);
    const now = t.clock.now().toISOString();
    const boards = Array.from({ length: BOARD_POLICY.maxSharedBoardsPerAccount - 1 }, (_, i) => ({ id: newId(), name: `B${i}`, description: '', personal: 0, createdAt: now, updatedAt: now }));
    await t.app.db.insertInto('boards').values(boards).execute();
    await t.app.db
      .insertInto('boardMembers')
      .values(boards.map((b) => ({ boardId: b.id, email: user.email, userId: user.id, role: 'member' as const, addedAt: now, addedByName: 'x', addedByEmail: 'x@example.test' })))
      .execute();
    expect((await api.create(cookie, { name: 'The 200th' })).status).toBe(201);
    expectFail(await api.create(cookie, { name: 'The 201st' }), 409, 'LIMIT_REACHED', english(BOARD_MESSAGES.tooManyBoards));
    expect(dataOf(await api.list(cookie)).boards).toHaveLength(BOARD_POLICY.maxSharedBoardsPerAccount + 1);

    const other = await createSignedInUser(t);
    const theirs = await insertBoard(t, other.user);
    expectFail(await api.addMember(other.cookie, theirs.id, user.email), 409, 'LIMIT_REACHED', english(BOARD_MESSAGES.addressOnTooManyBoards));
  });
});

describe('PATCH /api/boards/:id/members/:email', () => {
  it('changes a role; the board keeps at least one active admin (409 LAST_ADMIN, nothing changed)', async () => {
    const { admin, member, viewer, invited, board } = await team();
    const start = await lastEventId(t);
    const promoted = await api.setRole(admin.cookie, board.id, member.user.email.toUpperCase(), 'admin');
    expect(promoted.status, promoted.body).toBe(200);
    expect(dataOf(promoted).member).toMatchObject({ email: member.user.email, role: 'admin', status: 'active' });
    const events = await boardEventsOf(t, board.id, start);
    expect(events.map((e) => [e.type, e.audience, e.data.board.role])).toEqual([
      ['board.updated', [admin.user.email, member.user.email].toSorted(), 'admin'],
      ['board.updated', [viewer.user.email], 'viewer'],
    ]);

    // Two admins: one may step down; then the other is the last.
    expect((await api.setRole(member.cookie, board.id, admin.user.email, 'member')).status).toBe(200);
    expectFail(await api.setRole(member.cookie, board.id, member.user.email, 'viewer'), 409, 'LAST_ADMIN', BOARD_MESSAGES.lastAdmin);
    // An invited admin does not count as an active one.
    expect((await api.setRole(member.cookie, board.id, invited, 'admin')).status).toBe(200);
    expectFail(await api.setRole(member.cookie, board.id, member.user.email, 'member'), 409, 'LAST_ADMIN');
    const members = dataOf(await api.get(member.cookie, board.id)).members;
    expect(members.map((m) => [m.email, m.role])).toEqual([
      [admin.user.email, 'member'],
      [member.user.email, 'admin'],
      [viewer.user.email, 'viewer'],
      [invited, 'admin'],
    ]);
  });

  it('answers 403 to a non-admin, 404 for an address not on the board, 400 for a bad role', async () => {
    const { admin, member, viewer, board } = await team();
    expectFail(await api.setRole(member.cookie, board.id, viewer.user.email, 'member'), 403, 'FORBIDDEN');
    expectFail(await api.setRole(viewer.cookie, board.id, viewer.user.email, 'admin'), 403, 'FORBIDDEN');
    expectFail(await api.setRole(admin.cookie, board.id, uniqueEmail(), 'member'), 404, 'NOT_FOUND', BOARD_MESSAGES.memberNotFound);
    expectFail(await api.setRole(admin.cookie, board.id, viewer.user.email, 'boss'), 400, 'VALIDATION_FAILED');
  });

  it.runIf(isPostgres)('lets only one of two admins stepping down at the same time succeed (PostgreSQL)', async () => {
    const { admin, member, board } = await team();
    expect((await api.setRole(admin.cookie, board.id, member.user.email, 'admin')).status).toBe(200);
    // The first admin's stepping down is under way and holds the board row; the other's must
    // wait for it and then see that it would leave no active admin.
    const other = await t.app.db.startTransaction().execute();
    try {
      await sql`select id from boards where id = ${board.id} for update`.execute(other);
      await sql`update board_members set role = 'member' where board_id = ${board.id} and email = ${admin.user.email}`.execute(other);
      const answer = api.setRole(member.cookie, board.id, member.user.email, 'member');
      await untilWaitingOnLock(t, '%from "boards"%for update%');
      await other.commit().execute();
      expectFail(await answer, 409, 'LAST_ADMIN');
    } finally {
      await other.rollback().execute().catch(() => undefined);
    }
    const members = dataOf(await api.get(admin.cookie, board.id)).members;
    expect(members.filter((m) => m.role === 'admin').map((m) => m.email)).toEqual([member.user.email]);
  });

  it('lets exactly one of two admins demoting each other, or both stepping down, at the same time through', async () => {
    for (let i = 0; i < 6; i++) {
      const { admin, member, board } = await team();
      expect((await api.setRole(admin.cookie, board.id, member.user.email, 'admin')).status).toBe(200);
      const mutual = i % 2 === 0;
      const answers = await Promise.all([
        api.setRole(admin.cookie, board.id, mutual ? member.user.email : admin.user.email, 'member'),
        api.setRole(member.cookie, board.id, mutual ? admin.user.email : member.user.email, 'member'),
      ]);
      // Second in line: no longer an admin (403) after a mutual demotion, or the last admin (409).
      expect(answers.map((a) => a.status).toSorted()).toEqual([200, mutual ? 403 : 409]);
      const admins = dataOf(await api.get(admin.cookie, board.id)).members.filter((m) => m.role === 'admin' && m.status === 'active');
      expect(admins).toHaveLength(1);
    }
  });
});

describe('DELETE /api/boards/:id/members/:email', () => {
  it('lets an admin remove a member: they get board.removed and lose the board, the others board.updated', async () => {
    const { admin, member, viewer, invited, board } = await team();
    const start = await lastEventId(t);
    const res = await api.removeMember(admin.cookie, board.id, member.user.email);
    expect(res.status, res.body).toBe(204);
    expectFail(await api.get(member.cookie, board.id), 404, 'NOT_FOUND');
    const events = await boardEventsOf(t, board.id, start);
    expect(events.map((e) => [e.type, e.audience, e.data.board.role, e.data.board.memberCount])).toEqual([
      ['board.removed', [member.user.email], undefined, undefined],
      ['board.updated', [admin.user.email], 'admin', 3],
      ['board.updated', [viewer.user.email], 'viewer', 3],
    ]);
    // An invitation can be withdrawn; nobody is told it was lost, the members see it go.
    const before = await lastEventId(t);
    expect((await api.removeMember(admin.cookie, board.id, invited)).status).toBe(204);
    expect((await boardEventsOf(t, board.id, before)).map((e) => e.type)).toEqual(['board.updated', 'board.updated']);
  });

  it('lets anyone leave, but not the last active admin; a non-admin cannot remove someone else', async () => {
    const { admin, member, viewer, board } = await team();
    expectFail(await api.removeMember(member.cookie, board.id, viewer.user.email), 403, 'FORBIDDEN');
    expectFail(await api.removeMember(viewer.cookie, board.id, admin.user.email), 403, 'FORBIDDEN');
    expect((await api.removeMember(viewer.cookie, board.id, viewer.user.email)).status).toBe(204);
    expectFail(await api.get(viewer.cookie, board.id), 404, 'NOT_FOUND');
    expectFail(await api.removeMember(admin.cookie, board.id, admin.user.email), 409, 'LAST_ADMIN');
    expectFail(await api.removeMember(admin.cookie, board.id, uniqueEmail()), 404, 'NOT_FOUND', BOARD_MESSAGES.memberNotFound);
    expect((await api.setRole(admin.cookie, board.id, member.user.email, 'admin')).status).toBe(200);
    expect((await api.removeMember(admin.cookie, board.id, admin.user.email)).status).toBe(204);
    expect(dataOf(await api.get(member.cookie, board.id)).members.map((m) => m.email)).toEqual([member.user.email, expect.any(String)]);
  });
});
