import { describe, expect, it } from 'vitest';
import type { Column, ColumnWithCount } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { createTask } from './factories.ts';
import { useTestApp, type Response } from './helpers.ts';
import { labelsTeam } from './labels-support.ts';
import { keyBetween } from '../services/order-keys.ts';
import { moveRace, outOfOrder, type Mover } from '../../bench/lib/move-race.ts';

const t = useTestApp();

const taskOf = (res: Response) => (res.json.data as unknown as { task: Task }).task;
const move = (cookie: string, task: Pick<Task, '_id' | 'version'>, columnId: string, afterId: string | null, version = task.version) =>
  t.request('POST', `/api/tasks/${task._id}/move`, { cookie, body: { columnId, afterId, version } });
const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

async function columnsOf(cookie: string, boardId: string): Promise<ColumnWithCount[]> {
  return ((await t.request('GET', `/api/boards/${boardId}/columns`, { cookie })).json.data as unknown as { columns: ColumnWithCount[] }).columns;
}
async function addColumn(cookie: string, boardId: string, body: Record<string, unknown>): Promise<Column> {
  const res = await t.request('POST', `/api/boards/${boardId}/columns`, { cookie, body });
  expect(res.status, res.body).toBe(201);
  return (res.json.data as unknown as { column: Column }).column;
}
/** The column's task ids top first, as the database orders them, with their versions. */
async function order(columnId: string): Promise<{ id: string; version: number; position: string }[]> {
  return t.app.db.selectFrom('tasks').select(['id', 'version', 'position']).where('columnId', '=', columnId).orderBy('position').execute();
}
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/** A team board with three tasks in its todo column (top first: c, b, a) and a "Doing" column. */
async function boardWithTasks() {
  const team = await labelsTeam(t);
  const [todo, done] = await columnsOf(team.admin.cookie, team.board.id);
  const doing = await addColumn(team.admin.cookie, team.board.id, { name: 'Doing', category: 'todo', afterId: todo?._id });
  const a = await createTask(t, team.admin.cookie, { boardId: team.board.id, taskTitle: 'Task a' });
  const b = await createTask(t, team.admin.cookie, { boardId: team.board.id, taskTitle: 'Task b' });
  const c = await createTask(t, team.admin.cookie, { boardId: team.board.id, taskTitle: 'Task c' });
  if (todo === undefined || done === undefined) throw new Error('no columns');
  return { ...team, todo, done, doing, a, b, c };
}

