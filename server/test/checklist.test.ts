import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';
import type { Activity } from '#shared/schemas/comments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import { createSignedInUser, createTask, insertBoard } from './factories.ts';
import { SECOND, isPostgres, useTestApp, type Response } from './helpers.ts';
import { openStream } from './sse-client.ts';

const t = useTestApp();

const listOf = (cookie: string, taskId: string) => t.request('GET', `/api/tasks/${taskId}/checklist`, { cookie });
const add = (cookie: string, taskId: string, body: unknown) => t.request('POST', `/api/tasks/${taskId}/checklist`, { cookie, body });
const change = (cookie: string, taskId: string, itemId: string, body: unknown) =>
  t.request('PATCH', `/api/tasks/${taskId}/checklist/${itemId}`, { cookie, body });
const remove = (cookie: string, taskId: string, itemId: string) => t.request('DELETE', `/api/tasks/${taskId}/checklist/${itemId}`, { cookie });
const activityOf = async (cookie: string, taskId: string) =>
  (await t.request('GET', `/api/tasks/${taskId}/activity`, { cookie })).json as unknown as { data: { activity: Activity[] } };

const items = (res: Response) => (res.json as unknown as { data: { items: ChecklistItem[] } }).data.items;
const written = (res: Response) => (res.json as unknown as { data: { item: ChecklistItem; task: Task } }).data;
const texts = async (cookie: string, taskId: string) => items(await listOf(cookie, taskId)).map((item) => item.text);

/** Alice's task on her board, where Victor is a viewer; Bob is its assignee (not a member); Carol sees nothing. */
async function scene() {
  const alice = await createSignedInUser(t);
  const bob = await createSignedInUser(t);
  const carol = await createSignedInUser(t);
  const victor = await createSignedInUser(t);
  const board = await insertBoard(t, alice.user, [{ who: victor.user, role: 'viewer' }]);
  const task = await createTask(t, alice.cookie, { assignee: bob.user.email, boardId: board.id });
  return { alice, bob, carol, victor, board, task };
}

/** Adds items `texts` in order; their ids. */
async function addAll(cookie: string, taskId: string, all: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const text of all) {
    const res = await add(cookie, taskId, { text });
    expect(res.status, res.body).toBe(201);
    ids.push(written(res).item._id);
  }
  return ids;
}

