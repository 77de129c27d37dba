import { describe, expect, it } from 'vitest';
import { boardsApi, dataOf } from './boards-support.ts';
import { createSignedInUser, createTask, insertBoard, uniqueEmail } from './factories.ts';
import { anyString, HOUR, useTestApp } from './helpers.ts';
import { notificationsApi, storedOf } from './notifications-support.ts';

/**
 * Who is told what in the app: every type, each to the right people, never for one's own action,
 * written by the change that causes it (or not at all when the change fails).
 */
const t = useTestApp();
const api = notificationsApi(t);
const boards = boardsApi(t);

const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });
const comment = (cookie: string, taskId: string, body: string) => t.request('POST', `/api/tasks/${taskId}/comments`, { cookie, body: { body } });
const isoIn = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const person = (u: { fullName: string; email: string }) => ({ fullName: u.fullName, email: u.email });

describe('assigned', () => {
  it('tells a new assignee with an account, on create and on reassignment, never the one who assigns themself', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createSignedInUser(t, { fullName: 'Bob Builder' });
    const cat = await createSignedInUser(t, { fullName: 'Cat Stevens' });
    const task = await createTask(t, ada.cookie, { taskTitle: 'Pay the rent', assignee: bob.user.email });
    expect(await api.inbox(bob.cookie)).toEqual({
      notifications: [
        {
          _id: anyString,
          type: 'assigned',
          text: 'Ada Lovelace assigned you \u201cPay the rent\u201d',
          task: { _id: task._id, taskTitle: 'Pay the rent' },
          // Every task is on a board: here Ada's personal one.
          board: { _id: task.boardId, name: 'Personal' },
          by: person(ada.user),
          at: t.clock.now().toISOString(),
          readAt: null,
        },
      ],
      unreadCount: 1,
      nextCursor: null,
    });

    // Assigning oneself, an address without an account, or changing something else: nobody is told.
    await createTask(t, ada.cookie, { assignee: ada.user.email });
    await createTask(t, ada.cookie, { assignee: uniqueEmail('nobody') });
    expect((await patch(ada.cookie, task._id, { priority: 'high' })).status).toBe(200);
    expect(await storedOf(t, ada.user)).toEqual([]);
    expect(await storedOf(t, bob.user)).toHaveLength(1);

    expect((await patch(ada.cookie, task._id, { assignee: cat.user.email })).status).toBe(200);
    expect(await storedOf(t, cat.user)).toEqual([{ type: 'assigned', text: 'Ada Lovelace assigned you \u201cPay the rent\u201d' }]);
    // The assignee hands it back to the creator.
    expect((await patch(cat.cookie, task._id, { assignee: ada.user.email })).status).toBe(200);
    expect(await storedOf(t, ada.user)).toEqual([{ type: 'assigned', text: 'Cat Stevens assigned you \u201cPay the rent\u201d' }]);
    expect(await storedOf(t, cat.user)).toHaveLength(1);
  });

  it('is not written when the change fails (a stale version answers 409)', async () => {
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const task = await createTask(t, ada.cookie);
    expect((await patch(ada.cookie, task._id, { priority: 'high', version: 1 })).status).toBe(200);
    const stale = await patch(ada.cookie, task._id, { assignee: bob.user.email, version: 1 });
    expect(stale.status).toBe(409);
    expect(await storedOf(t, bob.user)).toEqual([]);
    const events = await t.app.db.selectFrom('events').select('id').where('type', '=', 'notification.created').where('audience', '=', JSON.stringify([bob.user.email])).execute();
    expect(events).toEqual([]);
  });
});

