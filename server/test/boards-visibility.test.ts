import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { BoardNamesEnvelope, BoardNamesListEnvelope } from '#shared/schemas/boards.ts';
import { createSignedInUser, createTask, insertBoard, uniqueEmail } from './factories.ts';
import { useTestApp } from './helpers.ts';

const t = useTestApp();

/** A shared board with an admin, a member, a viewer, an invited address and a stranger, each signed in. */
async function team() {
  const [admin, member, viewer, stranger] = await Promise.all([1, 2, 3, 4].map(() => createSignedInUser(t)));
  if (admin === undefined || member === undefined || viewer === undefined || stranger === undefined) throw new Error('unreachable');
  const board = await insertBoard(t, admin.user, [
    { who: member.user, role: 'member' },
    { who: viewer.user, role: 'viewer' },
    { who: uniqueEmail('invited'), role: 'member' },
  ]);
  return { admin, member, viewer, stranger, board };
}

const ids = (tasks: { _id: string }[]) => tasks.map((task) => task._id).sort();

describe('who sees a board’s tasks', () => {
  it('every active member, whatever their role, sees all of the board’s tasks, in lists, counts, single reads, comments and activity', async () => {
    const { admin, member, viewer, board } = await team();
    const a = await createTask(t, admin.cookie, { boardId: board.id });
    const b = await createTask(t, member.cookie, { boardId: board.id });
    for (const who of [admin, member, viewer]) {
      const all = await t.request('GET', '/api/tasks', { cookie: who.cookie });
      expect(ids(all.json.data.tasks.filter((task) => task.boardId === board.id))).toEqual(ids([a, b]));
      const onBoard = await t.request('GET', `/api/tasks?board=${board.id}&limit=50`, { cookie: who.cookie });
      expect(ids(onBoard.json.data.tasks)).toEqual(ids([a, b]));
      const counts = await t.request('GET', `/api/tasks/counts?board=${board.id}`, { cookie: who.cookie });
      const { columns, ...byStatus } = counts.json.data.counts;
      expect(byStatus).toEqual({ todo: 2, done: 0, overdue: 0 });
      // The board's two columns: both tasks in its todo one.
      expect(columns?.[a.columnId]).toBe(2);
      expect(Object.values(columns ?? {}).toSorted()).toEqual([0, 2]);
      for (const path of [`/api/tasks/${a._id}`, `/api/tasks/${a._id}/comments`, `/api/tasks/${a._id}/activity`]) {
        expect((await t.request('GET', path, { cookie: who.cookie })).status, path).toBe(200);
      }
    }
  });

  it('anyone else gets 404 on every task route, like a missing id; board= and counts of the board answer 404 too', async () => {
    const { admin, stranger, board } = await team();
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    const cookie = stranger.cookie;
    const answers = [
      await t.request('GET', `/api/tasks/${task._id}`, { cookie }),
      await t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body: { taskTitle: 'Mine now' } }),
      await t.request('DELETE', `/api/tasks/${task._id}`, { cookie }),
      await t.request('GET', `/api/tasks/${task._id}/comments`, { cookie }),
      await t.request('POST', `/api/tasks/${task._id}/comments`, { cookie, body: { body: 'Hello' } }),
      await t.request('GET', `/api/tasks/${task._id}/activity`, { cookie }),
      await t.request('GET', `/api/tasks?board=${board.id}`, { cookie }),
      await t.request('GET', `/api/tasks/counts?board=${board.id}`, { cookie }),
      await t.request('GET', '/api/tasks?board=not-an-id', { cookie }),
    ];
    for (const res of answers) {
      expect(res.status, res.body).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
    const all = await t.request('GET', '/api/tasks', { cookie });
    expect(all.json.data.tasks).toEqual([]);
    const counts = await t.request('GET', '/api/tasks/counts', { cookie });
    expect(counts.json.data.counts).toEqual({ todo: 0, done: 0, overdue: 0 });
    const found = await t.request('GET', '/api/tasks?q=Task&limit=10', { cookie });
    expect(found.json.data.tasks).toEqual([]);
    expect((await t.request('GET', `/api/tasks/${task._id}`, { cookie: admin.cookie })).json.data.task.taskTitle).toBe(task.taskTitle);
  });

  it('a removed member stops seeing the board’s tasks, even those they created', async () => {
    const { member, board } = await team();
    const task = await createTask(t, member.cookie, { boardId: board.id });
    await t.app.db.deleteFrom('boardMembers').where('boardId', '=', board.id).where('userId', '=', member.user.id).execute();
    expect((await t.request('GET', `/api/tasks/${task._id}`, { cookie: member.cookie })).status).toBe(404);
    expect((await t.request('GET', '/api/tasks', { cookie: member.cookie })).json.data.tasks).toEqual([]);
    expect((await t.request('GET', '/api/tasks?view=created-by-me&limit=20', { cookie: member.cookie })).json.data.tasks).toEqual([]);
    expect((await t.request('GET', '/api/tasks/counts?view=created-by-me', { cookie: member.cookie })).json.data.counts.todo).toBe(0);
  });

  it('an invited membership (no account linked yet) shows nothing to an account of another address', async () => {
    const { admin } = await team();
    const other = await createSignedInUser(t);
    const board = await insertBoard(t, admin.user, [{ who: other.user.email.replace('@', '+x@'), role: 'admin' }]);
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    expect((await t.request('GET', `/api/tasks/${task._id}`, { cookie: other.cookie })).status).toBe(404);
    expect((await t.request('GET', `/api/tasks?board=${board.id}`, { cookie: other.cookie })).status).toBe(404);
  });

  it('the assignee sees a task on a board they are not on, and nothing else of that board', async () => {
    const { admin, stranger, board } = await team();
    const theirs = await createTask(t, admin.cookie, { boardId: board.id, assignee: stranger.user.email });
    await createTask(t, admin.cookie, { boardId: board.id });
    for (const path of ['/api/tasks', '/api/tasks?limit=1', '/api/tasks?limit=10&sort=deadline', '/api/tasks?view=assigned-to-me&limit=10']) {
      expect(ids((await t.request('GET', path, { cookie: stranger.cookie })).json.data.tasks), path).toEqual([theirs._id]);
    }
    expect((await t.request('GET', '/api/tasks/counts', { cookie: stranger.cookie })).json.data.counts.todo).toBe(1);
    expect((await t.request('GET', `/api/tasks?board=${board.id}`, { cookie: stranger.cookie })).status).toBe(404);
  });

  it('the assignee of a task on a board they are not on may read its name and its columns’ names, nothing more; others get 404', async () => {
    const { admin, member, stranger, board } = await team();
    const path = `/api/boards/${board.id}/names`;
    expect((await t.request('GET', path, { cookie: stranger.cookie })).status).toBe(404);
    const theirs = await createTask(t, admin.cookie, { boardId: board.id, assignee: stranger.user.email });

    const res = await t.request('GET', path, { cookie: stranger.cookie });
    expect(res.status, res.body).toBe(200);
    const names = (res.json as unknown as { data: { board: { _id: string; name: string; columns: { _id: string; name: string; category: string }[] } } }).data.board;
    expect(Object.keys(names).toSorted()).toEqual(['_id', 'columns', 'name']);
    expect(names).toMatchObject({ _id: board.id, name: board.name });
    expect(names.columns).toEqual([
      { _id: theirs.columnId, name: 'Tasks To Do', category: 'todo' },
      { _id: expect.any(String) as string, name: 'Completed', category: 'done' },
    ]);
    // A member reads the same; the board itself stays closed to the assignee.
    expect((await t.request('GET', path, { cookie: member.cookie })).json).toEqual(res.json);
    expect((await t.request('GET', `/api/boards/${board.id}`, { cookie: stranger.cookie })).status).toBe(404);
    // Once the task is someone else's, the names close again; so do missing and malformed ids.
    await t.request('PATCH', `/api/tasks/${theirs._id}`, { cookie: admin.cookie, body: { assignee: member.user.email } });
    for (const closed of [path, '/api/boards/AAAAAAAAAAAAAAAAAAAAAA/names', '/api/boards/not%20an%20id/names']) {
      const answer = await t.request('GET', closed, { cookie: stranger.cookie });
      expect(answer.status, closed).toBe(404);
      expect(answer.json.code).toBe('NOT_FOUND');
    }
  });

  it('names several boards in one request: those the viewer is on or holds a task of, in the order asked, the rest left out', async () => {
    const { admin, member, stranger, board } = await team();
    const other = await insertBoard(t, admin.user, []);
    const closed = await insertBoard(t, admin.user, []);
    await createTask(t, admin.cookie, { boardId: board.id, assignee: stranger.user.email });
    await createTask(t, admin.cookie, { boardId: other.id, assignee: stranger.user.email });
    await createTask(t, admin.cookie, { boardId: closed.id, assignee: member.user.email });
    const single = async (id: string) => ((await t.request('GET', `/api/boards/${id}/names`, { cookie: stranger.cookie })).json as unknown as BoardNamesEnvelope).data.board;
    const named = (res: { json: unknown }) => (res.json as BoardNamesListEnvelope).data.boards;

    const ids = [other.id, 'AAAAAAAAAAAAAAAAAAAAAA', closed.id, board.id, 'not an id', other.id];
    const res = await t.request('GET', `/api/boards/names?ids=${ids.map(encodeURIComponent).join(',')}`, { cookie: stranger.cookie });
    expect(res.status, res.body).toBe(200);
    // Each board as the one-board call answers it, once, in the order asked.
    expect(named(res)).toEqual([await single(other.id), await single(board.id)]);
    // Another person: a board they hold a task of, a board they are on, a board they have nothing of.
    const asMember = await t.request('GET', `/api/boards/names?ids=${closed.id},${board.id},${other.id}`, { cookie: member.cookie });
    expect(named(asMember).map((b) => b._id)).toEqual([closed.id, board.id]);

    // Signed in only; 1 to 50 ids, none empty.
    expect((await t.request('GET', `/api/boards/names?ids=${board.id}`)).status).toBe(401);
    const tooMany = Array.from({ length: 51 }, () => board.id).join(',');
    for (const query of ['', '?ids=', `?ids=${board.id},`, `?ids=,${board.id}`, `?ids=${board.id},,${other.id}`, `?ids=${tooMany}`]) {
      const refused = await t.request('GET', `/api/boards/names${query}`, { cookie: stranger.cookie });
      expect(refused.status, query).toBe(400);
      expect(refused.json.code, query).toBe('VALIDATION_FAILED');
    }
    const fifty = Array.from({ length: 50 }, () => board.id).join(',');
    expect(named(await t.request('GET', `/api/boards/names?ids=${fifty}`, { cookie: stranger.cookie }))).toHaveLength(1);
  });

  it('a task on my board assigned to me is listed once, and pages of "all my tasks" walk every visible task once', async () => {
    const { admin, member, board } = await team();
    const other = await insertBoard(t, admin.user, [{ who: member.user, role: 'viewer' }]);
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createTask(t, admin.cookie, { boardId: board.id, ...(i % 2 === 0 ? { assignee: member.user.email } : {}) }));
    for (let i = 0; i < 3; i++) made.push(await createTask(t, admin.cookie, { boardId: other.id }));
    made.push(await createTask(t, member.cookie, {}));
    const hidden = await insertBoard(t, admin.user);
    made.push(await createTask(t, admin.cookie, { boardId: hidden.id, assignee: member.user.email }));
    await createTask(t, admin.cookie, { boardId: hidden.id });
    for (const sort of ['newest', 'deadline', 'priority']) {
      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; page < 20; page++) {
        const res = await t.request('GET', `/api/tasks?limit=2&sort=${sort}${cursor === '' ? '' : `&cursor=${cursor}`}`, { cookie: member.cookie });
        seen.push(...res.json.data.tasks.map((task) => task._id));
        if (res.json.data.nextCursor === null) break;
        cursor = res.json.data.nextCursor;
      }
      expect(seen.sort(), sort).toEqual(ids(made));
    }
    expect(ids((await t.request('GET', '/api/tasks', { cookie: member.cookie })).json.data.tasks)).toEqual(ids(made));
    expect((await t.request('GET', '/api/tasks/counts', { cookie: member.cookie })).json.data.counts.todo).toBe(made.length);
  });

  it('view=created-by-me is what I created among what I see; board= narrows every view to that board', async () => {
    const { admin, member, board } = await team();
    const mineOnBoard = await createTask(t, member.cookie, { boardId: board.id });
    const minePersonal = await createTask(t, member.cookie, {});
    await createTask(t, admin.cookie, { boardId: board.id });
    const assigned = await createTask(t, admin.cookie, { boardId: board.id, assignee: member.user.email });
    const hidden = await insertBoard(t, member.user);
    const gone = await createTask(t, member.cookie, { boardId: hidden.id });
    await t.app.db.deleteFrom('boardMembers').where('boardId', '=', hidden.id).where('userId', '=', member.user.id).execute();
    const list = async (query: string) => ids((await t.request('GET', `/api/tasks?${query}`, { cookie: member.cookie })).json.data.tasks);
    expect(await list('view=created-by-me')).toEqual(ids([mineOnBoard, minePersonal]));
    expect(await list('view=created-by-me&limit=1&sort=deadline')).toHaveLength(1);
    expect(await list(`view=created-by-me&board=${board.id}`)).toEqual([mineOnBoard._id]);
    expect(await list(`view=assigned-to-me&board=${board.id}`)).toEqual([assigned._id]);
    expect(await list(`board=${member.user.id}`)).toEqual([minePersonal._id]);
    expect(await list('view=created-by-me')).not.toContain(gone._id);
    const counts = await t.request('GET', `/api/tasks/counts?board=${board.id}&view=created-by-me`, { cookie: member.cookie });
    expect(counts.json.data.counts.todo).toBe(1);
  });
});

