import { describe, expect, it } from 'vitest';
import { COLUMN_POLICY } from '#shared/column-messages.ts';
import type { Column, ColumnWithCount } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { boardEventsOf, dataOf, lastEventId } from './boards-support.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { useTestApp, type Response, type TestApp } from './helpers.ts';
import { labelsTeam } from './labels-support.ts';
import { keyBetween } from '../services/order-keys.ts';

const t = useTestApp();

/** The columns calls as a signed-in user makes them. */
function columnsApi(app: TestApp) {
  return {
    list: (cookie: string, boardId: string) => app.request('GET', `/api/boards/${boardId}/columns`, { cookie }),
    create: (cookie: string, boardId: string, body: unknown) => app.request('POST', `/api/boards/${boardId}/columns`, { cookie, body }),
    update: (cookie: string, boardId: string, columnId: string, body: unknown) => app.request('PATCH', `/api/boards/${boardId}/columns/${columnId}`, { cookie, body }),
    remove: (cookie: string, boardId: string, columnId: string, moveTo?: string) =>
      app.request('DELETE', `/api/boards/${boardId}/columns/${columnId}${moveTo === undefined ? '' : `?moveTo=${moveTo}`}`, { cookie }),
  };
}
const api = columnsApi(t);
const columnsOf = (res: Response) => (res.json.data as unknown as { columns: ColumnWithCount[] }).columns;
const columnOf = (res: Response) => (res.json.data as unknown as { column: Column }).column;
const names = (columns: readonly { name: string }[]) => columns.map((c) => c.name);

async function listed(cookie: string, boardId: string): Promise<ColumnWithCount[]> {
  const res = await api.list(cookie, boardId);
  expect(res.status, res.body).toBe(200);
  return columnsOf(res);
}