describe('completed', () => {
  it('tells the creator when someone else completes their task, and only while the creator sees it', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createSignedInUser(t, { fullName: 'Bob Builder' });
    const task = await createTask(t, ada.cookie, { taskTitle: 'Fix the roof', assignee: bob.user.email });
    expect((await patch(bob.cookie, task._id, { status: 'done' })).status).toBe(200);
    expect(await storedOf(t, ada.user)).toEqual([{ type: 'completed', text: 'Bob Builder completed \u201cFix the roof\u201d' }]);

    // Completing one's own task, or one assigned to someone else, tells nobody.
    const own = await createTask(t, ada.cookie, { assignee: ada.user.email });
    expect((await patch(ada.cookie, own._id, { status: 'done' })).status).toBe(200);
    const forBob = await createTask(t, ada.cookie, { assignee: bob.user.email });
    expect((await patch(ada.cookie, forBob._id, { status: 'done' })).status).toBe(200);
    expect(await storedOf(t, ada.user)).toHaveLength(1);
    expect((await storedOf(t, bob.user)).map((n) => n.type)).toEqual(['assigned', 'assigned']);

    // A creator who has left the task's board no longer sees it, so is not told.
    const cat = await createSignedInUser(t, { fullName: 'Cat Stevens' });
    const board = await insertBoard(t, cat.user, [{ who: ada.user, role: 'member' }, { who: bob.user, role: 'member' }]);
    const boardTask = await createTask(t, ada.cookie, { boardId: board.id, assignee: bob.user.email });
    expect((await boards.removeMember(cat.cookie, board.id, ada.user.email)).status).toBe(204);
    expect((await patch(bob.cookie, boardTask._id, { status: 'done' })).status).toBe(200);
    expect(await storedOf(t, ada.user)).toHaveLength(1);
  });
});

describe('commented and mentioned', () => {
  it('tells the creator and the assignee of a comment, except its author; a mentioned person is told `mentioned` only', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createSignedInUser(t, { fullName: 'Bob Builder' });
    const cat = await createSignedInUser(t, { fullName: 'Cat Stevens' });
    const dan = await createSignedInUser(t, { fullName: 'Dan Outsider' });
    const board = await insertBoard(t, ada.user, [{ who: bob.user, role: 'member' }, { who: cat.user, role: 'member' }]);
    const task = await createTask(t, ada.cookie, { boardId: board.id, taskTitle: 'Paint the fence', assignee: bob.user.email });
    const title = '\u201cPaint the fence\u201d';
    // Newest first is by time: each step a second later.
    const later = () => {
      t.clock.advance(1000);
    };

    later();
    const first = await comment(cat.cookie, task._id, `Looks good, @${ada.user.email}`);
    expect(first.status).toBe(201);
    expect(await storedOf(t, ada.user)).toEqual([{ type: 'mentioned', text: `Cat Stevens mentioned you in a comment on ${title}` }]);
    expect((await storedOf(t, bob.user))[0]).toEqual({ type: 'commented', text: `Cat Stevens commented on ${title}` });
    expect(await storedOf(t, cat.user)).toEqual([]);

    later();
    expect((await comment(bob.cookie, task._id, 'Done by Friday')).status).toBe(201);
    expect((await storedOf(t, ada.user))[0]).toEqual({ type: 'commented', text: `Bob Builder commented on ${title}` });
    expect((await storedOf(t, bob.user)).map((n) => n.type)).toEqual(['commented', 'assigned']);

    // An edit tells only the newly mentioned; someone who cannot see the task is never told.
    later();
    const commentId = (first.json as unknown as { data: { comment: { _id: string } } }).data.comment._id;
    const edited = await t.request('PATCH', `/api/tasks/${task._id}/comments/${commentId}`, {
      cookie: cat.cookie,
      body: { body: `Looks good, @${ada.user.email} and @${bob.user.email} and @${dan.user.email}` },
    });
    expect(edited.status).toBe(200);
    expect((await storedOf(t, bob.user))[0]).toEqual({ type: 'mentioned', text: `Cat Stevens mentioned you in a comment on ${title}` });
    expect(await storedOf(t, ada.user)).toHaveLength(2);
    expect(await storedOf(t, dan.user)).toEqual([]);
  });
});

describe('due_soon and overdue', () => {
  it('tell the assignee and the creator (once when they are the same person), with nobody as `by`', async () => {
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const task = await createTask(t, ada.cookie, { taskTitle: 'File the report', assignee: bob.user.email, deadline: isoIn(30 * HOUR) });
    await createTask(t, ada.cookie, { taskTitle: 'Own task', assignee: ada.user.email, deadline: isoIn(30 * HOUR) });
    const tick = async (ms: number) => {
      t.clock.advance(ms);
      await t.app.taskMail.scanReminders();
    };
    await tick(5 * HOUR);
    expect(await storedOf(t, ada.user)).toEqual([]);
    await tick(HOUR);
    const soon = (await api.inbox(bob.cookie)).notifications[0];
    expect(soon).toMatchObject({ type: 'due_soon', text: '\u201cFile the report\u201d is due within 24 hours', by: null, task: { _id: task._id } });
    expect((await storedOf(t, ada.user)).map((n) => n.text).toSorted()).toEqual([
      '\u201cFile the report\u201d is due within 24 hours',
      '\u201cOwn task\u201d is due within 24 hours',
    ]);
    await tick(24 * HOUR);
    await tick(HOUR);
    expect((await storedOf(t, bob.user)).map((n) => n.type)).toEqual(['overdue', 'due_soon', 'assigned']);
    expect((await storedOf(t, ada.user)).filter((n) => n.type === 'overdue')).toHaveLength(2);
  });
});