describe('a task’s place', () => {
  it('every task has a column and a position; a create goes to the top of its column (columnId, else the first todo), a create in a done column is done', async () => {
    const s = await boardWithTasks();
    expect(ids(await order(s.todo._id))).toEqual([s.c._id, s.b._id, s.a._id]);
    for (const task of [s.a, s.b, s.c]) expect([task.columnId, task.status]).toEqual([s.todo._id, 'todo']);
    const inDoing = await createTask(t, s.member.cookie, { boardId: s.board.id, columnId: s.doing._id });
    expect([inDoing.columnId, inDoing.status]).toEqual([s.doing._id, 'todo']);
    const inDone = await createTask(t, s.member.cookie, { boardId: s.board.id, columnId: s.done._id });
    expect([inDone.columnId, inDone.status]).toEqual([s.done._id, 'done']);
    const bad = await t.request('POST', '/api/tasks', { cookie: s.admin.cookie, body: { taskTitle: 'Task x', assignee: 'x@example.test', boardId: s.board.id, columnId: 'nope' } });
    expect([bad.status, bad.json.errors.map((e) => e.field)]).toEqual([400, ['columnId']]);
    const outsider = await t.request('POST', '/api/tasks', { cookie: s.outsider.cookie, body: { taskTitle: 'Task x', assignee: 'x@example.test', boardId: s.board.id, columnId: s.todo._id } });
    expect(outsider.status).toBe(404);
  });

  it('PATCH {status} moves the task to the top of the first column of that category, and back', async () => {
    const s = await boardWithTasks();
    const review = await addColumn(s.admin.cookie, s.board.id, { name: 'Review', category: 'done', afterId: null });
    const first = await t.request('PATCH', `/api/tasks/${s.a._id}`, { cookie: s.member.cookie, body: { status: 'done' } });
    expect(first.status, first.body).toBe(200);
    expect([taskOf(first).status, taskOf(first).columnId]).toEqual(['done', review._id]);
    const second = taskOf(await t.request('PATCH', `/api/tasks/${s.b._id}`, { cookie: s.member.cookie, body: { status: 'done' } }));
    expect(ids(await order(review._id))).toEqual([s.b._id, s.a._id]);
    const back = taskOf(await t.request('PATCH', `/api/tasks/${second._id}`, { cookie: s.member.cookie, body: { ...second, status: 'todo' } }));
    expect([back.status, back.columnId]).toEqual(['todo', s.todo._id]);
    expect(ids(await order(s.todo._id))).toEqual([s.b._id, s.c._id]);
    // A PATCH that does not change the status leaves the task where it is.
    const kept = taskOf(await t.request('PATCH', `/api/tasks/${s.c._id}`, { cookie: s.member.cookie, body: { taskTitle: 'Task c2' } }));
    expect([kept.columnId, kept.position]).toEqual([s.c.columnId, s.c.position]);
  });

  it('moving a task to another board puts it at the top of that board’s first column of the same category', async () => {
    const s = await boardWithTasks();
    const other = await t.request('POST', '/api/boards', { cookie: s.admin.cookie, body: { name: 'Other' } });
    const target = (other.json.data as unknown as { board: { _id: string; columns: Column[] } }).board;
    const done = taskOf(await t.request('PATCH', `/api/tasks/${s.a._id}`, { cookie: s.admin.cookie, body: { status: 'done' } }));
    const moved = await t.request('PATCH', `/api/tasks/${done._id}`, { cookie: s.admin.cookie, body: { boardId: target._id } });
    expect(moved.status, moved.body).toBe(200);
    expect([taskOf(moved).boardId, taskOf(moved).columnId, taskOf(moved).status]).toEqual([target._id, target.columns[1]?._id, 'done']);
  });
});