describe('what each role may change', () => {
  it('a viewer gets 403 FORBIDDEN on edit, complete, delete and create, but may comment; nothing changes', async () => {
    const { admin, viewer, board } = await team();
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    const cookie = viewer.cookie;
    const refused = [
      await t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body: { taskTitle: 'Changed' } }),
      await t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body: { status: 'done' } }),
      await t.request('DELETE', `/api/tasks/${task._id}`, { cookie }),
      await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'New', assignee: uniqueEmail(), boardId: board.id } }),
    ];
    for (const res of refused) {
      expect(res.status, res.body).toBe(403);
      expect(res.json).toMatchObject({ code: 'FORBIDDEN', message: SERVER_MESSAGES.viewerCannotChangeTasks });
    }
    const comment = await t.request('POST', `/api/tasks/${task._id}/comments`, { cookie, body: { body: 'Looks good' } });
    expect(comment.status).toBe(201);
    const now = (await t.request('GET', `/api/tasks/${task._id}`, { cookie: admin.cookie })).json.data.task;
    expect(now).toMatchObject({ taskTitle: task.taskTitle, status: 'todo', version: 1 });
    expect((await t.request('GET', `/api/tasks?board=${board.id}`, { cookie: admin.cookie })).json.results).toBe(1);
  });

  it('a member edits, completes, reopens and deletes any task of the board', async () => {
    const { admin, member, board } = await team();
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    const path = `/api/tasks/${task._id}`;
    expect((await t.request('PATCH', path, { cookie: member.cookie, body: { taskTitle: 'Renamed' } })).status).toBe(200);
    expect((await t.request('PATCH', path, { cookie: member.cookie, body: { status: 'done' } })).status).toBe(200);
    expect((await t.request('PATCH', path, { cookie: member.cookie, body: { status: 'todo' } })).status).toBe(200);
    expect((await t.request('DELETE', path, { cookie: member.cookie })).status).toBe(204);
  });

  it('the assignee may edit, complete, reopen, comment on and delete the task whatever their role, even with none', async () => {
    const { admin, viewer, stranger, board } = await team();
    for (const who of [viewer, stranger]) {
      const task = await createTask(t, admin.cookie, { boardId: board.id, assignee: who.user.email });
      const path = `/api/tasks/${task._id}`;
      expect((await t.request('PATCH', path, { cookie: who.cookie, body: { taskTitle: 'Mine to do' } })).status).toBe(200);
      expect((await t.request('PATCH', path, { cookie: who.cookie, body: { status: 'done' } })).status).toBe(200);
      expect((await t.request('PATCH', path, { cookie: who.cookie, body: { status: 'todo' } })).status).toBe(200);
      expect((await t.request('POST', `${path}/comments`, { cookie: who.cookie, body: { body: 'On it' } })).status).toBe(201);
      expect((await t.request('DELETE', path, { cookie: who.cookie })).status).toBe(204);
    }
  });

  it('the original client’s whole-task PATCH without boardId keeps working, and 409 still answers a stale version', async () => {
    const { member, board } = await team();
    const task = await createTask(t, member.cookie, { boardId: board.id });
    // The whole task as the original client sends it back: everything but the board.
    const whole = Object.fromEntries(Object.entries(task).filter(([key]) => key !== 'boardId' && key !== 'version'));
    const res = await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: member.cookie, body: { ...whole, status: 'done' } });
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task).toMatchObject({ status: 'done', boardId: board.id });
    const stale = await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: member.cookie, body: { taskTitle: 'Late', version: 1 } });
    expect(stale.status).toBe(409);
  });
});

