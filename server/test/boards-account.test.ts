import { describe, expect, it } from 'vitest';
import { PERSONAL_BOARD_NAME } from '#shared/constants.ts';
import { boardEventsOf, boardsApi, dataOf, insertBoardTask, lastEventId } from './boards-support.ts';
import { createSignedInUser, createUser, insertBoard, signIn, uniqueEmail, type TestUser } from './factories.ts';
import { MINUTE, useTestApp } from './helpers.ts';

/** What deleting an account does to its boards, and the boards in its data export. */
const t = useTestApp();
const api = boardsApi(t);

const deleteAccount = (user: TestUser, cookie: string) => t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } });
const boardExists = async (id: string) => (await t.app.db.selectFrom('boards').select('id').where('id', '=', id).execute()).length === 1;
const taskExists = async (id: string) => (await t.app.db.selectFrom('tasks').select('id').where('id', '=', id).execute()).length === 1;

describe('DELETE /api/users/me and boards', () => {
  it('hands a board whose only active admin leaves to its longest-standing active member; the others are told', async () => {
    const { user: leaver, cookie } = await createSignedInUser(t);
    const first = await createUser(t);
    const second = await createUser(t);
    // Invited before anyone else: an invitation is not an active member, so it does not inherit.
    const board = await insertBoard(t, leaver, [
      { who: uniqueEmail('invited'), role: 'member' },
      { who: first, role: 'viewer' },
      { who: second, role: 'member' },
    ]);
    const task = await insertBoardTask(t, board.id, leaver);
    const start = await lastEventId(t);
    t.clock.advance(MINUTE);

    expect((await deleteAccount(leaver, cookie)).status).toBe(204);
    const firstCookie = await signIn(t, first);
    const seen = dataOf(await api.get(firstCookie, board.id));
    expect(seen.board.role).toBe('admin');
    expect(seen.members.map((m) => [m.email, m.role, m.status])).toEqual([
      [expect.stringMatching(/^invited-/) as string, 'member', 'invited'],
      [first.email, 'admin', 'active'],
      [second.email, 'member', 'active'],
    ]);
    // The board's tasks stay with the board, the leaver's included.
    expect(await taskExists(task)).toBe(true);
    expect((await boardEventsOf(t, board.id, start)).map((e) => [e.type, e.audience, e.data.board.role, e.data.board.memberCount])).toEqual([
      ['board.updated', [first.email], 'admin', 3],
      ['board.updated', [second.email], 'member', 3],
    ]);
  });

  it('leaves a board with another active admin as it is, but for the membership', async () => {
    const { user: leaver, cookie } = await createSignedInUser(t);
    const otherAdmin = await createUser(t);
    const member = await createUser(t);
    const board = await insertBoard(t, leaver, [
      { who: member, role: 'member' },
      { who: otherAdmin, role: 'admin' },
    ]);
    expect((await deleteAccount(leaver, cookie)).status).toBe(204);
    const rows = await t.app.db.selectFrom('boardMembers').select(['email', 'role']).where('boardId', '=', board.id).orderBy('addedAt').execute();
    expect(rows).toEqual([
      { email: member.email, role: 'member' },
      { email: otherAdmin.email, role: 'admin' },
    ]);
  });

  it('deletes a shared board with no other active member, with its tasks; an assignee outside it is told the task went', async () => {
    const { user: leaver, cookie } = await createSignedInUser(t);
    const outsider = await createUser(t);
    const board = await insertBoard(t, leaver, [{ who: uniqueEmail('invited'), role: 'admin' }]);
    const own = await insertBoardTask(t, board.id, leaver);
    const forOutsider = await insertBoardTask(t, board.id, leaver, { assigneeEmail: outsider.email });
    expect((await deleteAccount(leaver, cookie)).status).toBe(204);
    expect(await boardExists(board.id)).toBe(false);
    expect(await taskExists(own)).toBe(false);
    expect(await taskExists(forOutsider)).toBe(false);
    expect(await t.app.db.selectFrom('boardMembers').select('email').where('boardId', '=', board.id).execute()).toEqual([]);
    expect((await boardEventsOf(t, board.id)).map((e) => [e.type, e.audience, e.subjectId])).toEqual([['task.deleted', [outsider.email], forOutsider]]);
  });

  it('deletes the personal board with the tasks assigned to the person, unless tasks on it are assigned to someone else', async () => {
    const alone = await createSignedInUser(t);
    const mine = await insertBoardTask(t, alone.user.id, alone.user);
    expect((await deleteAccount(alone.user, alone.cookie)).status).toBe(204);
    expect(await boardExists(alone.user.id)).toBe(false);
    expect(await taskExists(mine)).toBe(false);

    const giver = await createSignedInUser(t);
    const colleague = await createSignedInUser(t);
    const own = await insertBoardTask(t, giver.user.id, giver.user);
    const given = await insertBoardTask(t, giver.user.id, giver.user, { assigneeEmail: colleague.user.email });
    expect((await deleteAccount(giver.user, giver.cookie)).status).toBe(204);
    expect(await taskExists(own)).toBe(false);
    expect(await taskExists(given)).toBe(true);
    // The board stays, without members, for the task the colleague still sees.
    expect(await boardExists(giver.user.id)).toBe(true);
    expect(await t.app.db.selectFrom('boardMembers').select('email').where('boardId', '=', giver.user.id).execute()).toEqual([]);
  });

  it('drops every membership of the account', async () => {
    const { user: leaver, cookie } = await createSignedInUser(t);
    const admin = await createUser(t);
    await insertBoard(t, admin, [{ who: leaver, role: 'viewer' }]);
    await insertBoard(t, admin, [{ who: leaver, role: 'admin' }]);
    expect((await deleteAccount(leaver, cookie)).status).toBe(204);
    expect(await t.app.db.selectFrom('boardMembers').select('boardId').where('email', '=', leaver.email).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('boardMembers').select('boardId').where('userId', '=', leaver.id).execute()).toEqual([]);
  });
});

describe('GET /api/users/me/export and boards', () => {
  it('lists the boards the person is on, with their role', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const admin = await createUser(t);
    const viewed = await insertBoard(t, admin, [{ who: user, role: 'viewer' }], 'Viewed board');
    const created = dataOf(await api.create(cookie, { name: 'Created board' })).board;
    await insertBoard(t, admin, [], 'Not mine');
    const res = await t.request('GET', '/api/users/me/export', { cookie });
    expect(res.status).toBe(200);
    const data = JSON.parse(res.body) as { boards: unknown[] };
    expect(data.boards).toEqual([
      { _id: user.id, name: PERSONAL_BOARD_NAME, personal: true, role: 'admin' },
      { _id: created._id, name: 'Created board', personal: false, role: 'admin' },
      { _id: viewed.id, name: 'Viewed board', personal: false, role: 'viewer' },
    ]);
  });
});
