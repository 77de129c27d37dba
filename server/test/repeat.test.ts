import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { nextDeadline } from '#shared/repeat.ts';
import type { ChecklistItem } from '#shared/schemas/checklist.ts';
import type { Activity } from '#shared/schemas/comments.ts';
import type { Repeat, Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import { createSignedInUser, createTask, insertBoard } from './factories.ts';
import { DAY, HOUR, MINUTE, anyString, useTestApp } from './helpers.ts';
import { openStream } from './sse-client.ts';

const t = useTestApp();

const isoIn = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });
const getTask = async (cookie: string, id: string) => (await t.request('GET', `/api/tasks/${id}`, { cookie })).json.data.task;
const activityOf = async (cookie: string, id: string) =>
  ((await t.request('GET', `/api/tasks/${id}/activity`, { cookie })).json as unknown as { data: { activity: Activity[] } }).data.activity;
const checklistOf = async (cookie: string, id: string) =>
  ((await t.request('GET', `/api/tasks/${id}/checklist`, { cookie })).json as unknown as { data: { items: ChecklistItem[] } }).data.items;
/** Every task on a board, newest first, as its member `cookie` sees them. */
const boardTasks = async (cookie: string, board: string) => (await t.request('GET', `/api/tasks?board=${board}`, { cookie })).json.data.tasks;
const weekly: Repeat = { every: 1, unit: 'week' };

/** Alice's weekly task on her board (Victor views it), assigned to Bob (no member), due in 30 hours. */
async function scene(overrides: Record<string, unknown> = {}) {
  const alice = await createSignedInUser(t);
  const bob = await createSignedInUser(t);
  const victor = await createSignedInUser(t);
  const board = await insertBoard(t, alice.user, [{ who: victor.user, role: 'viewer' }]);
  const res = await t.request('POST', '/api/tasks', {
    cookie: alice.cookie,
    body: { taskTitle: 'Water the plants', workTitle: 'Office', description: 'Both floors', assignee: bob.user.email, priority: 'high', deadline: isoIn(30 * HOUR), boardId: board.id, repeat: weekly, ...overrides },
  });
  expect(res.status, res.body).toBe(201);
  return { alice, bob, victor, board, task: res.json.data.task };
}