describe('POST /api/tasks boardId', () => {
  it('creates on a board where I am admin or member; default: my personal board', async () => {
    const { admin, member, board } = await team();
    for (const who of [admin, member]) {
      const res = await t.request('POST', '/api/tasks', { cookie: who.cookie, body: { taskTitle: 'On the board', assignee: uniqueEmail(), boardId: board.id } });
      expect(res.status, res.body).toBe(201);
      expect(res.json.data.task.boardId).toBe(board.id);
    }
    const personal = await createTask(t, member.cookie);
    expect(personal.boardId).toBe(member.user.id);
  });

  it('404 NOT_FOUND for a board I am not on, one that does not exist, someone else’s personal board or a malformed id; nothing is stored', async () => {
    const { admin, stranger, board } = await team();
    for (const boardId of [board.id, 'AAAAAAAAAAAAAAAAAAAAAA', admin.user.id, 'no such board']) {
      const res = await t.request('POST', '/api/tasks', { cookie: stranger.cookie, body: { taskTitle: 'Sneaky', assignee: stranger.user.email, boardId } });
      expect(res.status, boardId).toBe(404);
      expect(res.json).toMatchObject({ code: 'NOT_FOUND', message: SERVER_MESSAGES.taskBoardNotFound });
    }
    expect((await t.request('GET', '/api/tasks', { cookie: stranger.cookie })).json.data.tasks).toEqual([]);
    expect(await t.app.db.selectFrom('tasks').select('id').where('taskTitle', '=', 'Sneaky').execute()).toEqual([]);
  });
});