describe('a board’s columns', () => {
  it('a new board has "Tasks To Do" (todo) then "Completed" (done); Board JSON and GET …/columns show them, with counts', async () => {
    const { cookie, user } = await createSignedInUser(t);
    const created = await t.request('POST', '/api/boards', { cookie, body: { name: 'Team' } });
    expect(created.status).toBe(201);
    const board = dataOf(created).board;
    expect(board.columns.map((c) => [c.name, c.category, c.wipLimit])).toEqual([
      ['Tasks To Do', 'todo', null],
      ['Completed', 'done', null],
    ]);
    const personal = dataOf(await t.request('GET', '/api/boards', { cookie })).boards.find((b) => b._id === user.id);
    expect(names(personal?.columns ?? [])).toEqual(['Tasks To Do', 'Completed']);
    await createTask(t, cookie, { boardId: board._id });
    await createTask(t, cookie, { boardId: board._id });
    const done = await createTask(t, cookie, { boardId: board._id });
    expect((await t.request('PATCH', `/api/tasks/${done._id}`, { cookie, body: { status: 'done' } })).status).toBe(200);
    const columns = await listed(cookie, board._id);
    expect(columns.map((c) => [c._id, c.name, c.count])).toEqual([
      [board.columns[0]?._id, 'Tasks To Do', 2],
      [board.columns[1]?._id, 'Completed', 1],
    ]);
  });

  it('only admins (and a personal board’s owner) change them: 403 for a member or viewer, 404 for anyone not on the board; every member reads them', async () => {
    const { admin, member, viewer, outsider, board } = await labelsTeam(t);
    for (const who of [member, viewer]) {
      expect((await api.list(who.cookie, board.id)).status).toBe(200);
      expect((await api.create(who.cookie, board.id, { name: 'Doing', category: 'todo' })).status).toBe(403);
    }
    expect((await api.list(outsider.cookie, board.id)).status).toBe(404);
    expect((await api.create(outsider.cookie, board.id, { name: 'Doing', category: 'todo' })).status).toBe(404);
    const [first] = await listed(admin.cookie, board.id);
    expect((await api.update(member.cookie, board.id, first?._id ?? '', { name: 'Backlog' })).status).toBe(403);
    expect((await api.remove(viewer.cookie, board.id, first?._id ?? '')).status).toBe(403);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Tasks To Do', 'Completed']);
    // The owner of a personal board is its admin.
    const res = await api.create(member.cookie, member.user.id, { name: 'Doing', category: 'todo' });
    expect(res.status, res.body).toBe(201);
  });

  it('adds a column last by default, first with afterId null, after a given column; names trimmed, unique ignoring case; at most 20', async () => {
    const { admin, board } = await labelsTeam(t);
    const [todo, done] = await listed(admin.cookie, board.id);
    const review = await api.create(admin.cookie, board.id, { name: '  Review ', category: 'todo', wipLimit: 3 });
    expect(review.status, review.body).toBe(201);
    expect(columnOf(review)).toMatchObject({ name: 'Review', category: 'todo', wipLimit: 3 });
    expect((await api.create(admin.cookie, board.id, { name: 'Backlog', category: 'todo', afterId: null })).status).toBe(201);
    expect((await api.create(admin.cookie, board.id, { name: 'Doing', category: 'todo', afterId: todo?._id })).status).toBe(201);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Backlog', 'Tasks To Do', 'Doing', 'Completed', 'Review']);

    const taken = await api.create(admin.cookie, board.id, { name: 'DOING', category: 'done' });
    expect([taken.status, taken.json.code]).toEqual([409, 'COLUMN_EXISTS']);
    for (const body of [{ name: '   ', category: 'todo' }, { name: 'x'.repeat(41), category: 'todo' }, { name: 'Bad', category: 'later' }, { name: 'Bad', category: 'todo', wipLimit: 0 }, { name: 'Bad', category: 'todo', wipLimit: 1000 }]) {
      expect((await api.create(admin.cookie, board.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    const elsewhere = (await listed(admin.cookie, admin.user.id))[0]?._id;
    const notHere = await api.create(admin.cookie, board.id, { name: 'Lost', category: 'todo', afterId: elsewhere });
    expect([notHere.status, notHere.json.code]).toEqual([400, 'VALIDATION_FAILED']);

    for (let i = 5; i < COLUMN_POLICY.maxPerBoard; i += 1) expect((await api.create(admin.cookie, board.id, { name: `Stage ${i}`, category: 'todo' })).status).toBe(201);
    const full = await api.create(admin.cookie, board.id, { name: 'One too many', category: 'done' });
    expect([full.status, full.json.code]).toEqual([409, 'LIMIT_REACHED']);
    expect(await listed(admin.cookie, board.id)).toHaveLength(COLUMN_POLICY.maxPerBoard);
    expect(done).toBeDefined();
  });

  it('a column key the key library cannot read (written by hand) re-spaces the board’s columns in their order, and the add or reorder succeeds', async () => {
    const { admin, board } = await labelsTeam(t);
    const [todo, done] = await listed(admin.cookie, board.id);
    const keyOf = async (id: string) => (await t.app.db.selectFrom('boardColumns').select('position').where('id', '=', id).executeTakeFirstOrThrow()).position;
    await t.app.db.updateTable('boardColumns').set({ position: '0 by hand' }).where('id', '=', todo!._id).execute();

    const first = await api.create(admin.cookie, board.id, { name: 'Backlog', category: 'todo', afterId: null });
    expect(first.status, first.body).toBe(201);
    const after = await api.create(admin.cookie, board.id, { name: 'Doing', category: 'todo', afterId: todo!._id });
    expect(after.status, after.body).toBe(201);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Backlog', 'Tasks To Do', 'Doing', 'Completed']);
    expect(await keyOf(todo!._id)).not.toBe('0 by hand');

    await t.app.db.updateTable('boardColumns').set({ position: '~ imported' }).where('id', '=', done!._id).execute();
    const moved = await api.update(admin.cookie, board.id, columnOf(first)._id, { afterId: done!._id });
    expect(moved.status, moved.body).toBe(200);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Tasks To Do', 'Doing', 'Completed', 'Backlog']);
  });

  it('a new task goes to the top of the first column of its status, also after another writer changed the board since this instance last placed one there', async () => {
    const { admin, board } = await labelsTeam(t);
    const [todo] = await listed(admin.cookie, board.id);
    const create = async (taskTitle: string, status?: 'todo' | 'done') => {
      const res = await t.request('POST', '/api/tasks', { cookie: admin.cookie, body: { taskTitle, assignee: admin.user.email, boardId: board.id, ...(status === undefined ? {} : { status }) } });
      expect(res.status, res.body).toBe(201);
      return (res.json.data as unknown as { task: Task }).task;
    };
    const topOf = async (columnId: string) =>
      (await t.app.db.selectFrom('tasks').select(['taskTitle', 'position']).where('columnId', '=', columnId).orderBy('position').execute()).map((row) => row.taskTitle);
    await create('First');
    await create('Second');
    expect(await topOf(todo!._id)).toEqual(['Second', 'First']);
    // A key the key library cannot read (written by hand) at the top of the done column.
    const byHand = await create('By hand', 'done');
    await t.app.db.updateTable('tasks').set({ position: '0 by hand' }).where('id', '=', byHand._id).execute();

    // Another writer (an instance this one does not hear from) puts a task above them all.
    const lowest = (await t.app.db.selectFrom('tasks').select('position').where('columnId', '=', todo!._id).orderBy('position').executeTakeFirstOrThrow()).position;
    await t.app.db.updateTable('tasks').set({ position: keyBetween(null, lowest) }).where('columnId', '=', todo!._id).where('taskTitle', '=', 'First').execute();
    await create('Third');
    expect(await topOf(todo!._id)).toEqual(['Third', 'First', 'Second']);

    // …and makes another column the first of the todo category.
    const doing = columnOf(await api.create(admin.cookie, board.id, { name: 'Doing', category: 'todo' }));
    await create('Fourth');
    const todoKey = (await t.app.db.selectFrom('boardColumns').select('position').where('id', '=', todo!._id).executeTakeFirstOrThrow()).position;
    await t.app.db.updateTable('boardColumns').set({ position: keyBetween(null, todoKey) }).where('id', '=', doing._id).execute();
    const fifth = await create('Fifth');
    expect(fifth.columnId).toBe(doing._id);
    expect(await topOf(todo!._id)).toEqual(['Fourth', 'Third', 'First', 'Second']);
    expect(await topOf(doing._id)).toEqual(['Fifth']);
    // The board was read again for "Fifth": a done task now goes above the key written by hand,
    // the column re-spaced first.
    const done = await create('Done at once', 'done');
    expect(done.status).toBe('done');
    expect(await topOf(done.columnId)).toEqual(['Done at once', 'By hand']);
  });

  it('renames, sets the WIP limit, reorders; the category changes only while empty, and a board keeps a todo and a done column', async () => {
    const { admin, board } = await labelsTeam(t);
    const [todo, done] = await listed(admin.cookie, board.id);
    const renamed = await api.update(admin.cookie, board.id, todo?._id ?? '', { name: 'Backlog', wipLimit: 5 });
    expect(renamed.status, renamed.body).toBe(200);
    expect(columnOf(renamed)).toMatchObject({ _id: todo?._id, name: 'Backlog', category: 'todo', wipLimit: 5 });
    const taken = await api.update(admin.cookie, board.id, todo?._id ?? '', { name: 'completed' });
    expect([taken.status, taken.json.code]).toEqual([409, 'COLUMN_EXISTS']);
    const last = await api.update(admin.cookie, board.id, todo?._id ?? '', { category: 'done' });
    expect([last.status, last.json.code]).toEqual([409, 'LAST_COLUMN']);

    const doing = columnOf(await api.create(admin.cookie, board.id, { name: 'Doing', category: 'todo' }));
    await createTask(t, admin.cookie, { boardId: board.id, columnId: doing._id });
    const full = await api.update(admin.cookie, board.id, doing._id, { category: 'done' });
    expect([full.status, full.json.code]).toEqual([409, 'COLUMN_NOT_EMPTY']);
    const empty = columnOf(await api.create(admin.cookie, board.id, { name: 'Shipped', category: 'todo' }));
    expect((await api.update(admin.cookie, board.id, empty._id, { category: 'done' })).status).toBe(200);

    expect((await api.update(admin.cookie, board.id, doing._id, { afterId: null })).status).toBe(200);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Doing', 'Backlog', 'Completed', 'Shipped']);
    expect((await api.update(admin.cookie, board.id, done?._id ?? '', { afterId: empty._id })).status).toBe(200);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Doing', 'Backlog', 'Shipped', 'Completed']);
    expect((await api.update(admin.cookie, board.id, doing._id, { afterId: doing._id })).status).toBe(400);
    expect((await api.update(admin.cookie, board.id, 'no-such-column', { name: 'X' })).status).toBe(404);
    expect(columnOf(await api.update(admin.cookie, board.id, doing._id, { wipLimit: null })).wipLimit).toBeNull();
  });

  it('a WIP limit set below what the column holds is saved, and its answer says the column is over it', async () => {
    const { admin, board } = await labelsTeam(t);
    const doing = columnOf(await api.create(admin.cookie, board.id, { name: 'Doing', category: 'todo' }));
    for (let i = 0; i < 3; i += 1) await createTask(t, admin.cookie, { boardId: board.id, columnId: doing._id });
    const lowered = await api.update(admin.cookie, board.id, doing._id, { wipLimit: 2 });
    expect(lowered.status, lowered.body).toBe(200);
    expect(columnOf(lowered).wipLimit).toBe(2);
    expect(lowered.json.message).toBe('"Doing" now holds 3 tasks, over its WIP limit of 2.');
    const atIt = await api.update(admin.cookie, board.id, doing._id, { wipLimit: 3 });
    expect(atIt.json.message).toBe('The column was saved.');
    const renamed = await api.update(admin.cookie, board.id, doing._id, { name: 'Busy' });
    expect(renamed.json.message).toBe('The column was saved.');
  });

  it('deletes a column: LAST_COLUMN for the only one of its category, COLUMN_NOT_EMPTY without moveTo, 400 for moveTo of another category, its tasks kept in order at the end of moveTo, each with task.updated', async () => {
    const { admin, board } = await labelsTeam(t);
    const [todo, done] = await listed(admin.cookie, board.id);
    if (todo === undefined || done === undefined) throw new Error('no columns');
    const only = await api.remove(admin.cookie, board.id, done._id);
    expect([only.status, only.json.code]).toEqual([409, 'LAST_COLUMN']);

    const review = columnOf(await api.create(admin.cookie, board.id, { name: 'Review', category: 'done' }));
    const inDone: Task[] = [];
    for (let i = 0; i < 2; i += 1) inDone.push(await createTask(t, admin.cookie, { boardId: board.id, columnId: done._id }));
    const inReview: Task[] = [];
    for (let i = 0; i < 3; i += 1) inReview.push(await createTask(t, admin.cookie, { boardId: board.id, columnId: review._id }));
    expect(inReview.every((task) => task.status === 'done')).toBe(true);

    const refused = await api.remove(admin.cookie, board.id, review._id);
    expect([refused.status, refused.json.code]).toEqual([409, 'COLUMN_NOT_EMPTY']);
    expect((await api.remove(admin.cookie, board.id, review._id, review._id)).status).toBe(400);
    // Into a column of another category: refused (completing or reopening is one task at a time), nothing changed.
    const across = await api.remove(admin.cookie, board.id, review._id, todo._id);
    expect([across.status, across.json.errors.map((e) => e.field)]).toEqual([400, ['moveTo']]);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Tasks To Do', 'Completed', 'Review']);
    const after = await lastEventId(t);
    const res = await api.remove(admin.cookie, board.id, review._id, done._id);
    expect(res.status, res.body).toBe(204);
    const page = await t.request('GET', `/api/tasks?board=${board.id}&limit=100`, { cookie: admin.cookie });
    const tasks = page.json.data.tasks;
    const column = tasks.filter((task) => task.columnId === done._id).sort((a, b) => Buffer.compare(Buffer.from(a.position), Buffer.from(b.position)));
    // The done column's own (newest first), then the review column's in the order they had there (newest first), still done.
    expect(column.map((task) => task._id)).toEqual([...inDone.toReversed(), ...inReview.toReversed()].map((task) => task._id));
    for (const task of column.slice(2)) expect([task.status, task.version]).toEqual(['done', 2]);
    expect(names(await listed(admin.cookie, board.id))).toEqual(['Tasks To Do', 'Completed']);
    const events = await boardEventsOf(t, board.id, after);
    // Each moved task sends task.updated with its new place, then the board its columns.
    const updated = events.filter((e) => e.type === 'task.updated');
    expect(updated.map((e) => e.subjectId).toSorted()).toEqual(inReview.map((task) => task._id).toSorted());
    for (const event of updated) expect((event.data as unknown as { task: Task }).task).toMatchObject({ columnId: done._id, version: 2 });
    expect(events.map((e) => e.type)).toContain('board.updated');
    expect(names((events.at(-1)?.data.board as { columns: Column[] }).columns)).toEqual(['Tasks To Do', 'Completed']);
  });

  it('every change sends board.updated with the board’s columns to its active members', async () => {
    const { admin, member, viewer, board } = await labelsTeam(t);
    const after = await lastEventId(t);
    const doing = columnOf(await api.create(admin.cookie, board.id, { name: 'Doing', category: 'todo' }));
    let events = await boardEventsOf(t, board.id, after);
    expect(events.map((e) => e.type)).toEqual(['board.updated', 'board.updated', 'board.updated']);
    expect(events.flatMap((e) => e.audience).toSorted()).toEqual([admin.user.email, member.user.email, viewer.user.email].toSorted());
    for (const event of events) expect(names((event.data.board as { columns: Column[] }).columns)).toEqual(['Tasks To Do', 'Completed', 'Doing']);
    const mark = await lastEventId(t);
    expect((await api.update(admin.cookie, board.id, doing._id, { wipLimit: 2 })).status).toBe(200);
    events = await boardEventsOf(t, board.id, mark);
    expect((events[0]?.data.board as { columns: Column[] }).columns.find((c) => c._id === doing._id)?.wipLimit).toBe(2);
    // A change that changes nothing sends nothing.
    const still = await lastEventId(t);
    expect((await api.update(admin.cookie, board.id, doing._id, { wipLimit: 2 })).status).toBe(200);
    expect(await boardEventsOf(t, board.id, still)).toEqual([]);
  });
});