describe('board_added', () => {
  it('tells a person with an account whom someone else adds to a board', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createSignedInUser(t);
    const created = await boards.create(ada.cookie, { name: 'Garden', description: '' });
    const board = dataOf(created).board;
    expect((await boards.addMember(ada.cookie, board._id, bob.user.email)).status).toBe(201);
    expect((await boards.addMember(ada.cookie, board._id, uniqueEmail('invited'))).status).toBe(201);
    expect((await api.inbox(bob.cookie)).notifications).toEqual([
      expect.objectContaining({
        type: 'board_added',
        text: 'Ada Lovelace added you to the board \u201cGarden\u201d',
        task: null,
        board: { _id: board._id, name: 'Garden' },
        by: person(ada.user),
      }),
    ]);
    expect(await storedOf(t, ada.user)).toEqual([]);
  });
});

describe('the board of a task\'s notification', () => {
  /** The `notification` of every `notification.created` event to `user`, oldest first. */
  const announced = async (user: { email: string }) => {
    const rows = await t.app.db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'notification.created')
      .where('audience', '=', JSON.stringify([user.email]))
      .orderBy('id')
      .execute();
    return rows.map((row) => (JSON.parse(row.payload) as { notification: { type: string; board: unknown } }).notification);
  };

  it('names the shared board of the task in the inbox and in the live event: assigned, mentioned, commented, completed, due_soon', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createSignedInUser(t, { fullName: 'Bob Builder' });
    const cat = await createSignedInUser(t, { fullName: 'Cat Stevens' });
    const board = await insertBoard(t, ada.user, [{ who: bob.user, role: 'member' }, { who: cat.user, role: 'member' }], 'Garden');
    const named = { _id: board.id, name: 'Garden' };
    const task = await createTask(t, ada.cookie, { boardId: board.id, taskTitle: 'Mow the lawn', assignee: bob.user.email, deadline: isoIn(30 * HOUR) });
    t.clock.advance(1000);
    expect((await comment(cat.cookie, task._id, `Sharpen the blades first, @${bob.user.email}`)).status).toBe(201);
    t.clock.advance(1000);
    expect((await patch(bob.cookie, task._id, { status: 'done' })).status).toBe(200);
    t.clock.advance(6 * HOUR);
    // Reopened so the reminder scan still finds it due soon.
    expect((await patch(ada.cookie, task._id, { status: 'todo' })).status).toBe(200);
    await t.app.taskMail.scanReminders();

    const bobs = (await api.inbox(bob.cookie)).notifications;
    expect(bobs.map((n) => [n.type, n.board])).toEqual([
      ['due_soon', named],
      ['mentioned', named],
      ['assigned', named],
    ]);
    const adas = (await api.inbox(ada.cookie)).notifications;
    expect(adas.map((n) => [n.type, n.board])).toEqual([
      ['due_soon', named],
      ['completed', named],
      ['commented', named],
    ]);
    expect((await announced(bob.user)).map((n) => [n.type, n.board])).toEqual([
      ['assigned', named],
      ['mentioned', named],
      ['due_soon', named],
    ]);
    expect((await announced(ada.user)).map((n) => [n.type, n.board])).toEqual([
      ['commented', named],
      ['completed', named],
      ['due_soon', named],
    ]);
  });

  it('names the board the task is on after the write that causes it (a move that reassigns)', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createSignedInUser(t, { fullName: 'Bob Builder' });
    const garden = await insertBoard(t, ada.user, [{ who: bob.user, role: 'member' }], 'Garden');
    const task = await createTask(t, ada.cookie, { taskTitle: 'Plant roses', assignee: ada.user.email });
    expect((await patch(ada.cookie, task._id, { boardId: garden.id, assignee: bob.user.email })).status).toBe(200);
    const [assigned] = (await api.inbox(bob.cookie)).notifications;
    expect(assigned).toMatchObject({ type: 'assigned', board: { _id: garden.id, name: 'Garden' } });
    expect((await announced(bob.user)).map((n) => n.board)).toEqual([{ _id: garden.id, name: 'Garden' }]);
  });
});