describe('checklist', () => {
  it('adds items at the end (trimmed), lists them in order, and each change bumps the version and the counts', async () => {
    const { alice, bob, task } = await scene();
    t.clock.advance(SECOND);
    const first = await add(alice.cookie, task._id, { text: '  Buy stamps  ' });
    expect(first.status, first.body).toBe(201);
    expect(first.json.message).toBe(SERVER_MESSAGES.checklistItemAdded);
    const { item, task: after } = written(first);
    expect(item).toEqual({ _id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) as string, text: 'Buy stamps', done: false });
    expect(after).toEqual({ ...task, version: task.version + 1, updatedAt: t.clock.now().toISOString(), checklist: { done: 0, total: 1 } });

    const second = written(await add(bob.cookie, task._id, { text: 'Post the letter' }));
    expect(second.task.checklist).toEqual({ done: 0, total: 2 });
    const ticked = await change(bob.cookie, task._id, item._id, { done: true });
    expect(ticked.status, ticked.body).toBe(200);
    expect(ticked.json.message).toBe(SERVER_MESSAGES.checklistItemUpdated);
    expect(written(ticked)).toEqual({ item: { ...item, done: true }, task: { ...second.task, version: task.version + 3, checklist: { done: 1, total: 2 } } });

    const list = await listOf(alice.cookie, task._id);
    expect(list.status).toBe(200);
    expect(items(list)).toEqual([{ ...item, done: true }, second.item]);
    // The task as read carries the counts the changes kept on its row.
    expect((await t.request('GET', `/api/tasks/${task._id}`, { cookie: alice.cookie })).json.data.task).toEqual(written(ticked).task);
  });

  it('edits, unticks and deletes; deleting closes the gap; a change to the same values changes nothing', async () => {
    const { alice, task } = await scene();
    const [a, b, c] = await addAll(alice.cookie, task._id, ['A', 'B', 'C']);
    expect(written(await change(alice.cookie, task._id, a!, { done: true, text: ' A2 ' })).item).toEqual({ _id: a, text: 'A2', done: true });
    const unticked = written(await change(alice.cookie, task._id, a!, { done: false }));
    expect(unticked.task.checklist).toEqual({ done: 0, total: 3 });
    const same = written(await change(alice.cookie, task._id, a!, { done: false, text: 'A2', position: 0 }));
    expect(same.task.version).toBe(unticked.task.version);

    expect((await remove(alice.cookie, task._id, b!)).status).toBe(204);
    expect(await texts(alice.cookie, task._id)).toEqual(['A2', 'C']);
    // C is now at position 1, the last one: moving it to 1 is no move, to 2 is out of range.
    expect(written(await change(alice.cookie, task._id, c!, { position: 1 })).task.version).toBe(unticked.task.version + 1);
    const out = await change(alice.cookie, task._id, c!, { position: 2 });
    expect(out.status).toBe(400);
    expect(out.json.errors).toEqual([{ field: 'position', message: SERVER_MESSAGES.checklistPositionOutOfRange }]);
    const task2 = (await t.request('GET', `/api/tasks/${task._id}`, { cookie: alice.cookie })).json.data.task;
    expect(task2.checklist).toEqual({ done: 0, total: 2 });
    expect(task2.version).toBe(unticked.task.version + 1);
  });

  it('moves an item to any position, renumbering the ones between (positions stay 0-based and dense)', async () => {
    const { alice, task } = await scene();
    const ids = await addAll(alice.cookie, task._id, ['A', 'B', 'C', 'D', 'E']);
    const move = async (text: string, position: number) => {
      const all = items(await listOf(alice.cookie, task._id));
      const id = all.find((item) => item.text === text)!._id;
      const res = await change(alice.cookie, task._id, id, { position });
      expect(res.status, res.body).toBe(200);
      return texts(alice.cookie, task._id);
    };
    expect(await move('A', 3)).toEqual(['B', 'C', 'D', 'A', 'E']);
    expect(await move('E', 0)).toEqual(['E', 'B', 'C', 'D', 'A']);
    expect(await move('C', 4)).toEqual(['E', 'B', 'D', 'A', 'C']);
    expect(await move('B', 2)).toEqual(['E', 'D', 'B', 'A', 'C']);
    const rows = await t.app.db.selectFrom('checklistItems').select(['id', 'position']).where('taskId', '=', task._id).orderBy('position').execute();
    expect(rows.map((row) => row.position)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set(ids));
    for (const position of [-1, 5]) expect((await change(alice.cookie, task._id, ids[0]!, { position })).status).toBe(400);
  });

  it(`refuses empty text and text over ${LIMITS.checklistTextMax} characters (400 on text), and more than ${LIMITS.checklistItemsPerTask} items (409 LIMIT_REACHED)`, async () => {
    const { alice, task } = await scene();
    for (const text of ['', '   ', 'x'.repeat(LIMITS.checklistTextMax + 1)]) {
      const res = await add(alice.cookie, task._id, { text });
      expect(res.status).toBe(400);
      expect(res.json.errors.map((e) => e.field)).toEqual(['text']);
    }
    const [id] = await addAll(alice.cookie, task._id, ['y'.repeat(LIMITS.checklistTextMax)]);
    expect((await change(alice.cookie, task._id, id!, { text: ' ' })).json.errors.map((e) => e.field)).toEqual(['text']);
    // Fill up to the limit straight in the table (the counts do not matter for the limit).
    const now = t.clock.now().toISOString();
    const rows = Array.from({ length: LIMITS.checklistItemsPerTask - 1 }, (_, i) => ({ id: newId(), taskId: task._id, position: i + 1, text: `Item ${i}`, done: 0, createdAt: now, updatedAt: now }));
    await t.app.db.insertInto('checklistItems').values(rows).execute();
    const full = await add(alice.cookie, task._id, { text: 'One too many' });
    expect(full.status).toBe(409);
    expect(full.json.code).toBe('LIMIT_REACHED');
    expect(full.json.message).toBe(SERVER_MESSAGES.checklistFull);
    expect(items(await listOf(alice.cookie, task._id))).toHaveLength(LIMITS.checklistItemsPerTask);
  });

  it('lets the assignee change it; a viewer reads it but gets 403; someone who cannot see the task gets 404; an item of another task is 404', async () => {
    const { alice, bob, carol, victor, task } = await scene();
    const [id] = await addAll(bob.cookie, task._id, ['By the assignee']);
    expect(items(await listOf(victor.cookie, task._id))).toHaveLength(1);
    for (const res of [await add(victor.cookie, task._id, { text: 'No' }), await change(victor.cookie, task._id, id!, { done: true }), await remove(victor.cookie, task._id, id!)]) {
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('FORBIDDEN');
    }
    for (const res of [await listOf(carol.cookie, task._id), await add(carol.cookie, task._id, { text: 'No' }), await change(carol.cookie, task._id, id!, { done: true }), await remove(carol.cookie, task._id, id!)]) {
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(SERVER_MESSAGES.taskNotFound);
    }
    const other = await createTask(t, alice.cookie);
    const [otherId] = await addAll(alice.cookie, other._id, ['Elsewhere']);
    for (const res of [await change(alice.cookie, task._id, otherId!, { done: true }), await remove(alice.cookie, task._id, otherId!), await change(alice.cookie, task._id, 'not-an-id', { done: true })]) {
      expect(res.status).toBe(404);
      expect(res.json.message).toBe(SERVER_MESSAGES.checklistItemNotFound);
    }
    expect(items(await listOf(alice.cookie, other._id))).toEqual([{ _id: otherId, text: 'Elsewhere', done: false }]);
  });

  it('records every change in the activity as a checklist entry {action, text}', async () => {
    const { alice, task } = await scene();
    const [a, b] = await addAll(alice.cookie, task._id, ['A', 'B']);
    await change(alice.cookie, task._id, a!, { done: true });
    await change(alice.cookie, task._id, a!, { done: false });
    await change(alice.cookie, task._id, b!, { text: 'B2', position: 0 });
    await remove(alice.cookie, task._id, a!);
    const by = { fullName: alice.user.fullName, email: alice.user.email };
    const entries = (await activityOf(alice.cookie, task._id)).data.activity.filter((entry) => entry.type === 'checklist');
    expect(entries.map((entry) => ({ by: entry.by, ...entry.checklist }))).toEqual([
      { by, action: 'added', text: 'A' },
      { by, action: 'added', text: 'B' },
      { by, action: 'checked', text: 'A' },
      { by, action: 'unchecked', text: 'A' },
      { by, action: 'edited', text: 'B2' },
      { by, action: 'moved', text: 'B2' },
      { by, action: 'deleted', text: 'A' },
    ]);
  });

  it('sends task.updated with the task (new version and counts) to whoever sees the task', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { alice, bob, victor, task } = await scene();
    const streams = await Promise.all([alice, bob, victor].map((who) => openStream(base, who.cookie)));
    const added = written(await add(bob.cookie, task._id, { text: 'Live' }));
    const ticked = written(await change(bob.cookie, task._id, added.item._id, { done: true }));
    expect((await remove(bob.cookie, task._id, added.item._id)).status).toBe(204);
    const by = { fullName: bob.user.fullName, email: bob.user.email };
    for (const stream of streams) {
      const events = [await stream.nextOf('task.updated'), await stream.nextOf('task.updated'), await stream.nextOf('task.updated')];
      expect(events.map((e) => e.json)).toEqual([
        { task: added.task, by },
        { task: ticked.task, by },
        { task: { ...ticked.task, version: ticked.task.version + 1, checklist: { done: 0, total: 0 } }, by },
      ]);
      stream.close();
    }
  });

  it('goes with its task: deleting the task deletes its items', async () => {
    const { alice, task } = await scene();
    await addAll(alice.cookie, task._id, ['A', 'B']);
    expect((await t.request('DELETE', `/api/tasks/${task._id}`, { cookie: alice.cookie })).status).toBe(204);
    expect(await t.app.db.selectFrom('checklistItems').select('id').where('taskId', '=', task._id).execute()).toEqual([]);
  });

  it('applies concurrent ticks of different items one after the other: none is lost, each bumps the version', async () => {
    const { alice, bob, task } = await scene();
    const ids = await addAll(alice.cookie, task._id, ['A', 'B', 'C', 'D', 'E', 'F']);
    const before = (await t.request('GET', `/api/tasks/${task._id}`, { cookie: alice.cookie })).json.data.task;
    const results = await Promise.all(ids.map((id, i) => change(i % 2 === 0 ? alice.cookie : bob.cookie, task._id, id, { done: true })));
    for (const res of results) expect(res.status, res.body).toBe(200);
    // Each saw the counts and version its predecessor left.
    const versions = results.map((res) => written(res).task.version).sort((x, y) => x - y);
    expect(versions).toEqual(ids.map((_, i) => before.version + 1 + i));
    expect(results.map((res) => written(res).task.checklist.done).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    const after = (await t.request('GET', `/api/tasks/${task._id}`, { cookie: alice.cookie })).json.data.task;
    expect(after.checklist).toEqual({ done: 6, total: 6 });
    expect(after.version).toBe(before.version + ids.length);
    expect(items(await listOf(alice.cookie, task._id)).every((item) => item.done)).toBe(true);
  });

  it.runIf(isPostgres)('waits for the task row lock: a change queues behind a transaction that holds the row', async () => {
    const { alice, task } = await scene();
    const [id] = await addAll(alice.cookie, task._id, ['A']);
    let pending: Promise<Response> | undefined;
    await t.app.db.transaction().execute(async (trx) => {
      await trx.selectFrom('tasks').select('id').where('id', '=', task._id).forUpdate().execute();
      pending = change(alice.cookie, task._id, id!, { done: true });
      // Until the request waits for our transaction (a lock it waits for is held by this backend).
      // pg_locks, not pg_stat_activity: that view is a snapshot taken at its first read in a
      // transaction, which would never show a pool connection opened after it.
      for (;;) {
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks where not granted and pg_backend_pid() = any(pg_blocking_pids(pid))`.execute(trx);
        if (Number(rows[0]?.n) > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await trx.updateTable('tasks').set({ taskTitle: 'Changed under the lock', version: (eb) => eb('version', '+', 1) }).where('id', '=', task._id).execute();
    });
    const res = await pending!;
    expect(res.status, res.body).toBe(200);
    // It read the task after our commit: our title and version, then its own bump.
    expect(written(res).task).toMatchObject({ taskTitle: 'Changed under the lock', version: task.version + 3, checklist: { done: 1, total: 1 } });
  });
});