describe('repeat on create and update', () => {
  it('stores repeat on create and shows it in the Task JSON; null by default', async () => {
    const { task, alice } = await scene();
    expect(task.repeat).toEqual(weekly);
    expect((await getTask(alice.cookie, task._id)).repeat).toEqual(weekly);
    expect((await createTask(t, alice.cookie)).repeat).toBeNull();
  });

  it('needs a deadline: 400 on repeat for a create without one, a change that sets repeat without one, or removes the deadline of a repeating task', async () => {
    const { alice } = await createSignedInUser(t).then((alice) => ({ alice }));
    for (const deadline of [undefined, null, '']) {
      const res = await t.request('POST', '/api/tasks', { cookie: alice.cookie, body: { taskTitle: 'No deadline', assignee: alice.user.email, deadline, repeat: weekly } });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'repeat', message: 'A repeating task needs a deadline.' }]);
    }
    const plain = await createTask(t, alice.cookie);
    const refused = await patch(alice.cookie, plain._id, { repeat: weekly });
    expect(refused.status).toBe(400);
    expect(refused.json.errors.map((e) => e.field)).toEqual(['repeat']);
    // With a deadline in the same change it is fine.
    const set = await patch(alice.cookie, plain._id, { repeat: { every: 3, unit: 'day' }, deadline: isoIn(DAY) });
    expect(set.status, set.body).toBe(200);
    expect(set.json.data.task.repeat).toEqual({ every: 3, unit: 'day' });

    const removeDeadline = await patch(alice.cookie, plain._id, { deadline: null });
    expect(removeDeadline.status).toBe(400);
    expect(removeDeadline.json.errors.map((e) => e.field)).toEqual(['repeat']);
    expect((await getTask(alice.cookie, plain._id)).deadline).not.toBeNull();
    const both = await patch(alice.cookie, plain._id, { deadline: null, repeat: null });
    expect(both.status).toBe(200);
    expect(both.json.data.task).toMatchObject({ deadline: null, repeat: null });
  });

  it('refuses an interval outside 1–365 or an unknown unit (400)', async () => {
    const { alice } = await createSignedInUser(t).then((alice) => ({ alice }));
    for (const repeat of [{ every: 0, unit: 'day' }, { every: 366, unit: 'day' }, { every: 1.5, unit: 'week' }, { every: 1, unit: 'hour' }, { every: 1 }, 'weekly']) {
      const res = await t.request('POST', '/api/tasks', { cookie: alice.cookie, body: { taskTitle: 'Bad', assignee: alice.user.email, deadline: isoIn(DAY), repeat } });
      expect(res.status, JSON.stringify(repeat)).toBe(400);
    }
  });

  it('records repeat changes in the activity (describeRepeat text, null for none); sending the same value back changes nothing', async () => {
    const { alice, task } = await scene({ repeat: null });
    await patch(alice.cookie, task._id, { repeat: { every: 2, unit: 'month' } });
    await patch(alice.cookie, task._id, { repeat: { every: 1, unit: 'year' } });
    const current = await getTask(alice.cookie, task._id);
    // The original client sends the whole task back, `repeat` as it read it.
    const again = await patch(alice.cookie, task._id, { ...current, repeat: { every: 1, unit: 'year' } });
    expect(again.json.data.task.version).toBe(current.version);
    await patch(alice.cookie, task._id, { repeat: null });
    const changes = (await activityOf(alice.cookie, task._id)).filter((entry) => entry.type === 'updated').map((entry) => entry.changes);
    expect(changes).toEqual([
      { repeat: { from: null, to: 'Every 2 months' } },
      { repeat: { from: 'Every 2 months', to: 'Every year' } },
      { repeat: { from: 'Every year', to: null } },
    ]);
  });

  it('lets a viewer not change repeat (403)', async () => {
    const { victor, task } = await scene();
    expect((await patch(victor.cookie, task._id, { repeat: null })).status).toBe(403);
  });
});