describe('PATCH /api/tasks/:id boardId (moving a task)', () => {
  async function twoBoards() {
    const crew = await team();
    const target = await insertBoard(t, crew.admin.user, [
      { who: crew.member.user, role: 'member' },
      { who: crew.viewer.user, role: 'viewer' },
    ], 'Target board');
    return { ...crew, target };
  }
  const move = (cookie: string, id: string, boardId: string) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body: { boardId } });

  it('moves with edit rights on the task and admin or member on the target; the activity names both boards', async () => {
    const { member, board, target } = await twoBoards();
    const task = await createTask(t, member.cookie, { boardId: board.id });
    const res = await move(member.cookie, task._id, target.id);
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task).toMatchObject({ boardId: target.id, version: 2 });
    const activity = await t.request('GET', `/api/tasks/${task._id}/activity`, { cookie: member.cookie });
    const entries = (activity.json.data as unknown as { activity: { type: string; changes?: Record<string, unknown> }[] }).activity;
    expect(entries.at(-1)).toMatchObject({ type: 'updated', changes: { board: { from: board.name, to: target.name } } });
    expect((await t.request('GET', `/api/tasks?board=${target.id}`, { cookie: member.cookie })).json.data.tasks.map((x) => x._id)).toEqual([task._id]);
    expect((await t.request('GET', `/api/tasks?board=${board.id}`, { cookie: member.cookie })).json.data.tasks).toEqual([]);
  });

  it('moving to the board it is on changes nothing', async () => {
    const { member, board } = await twoBoards();
    const task = await createTask(t, member.cookie, { boardId: board.id });
    const res = await move(member.cookie, task._id, board.id);
    expect(res.status).toBe(200);
    expect(res.json.data.task.version).toBe(1);
  });

  it('403 as a viewer of the target, 404 for a target I am not on; 403 for a viewer of the task’s board; nothing moves', async () => {
    const { admin, member, viewer, stranger, board, target } = await twoBoards();
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    const elsewhere = await insertBoard(t, admin.user, [{ who: member.user, role: 'viewer' }]);
    expect((await move(member.cookie, task._id, elsewhere.id)).status).toBe(403);
    const strangers = await insertBoard(t, stranger.user);
    expect((await move(member.cookie, task._id, strangers.id)).json).toMatchObject({ code: 'NOT_FOUND', message: SERVER_MESSAGES.taskBoardNotFound });
    expect((await move(viewer.cookie, task._id, target.id)).status).toBe(403);
    expect((await move(member.cookie, task._id, 'malformed!')).status).toBe(404);
    const now = (await t.request('GET', `/api/tasks/${task._id}`, { cookie: admin.cookie })).json.data.task;
    expect(now).toMatchObject({ boardId: board.id, version: 1 });
  });

  it('the assignee with no role on the task’s board moves it to a board where they are a member', async () => {
    const { admin, stranger, board } = await twoBoards();
    const task = await createTask(t, admin.cookie, { boardId: board.id, assignee: stranger.user.email });
    const res = await move(stranger.cookie, task._id, stranger.user.id);
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task.boardId).toBe(stranger.user.id);
    expect((await t.request('GET', `/api/tasks/${task._id}`, { cookie: admin.cookie })).status).toBe(404);
  });
});