describe('POST /api/tasks/:id/move', () => {
  it('reorders within a column and moves between columns, writing only the moved task', async () => {
    const s = await boardWithTasks();
    const res = await move(s.member.cookie, s.a, s.todo._id, s.c._id);
    expect(res.status, res.body).toBe(200);
    expect(taskOf(res)).toMatchObject({ _id: s.a._id, columnId: s.todo._id, status: 'todo', version: 2 });
    let rows = await order(s.todo._id);
    expect(ids(rows)).toEqual([s.c._id, s.a._id, s.b._id]);
    // The neighbours kept their keys and versions.
    expect(rows.filter((row) => row.id !== s.a._id).map((row) => [row.position, row.version])).toEqual([
      [s.c.position, 1],
      [s.b.position, 1],
    ]);
    const top = await move(s.member.cookie, taskOf(res), s.todo._id, null);
    expect(ids(await order(s.todo._id))).toEqual([s.a._id, s.c._id, s.b._id]);
    const across = await move(s.admin.cookie, s.b, s.doing._id, null);
    expect(across.status).toBe(200);
    expect(taskOf(across)).toMatchObject({ columnId: s.doing._id, status: 'todo' });
    rows = await order(s.todo._id);
    expect(ids(rows)).toEqual([s.a._id, s.c._id]);
    // A move to where it already is changes nothing.
    const same = await move(s.admin.cookie, taskOf(top), s.todo._id, null);
    expect(taskOf(same).version).toBe(taskOf(top).version);
    const counts = await columnsOf(s.admin.cookie, s.board.id);
    expect(counts.map((c) => [c.name, c.count])).toEqual([
      ['Tasks To Do', 2],
      ['Doing', 1],
      ['Completed', 0],
    ]);
  });

  it('entering a done column completes the task (its next occurrence too), leaving one reopens it; activity says so', async () => {
    const s = await boardWithTasks();
    const deadline = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const repeating = await createTask(t, s.admin.cookie, { boardId: s.board.id, deadline });
    const withRepeat = taskOf(await t.request('PATCH', `/api/tasks/${repeating._id}`, { cookie: s.admin.cookie, body: { repeat: { every: 1, unit: 'week' } } }));
    const res = await move(s.admin.cookie, withRepeat, s.done._id, null);
    expect(res.status, res.body).toBe(200);
    expect(taskOf(res)).toMatchObject({ status: 'done', columnId: s.done._id, repeat: null });
    const next = (await order(s.todo._id))[0];
    expect(next?.id).not.toBe(repeating._id);
    const occurrence = (await t.request('GET', `/api/tasks/${next?.id}`, { cookie: s.admin.cookie })).json.data.task;
    expect([occurrence.taskTitle, occurrence.status, occurrence.repeat]).toEqual([repeating.taskTitle, 'todo', { every: 1, unit: 'week' }]);
    const reopened = await move(s.admin.cookie, taskOf(res), s.doing._id, null);
    expect(taskOf(reopened)).toMatchObject({ status: 'todo', columnId: s.doing._id });
    const activity = (await t.request('GET', `/api/tasks/${repeating._id}/activity`, { cookie: s.admin.cookie })).json.data as unknown as { activity: { type: string }[] };
    expect(activity.activity.map((a) => a.type)).toEqual(expect.arrayContaining(['completed', 'reopened']));
  });

  it('a move to another column of the same category writes a `column` change with both names; a move within one column writes no activity', async () => {
    const s = await boardWithTasks();
    const activityOf = async (id: string) =>
      ((await t.request('GET', `/api/tasks/${id}/activity`, { cookie: s.admin.cookie })).json.data as unknown as { activity: { type: string; changes?: unknown }[] }).activity;
    const before = (await activityOf(s.a._id)).length;
    const within = await move(s.member.cookie, s.a, s.todo._id, null);
    expect(within.status, within.body).toBe(200);
    expect(await activityOf(s.a._id)).toHaveLength(before);
    const across = await move(s.member.cookie, taskOf(within), s.doing._id, null);
    expect(across.status, across.body).toBe(200);
    const entries = await activityOf(s.a._id);
    expect(entries.slice(before)).toEqual([expect.objectContaining({ type: 'updated', changes: { column: { from: 'Tasks To Do', to: 'Doing' } } })]);
    // Into a done column: `completed`, not a column change.
    await move(s.member.cookie, taskOf(across), s.done._id, null);
    expect((await activityOf(s.a._id)).slice(before + 1).map((a) => [a.type, a.changes])).toEqual([['completed', undefined]]);
  });

  it('409 CONFLICT on a stale version, 409 STALE_POSITION when afterId is not in that column, 400 for a column of another board; rights as for editing', async () => {
    const s = await boardWithTasks();
    const stale = await move(s.admin.cookie, s.a, s.todo._id, s.c._id, 7);
    expect([stale.status, stale.json.code, (stale.json.data as unknown as { task: Task }).task.version]).toEqual([409, 'CONFLICT', 1]);
    const gone = await move(s.admin.cookie, s.a, s.doing._id, s.c._id);
    expect([gone.status, gone.json.code]).toEqual([409, 'STALE_POSITION']);
    const missing = await move(s.admin.cookie, s.a, s.todo._id, 'no-such-task');
    expect([missing.status, missing.json.code]).toEqual([409, 'STALE_POSITION']);
    const mine = (await columnsOf(s.admin.cookie, s.admin.user.id))[0];
    const elsewhere = await move(s.admin.cookie, s.a, mine?._id ?? '', null);
    expect([elsewhere.status, elsewhere.json.errors.map((e) => e.field)]).toEqual([400, ['columnId']]);
    expect((await move(s.viewer.cookie, s.a, s.doing._id, null)).status).toBe(403);
    expect((await move(s.outsider.cookie, s.a, s.doing._id, null)).status).toBe(404);
    expect(ids(await order(s.todo._id))).toEqual([s.c._id, s.b._id, s.a._id]);
  });

  it('a column over its WIP limit is a warning in message, never a refusal', async () => {
    const s = await boardWithTasks();
    const limited = await addColumn(s.admin.cookie, s.board.id, { name: 'Review', category: 'todo', wipLimit: 1 });
    const first = await move(s.admin.cookie, s.a, limited._id, null);
    expect(first.status).toBe(200);
    expect(first.json.message).not.toMatch(/WIP/);
    const second = await move(s.admin.cookie, s.b, limited._id, s.a._id);
    expect(second.status).toBe(200);
    expect(second.json.message).toBe('"Review" now holds 2 tasks, over its WIP limit of 1.');
    expect(ids(await order(limited._id))).toEqual([s.a._id, s.b._id]);
  });

  it('a create, and a PATCH that puts the task in a column, also warn in message when they leave the column over its WIP limit', async () => {
    const s = await boardWithTasks();
    const limited = await addColumn(s.admin.cookie, s.board.id, { name: 'Review', category: 'done', afterId: s.doing._id, wipLimit: 1 });
    const body = { taskTitle: 'Task x', assignee: s.member.user.email, boardId: s.board.id, columnId: limited._id };
    const first = await t.request('POST', '/api/tasks', { cookie: s.admin.cookie, body });
    expect([first.status, first.json.message]).toEqual([201, 'Task created successfully.']);
    const second = await t.request('POST', '/api/tasks', { cookie: s.admin.cookie, body });
    expect([second.status, second.json.message]).toEqual([201, '"Review" now holds 2 tasks, over its WIP limit of 1.']);
    // PATCH {status: done} puts the task at the top of the first done column, "Review".
    const completed = await t.request('PATCH', `/api/tasks/${s.a._id}`, { cookie: s.member.cookie, body: { status: 'done' } });
    expect([completed.status, taskOf(completed).columnId, completed.json.message]).toEqual([200, limited._id, '"Review" now holds 3 tasks, over its WIP limit of 1.']);
    // A PATCH that keeps the task where it is, and one into a column without a limit, say nothing of it.
    const renamed = await t.request('PATCH', `/api/tasks/${s.b._id}`, { cookie: s.member.cookie, body: { taskTitle: 'Task b2' } });
    expect([renamed.status, renamed.json.message]).toEqual([200, 'Task updated successfully.']);
    const reopened = await t.request('PATCH', `/api/tasks/${s.a._id}`, { cookie: s.member.cookie, body: { status: 'todo' } });
    expect([reopened.status, reopened.json.message]).toEqual([200, 'Task updated successfully.']);
  });

  it('two people dropping cards into the same spot at once both succeed, with distinct keys and one order', async () => {
    const s = await boardWithTasks();
    const x = await createTask(t, s.admin.cookie, { boardId: s.board.id, columnId: s.doing._id });
    const y = await createTask(t, s.member.cookie, { boardId: s.board.id, columnId: s.doing._id });
    for (let round = 0; round < 5; round += 1) {
      const [left, right] = [x, y];
      const versions = new Map((await t.app.db.selectFrom('tasks').select(['id', 'version']).where('id', 'in', [left._id, right._id]).execute()).map((r) => [r.id, r.version]));
      // Both below c, above b: the same spot, at the same moment.
      const answers = await Promise.all([
        move(s.admin.cookie, { _id: left._id, version: versions.get(left._id) ?? 0 }, s.todo._id, s.c._id),
        move(s.member.cookie, { _id: right._id, version: versions.get(right._id) ?? 0 }, s.todo._id, s.c._id),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const rows = await order(s.todo._id);
      expect(new Set(rows.map((row) => row.position)).size).toBe(rows.length);
      const list = ids(rows);
      expect(list[0]).toBe(s.c._id);
      expect(new Set(list.slice(1, 3))).toEqual(new Set([left._id, right._id]));
      expect(list.slice(3)).toEqual([s.b._id, s.a._id]);
      // The API lists the same order as the database.
      const sorted = [...rows].sort((a, b) => bytewise(a.position, b.position));
      expect(ids(sorted)).toEqual(list);
      // Back to "Doing" for the next round.
      for (const task of [left, right]) {
        const v = (await t.app.db.selectFrom('tasks').select('version').where('id', '=', task._id).executeTakeFirstOrThrow()).version;
        expect((await move(s.admin.cookie, { _id: task._id, version: v }, s.doing._id, null)).status).toBe(200);
      }
    }
  });

  it('60 moves by two people into the same column at once: every move answers 200 (a CONFLICT sent again), no two tasks share a key, one order', async () => {
    const s = await boardWithTasks();
    const mine = async (cookie: string) => {
      const tasks: Task[] = [];
      for (let i = 0; i < 6; i += 1) tasks.push(await createTask(t, cookie, { boardId: s.board.id }));
      return tasks;
    };
    const mover = (cookie: string): Mover => async (taskId, columnId, afterId, version) => {
      const res = await t.request('POST', `/api/tasks/${taskId}/move`, { cookie, body: { columnId, afterId, version } });
      const data = res.json.data as unknown as { task?: Task } | undefined;
      return { status: res.status, task: data?.task, code: res.json.code };
    };
    // The anchor nobody moves: half the moves go directly below it.
    const anchor = await createTask(t, s.admin.cookie, { boardId: s.board.id, columnId: s.doing._id });
    const people = [
      { move: mover(s.admin.cookie), tasks: await mine(s.admin.cookie) },
      { move: mover(s.member.cookie), tasks: await mine(s.member.cookie) },
    ];
    const race = await moveRace({ people, columnId: s.doing._id, anchorId: anchor._id, perPerson: 30 });
    expect([race.ok, race.failed]).toEqual([60, []]);
    const rows = await order(s.doing._id);
    expect(rows).toHaveLength(13);
    expect(new Set(rows.map((row) => row.position)).size).toBe(13);
    expect(outOfOrder(rows.map((row) => row.position))).toEqual([]);
    // The API lists the column in the same order, page by page.
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.request('GET', `/api/tasks?column=${s.doing._id}&sort=position&limit=5${cursor === null ? '' : `&cursor=${cursor}`}`, { cookie: s.member.cookie });
      const data = res.json.data as unknown as { tasks: Task[]; nextCursor: string | null };
      listed.push(...data.tasks.map((task) => task._id));
      cursor = data.nextCursor;
    } while (cursor !== null);
    expect(listed).toEqual(ids(rows));
  });

  it('re-spaces the column in order when a key would pass 64 characters', async () => {
    const s = await boardWithTasks();
    // Two neighbours whose keys leave no short key between them.
    const base = `a0${'V'.repeat(61)}`;
    await t.app.db.updateTable('tasks').set({ position: `${base}1` }).where('id', '=', s.c._id).execute();
    await t.app.db.updateTable('tasks').set({ position: `${base}2` }).where('id', '=', s.b._id).execute();
    const res = await move(s.admin.cookie, s.a, s.todo._id, s.c._id);
    expect(res.status, res.body).toBe(200);
    const rows = await order(s.todo._id);
    expect(ids(rows)).toEqual([s.c._id, s.a._id, s.b._id]);
    for (const row of rows) expect(row.position.length).toBeLessThanOrEqual(64);
    // The re-spaced neighbours got new keys and versions.
    expect(rows.filter((row) => row.id !== s.a._id).map((row) => row.version)).toEqual([2, 2]);
  });
});

describe('stored keys the key library cannot read', () => {
  /** Every key of the column is one the library reads (it can make a key after each). */
  const readable = (rows: readonly { position: string }[]) => rows.every((row) => keyBetween(row.position, null).length > 0);
  const distinct = (rows: readonly { position: string }[]) => new Set(rows.map((row) => row.position)).size === rows.length;

  it('a create, a move, a PATCH {status}, a column’s delete and a CSV import next to one re-space the column and succeed, in its order', async () => {
    const s = await boardWithTasks();
    // Written by hand: sorts before every key the library makes, and it cannot read it.
    await t.app.db.updateTable('tasks').set({ position: '0 by hand' }).where('id', '=', s.b._id).execute();
    expect(ids(await order(s.todo._id))).toEqual([s.b._id, s.c._id, s.a._id]);

    const created = await t.request('POST', '/api/tasks', { cookie: s.member.cookie, body: { taskTitle: 'On top', assignee: s.member.user.email, boardId: s.board.id } });
    expect(created.status, created.body).toBe(201);
    let rows = await order(s.todo._id);
    expect(ids(rows)).toEqual([taskOf(created)._id, s.b._id, s.c._id, s.a._id]);
    expect([readable(rows), distinct(rows)]).toEqual([true, true]);
    // The re-spaced tasks' versions went up (task.updated each).
    expect(rows.find((row) => row.id === s.b._id)?.version).toBe(2);

    // Sorts after every key the library makes: a move below it, and one into the spot above it.
    await t.app.db.updateTable('tasks').set({ position: '~ imported' }).where('id', '=', s.c._id).execute();
    const a = taskOf(await t.request('GET', `/api/tasks/${s.a._id}`, { cookie: s.member.cookie }));
    const below = await move(s.member.cookie, a, s.todo._id, s.c._id);
    expect(below.status, below.body).toBe(200);
    rows = await order(s.todo._id);
    expect(ids(rows)).toEqual([taskOf(created)._id, s.b._id, s.c._id, s.a._id]);
    expect([readable(rows), distinct(rows)]).toEqual([true, true]);
    await t.app.db.updateTable('tasks').set({ position: '~ again' }).where('id', '=', s.a._id).execute();
    const x = await createTask(t, s.member.cookie, { boardId: s.board.id, columnId: s.doing._id });
    const above = await move(s.member.cookie, x, s.todo._id, s.c._id);
    expect(above.status, above.body).toBe(200);
    rows = await order(s.todo._id);
    expect(ids(rows)).toEqual([taskOf(created)._id, s.b._id, s.c._id, x._id, s.a._id]);
    expect([readable(rows), distinct(rows)]).toEqual([true, true]);

    // The done column: a completed task with a hand-written key, then a PATCH {status} to done.
    const done = taskOf(await t.request('PATCH', `/api/tasks/${s.a._id}`, { cookie: s.member.cookie, body: { status: 'done' } }));
    await t.app.db.updateTable('tasks').set({ position: '' }).where('id', '=', done._id).execute();
    const completed = await t.request('PATCH', `/api/tasks/${s.b._id}`, { cookie: s.member.cookie, body: { status: 'done' } });
    expect(completed.status, completed.body).toBe(200);
    rows = await order(s.done._id);
    expect(ids(rows)).toEqual([s.b._id, s.a._id]);
    expect([readable(rows), distinct(rows)]).toEqual([true, true]);

    // Deleting a column into one whose last key is unreadable: the target is re-spaced, the tasks go after its last.
    await t.app.db.updateTable('tasks').set({ position: '~ last' }).where('id', '=', s.c._id).execute();
    const y = await createTask(t, s.admin.cookie, { boardId: s.board.id, columnId: s.doing._id });
    const deleted = await t.request('DELETE', `/api/boards/${s.board.id}/columns/${s.doing._id}?moveTo=${s.todo._id}`, { cookie: s.admin.cookie });
    expect(deleted.status, deleted.body).toBe(204);
    rows = await order(s.todo._id);
    expect(ids(rows)).toEqual([taskOf(created)._id, x._id, s.c._id, y._id]);
    expect([readable(rows), distinct(rows)]).toEqual([true, true]);

    // A CSV import onto a column whose top key is unreadable: re-spaced, the imported task on top.
    await t.app.db.updateTable('tasks').set({ position: '0 first' }).where('id', '=', y._id).execute();
    const imported = await t.request('POST', `/api/boards/${s.board.id}/import.csv`, {
      cookie: s.member.cookie,
      body: `taskTitle,assignee\nImported,${s.member.user.email}\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status, imported.body).toBe(201);
    rows = await order(s.todo._id);
    expect(ids(rows).slice(1)).toEqual([y._id, taskOf(created)._id, x._id, s.c._id]);
    expect([readable(rows), distinct(rows)]).toEqual([true, true]);

    // The API lists each column in the database's order.
    for (const column of [s.todo, s.done]) {
      const res = await t.request('GET', `/api/tasks?board=${s.board.id}&column=${column._id}&sort=position`, { cookie: s.member.cookie });
      expect((res.json.data as unknown as { tasks: Task[] }).tasks.map((task) => task._id)).toEqual(ids(await order(column._id)));
    }
  });
});