describe('completing a repeating task', () => {
  /** Labels A and B on the board, both on the task, and a checklist of two items, one ticked. */
  async function withDetails(s: Awaited<ReturnType<typeof scene>>) {
    const now = t.clock.now().toISOString();
    const labels = [
      { id: newId(), boardId: s.board.id, name: 'Alpha', nameKey: 'alpha', color: 'red' as const, createdAt: now, updatedAt: now },
      { id: newId(), boardId: s.board.id, name: 'Beta', nameKey: 'beta', color: 'blue' as const, createdAt: now, updatedAt: now },
    ];
    await t.app.db.insertInto('labels').values(labels).execute();
    await t.app.db.insertInto('taskLabels').values(labels.map((label) => ({ taskId: s.task._id, labelId: label.id }))).execute();
    const first = await t.request('POST', `/api/tasks/${s.task._id}/checklist`, { cookie: s.alice.cookie, body: { text: 'Ground floor' } });
    await t.request('POST', `/api/tasks/${s.task._id}/checklist`, { cookie: s.alice.cookie, body: { text: 'First floor' } });
    const firstId = (first.json as unknown as { data: { item: ChecklistItem } }).data.item._id;
    await t.request('PATCH', `/api/tasks/${s.task._id}/checklist/${firstId}`, { cookie: s.alice.cookie, body: { done: true } });
    return { labels, task: await getTask(s.alice.cookie, s.task._id) };
  }

  it('creates the next occurrence in the same write: a copy with the deadline advanced, checklist unticked, labels and repeat kept; the completed one stops repeating', async () => {
    const s = await scene();
    const { labels, task } = await withDetails(s);
    t.clock.advance(HOUR);
    // Bob, the assignee, completes it: the occurrence's creator is still Alice.
    const done = await patch(s.bob.cookie, task._id, { status: 'done' });
    expect(done.status, done.body).toBe(200);
    const completed = done.json.data.task;
    expect(completed).toMatchObject({ status: 'done', repeat: null, version: task.version + 1 });

    const others = (await boardTasks(s.alice.cookie, s.board.id)).filter((other: Task) => other._id !== task._id);
    expect(others).toHaveLength(1);
    const next = others[0]!;
    const now = t.clock.now().toISOString();
    expect(next).toEqual({
      _id: anyString,
      workTitle: 'Office',
      taskTitle: 'Water the plants',
      assignee: s.bob.user.email,
      assignor: s.alice.user.fullName,
      assignorEmail: s.alice.user.email,
      deadline: nextDeadline(task.deadline!, weekly, t.clock.now()),
      startAt: null,
      priority: 'high',
      status: 'todo',
      description: 'Both floors',
      boardId: s.board.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
      labels: labels.map((label) => ({ _id: label.id, name: label.name, color: label.color })),
      checklist: { done: 0, total: 2 },
      repeat: weekly,
      // At the top of the board's first todo column, where the completed one was.
      columnId: task.columnId,
      position: anyString,
      // Files are not copied: the next occurrence starts without any.
      attachmentCount: 0,
      cover: null,
    });
    expect(next.deadline).toBe(new Date(Date.parse(task.deadline!) + 7 * DAY).toISOString());
    expect(await checklistOf(s.alice.cookie, next._id)).toEqual([
      { _id: anyString, text: 'Ground floor', done: false },
      { _id: anyString, text: 'First floor', done: false },
    ]);
    // The completed task keeps its own checklist.
    expect((await checklistOf(s.alice.cookie, task._id)).map((item) => item.done)).toEqual([true, false]);
    const created = await activityOf(s.alice.cookie, next._id);
    expect(created).toEqual([
      { _id: anyString, type: 'created', by: { fullName: s.bob.user.fullName, email: s.bob.user.email }, at: now, repeatOf: { _id: task._id, taskTitle: 'Water the plants' } },
    ]);
    expect((await activityOf(s.alice.cookie, task._id)).slice(-2).map((entry) => ({ type: entry.type, changes: entry.changes }))).toEqual([
      { type: 'updated', changes: { repeat: { from: 'Every week', to: null } } },
      { type: 'completed', changes: undefined },
    ]);
  });

  it('reopening and completing again makes no second occurrence', async () => {
    const s = await scene();
    expect((await patch(s.alice.cookie, s.task._id, { status: 'done' })).status).toBe(200);
    expect((await patch(s.alice.cookie, s.task._id, { status: 'todo' })).status).toBe(200);
    expect((await patch(s.alice.cookie, s.task._id, { status: 'done' })).status).toBe(200);
    expect(await boardTasks(s.alice.cookie, s.board.id)).toHaveLength(2);
  });

  it("works through the original client's whole-task PATCH (it sends repeat back as it read it)", async () => {
    const s = await scene();
    const whole = { ...s.task, status: 'done' };
    const res = await patch(s.bob.cookie, s.task._id, whole);
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task.repeat).toBeNull();
    // Both were created at the same instant of the test clock: compare them in status order.
    const tasks = (await boardTasks(s.alice.cookie, s.board.id)).map((task: Task) => [task.status, task.repeat]).sort();
    expect(tasks).toEqual([
      ['done', null],
      ['todo', weekly],
    ]);
  });

  it('advances a long-overdue deadline to the first occurrence after now', async () => {
    const s = await scene({ deadline: isoIn(HOUR), repeat: { every: 2, unit: 'day' } });
    t.clock.advance(9 * DAY);
    expect((await patch(s.alice.cookie, s.task._id, { status: 'done' })).status).toBe(200);
    const next = (await boardTasks(s.alice.cookie, s.board.id)).find((task: Task) => task._id !== s.task._id)!;
    // Due 1 h after the start, then every 2 days: the first after day 9 is day 10 + 1 h.
    expect(next.deadline).toBe(new Date(Date.parse(s.task.deadline!) + 10 * DAY).toISOString());
  });

  it('sends task.created for the occurrence to the board members and the assignee, after the completed task.updated', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const s = await scene();
    const streams = await Promise.all([s.alice, s.bob, s.victor].map((who) => openStream(base, who.cookie)));
    const completed = (await patch(s.alice.cookie, s.task._id, { status: 'done' })).json.data.task;
    const next = (await boardTasks(s.alice.cookie, s.board.id)).find((task: Task) => task._id !== s.task._id)!;
    const by = { fullName: s.alice.user.fullName, email: s.alice.user.email };
    for (const stream of streams) {
      const events = [await stream.next(), await stream.next()];
      expect(events.map((e) => ({ event: e.event, json: e.json }))).toEqual([
        { event: 'task.updated', json: { task: completed, by } },
        { event: 'task.created', json: { task: next, by } },
      ]);
      stream.close();
    }
  });

  it('sends no assignment mail for the occurrence, and re-arms the reminders for its deadline', async () => {
    const s = await scene();
    await t.app.outbox.drain();
    const before = t.mail.to(s.bob.user.email).map((m) => m.subject);
    expect(before).toEqual([`${s.alice.user.fullName} assigned you: Water the plants`]);
    expect((await patch(s.alice.cookie, s.task._id, { status: 'done' })).status).toBe(200);
    await t.app.outbox.drain();
    expect(t.mail.to(s.bob.user.email).map((m) => m.subject)).toEqual(before);

    // Due 30 h + 7 days from the start: "due soon" 24 h before that, and not earlier.
    const tick = async (ms: number) => {
      t.clock.advance(ms);
      await t.app.taskMail.scanReminders();
      await t.app.outbox.drain();
    };
    await tick(6 * HOUR + 7 * DAY - MINUTE);
    expect(t.mail.to(s.bob.user.email)).toHaveLength(1);
    await tick(MINUTE);
    expect(t.mail.to(s.bob.user.email).map((m) => m.subject)).toEqual([...before, 'Due soon: Water the plants']);
  });

  it('makes one occurrence when two people complete the task at the same time', async () => {
    const s = await scene();
    const results = await Promise.all([patch(s.alice.cookie, s.task._id, { status: 'done' }), patch(s.bob.cookie, s.task._id, { status: 'done' })]);
    for (const res of results) expect(res.status, res.body).toBe(200);
    const tasks = await boardTasks(s.alice.cookie, s.board.id);
    expect(tasks.map((task: Task) => task.status).sort()).toEqual(['done', 'todo']);
    expect((await activityOf(s.alice.cookie, s.task._id)).filter((entry) => entry.type === 'completed')).toHaveLength(1);
  });

  it('does not repeat a task completed through a change that also stops the repeat', async () => {
    const s = await scene();
    const res = await patch(s.alice.cookie, s.task._id, { status: 'done', repeat: null });
    expect(res.status).toBe(200);
    expect(await boardTasks(s.alice.cookie, s.board.id)).toHaveLength(1);
    expect(res.json.message).toBe(SERVER_MESSAGES.taskUpdated);
  });
});

describe('shared/repeat.ts', () => {
  // Its property tests (shared/repeat.test.ts) run it in several time zones; this checks the
  // source itself, which shared/ tests cannot read (they run without Node APIs).
  it('reads and builds dates only in UTC: no local-time Date getters or setters, no time zone offsets', () => {
    const source = readFileSync(new URL('../../shared/repeat.ts', import.meta.url), 'utf8');
    expect(source.match(/\.(get|set)(FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds|Year)\(/g)).toBeNull();
    expect(source).not.toMatch(/getTimezoneOffset|toLocale|Intl\./);
  });
});
