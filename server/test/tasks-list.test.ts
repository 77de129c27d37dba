import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { createSignedInUser, createTask, insertTasks } from './factories.ts';
import { anyString, SECOND, useTestApp } from './helpers.ts';

const t = useTestApp();

const list = (cookie: string | undefined, query = '') => t.request('GET', `/api/tasks${query}`, { cookie });
const ids = (tasks: Task[]) => tasks.map((task) => task._id);
const complete = (cookie: string, id: string) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body: { status: 'done' } });

describe('GET /api/tasks', () => {
  it('lists the tasks I created and those assigned to me, newest first', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const mine = await createTask(t, alice.cookie);
    t.clock.advance(SECOND);
    const forMe = await createTask(t, bob.cookie, { assignee: alice.user.email });
    t.clock.advance(SECOND);
    const toMyself = await createTask(t, alice.cookie, { assignee: alice.user.email });
    t.clock.advance(SECOND);
    await createTask(t, stranger.cookie);
    await createTask(t, bob.cookie);

    const res = await list(alice.cookie);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('success');
    expect(res.json.results).toBe(3);
    expect(res.json.data.nextCursor).toBeNull();
    // A task I assigned to myself appears once.
    expect(ids(res.json.data.tasks)).toEqual([toMyself._id, forMe._id, mine._id]);
    // The assignor is the creator, read by join.
    expect(res.json.data.tasks[1]).toEqual(forMe);
    expect(res.json.data.tasks[1]!.assignor).toBe(bob.user.fullName);
  });

  it('shows a stranger nothing of mine', async () => {
    const alice = await createSignedInUser(t);
    await createTask(t, alice.cookie);
    const stranger = await createSignedInUser(t);
    const res = await list(stranger.cookie);
    expect(res.json).toEqual({ status: 'success', results: 0, data: { tasks: [], nextCursor: null } });
  });

  it('filters by priority ("" means all) and by status', async () => {
    const { cookie } = await createSignedInUser(t);
    const urgent = await createTask(t, cookie, { priority: 'urgent' });
    const low = await createTask(t, cookie, { priority: 'low' });
    const normalDone = await createTask(t, cookie);
    await complete(cookie, normalDone._id);

    expect(ids((await list(cookie, '?priority=urgent')).json.data.tasks)).toEqual([urgent._id]);
    expect((await list(cookie, '?priority=')).json.results).toBe(3);
    expect(ids((await list(cookie, '?status=done')).json.data.tasks)).toEqual([normalDone._id]);
    expect(ids((await list(cookie, '?status=todo&priority=low')).json.data.tasks)).toEqual([low._id]);
    expect((await list(cookie, '?status=done&priority=low')).json.results).toBe(0);
  });

  it.each([
    ['an unknown priority', '?priority=someday', 'priority'],
    ['an unknown status', '?status=archived', 'status'],
    ['a limit of 0', '?limit=0', 'limit'],
    ['a limit over 500', '?limit=501', 'limit'],
    ['a limit that is not a number', '?limit=ten', 'limit'],
    ['a malformed cursor', '?limit=5&cursor=bm9wZQ', 'cursor'],
  ])('refuses %s with 400', async (_name, query, field) => {
    const { cookie } = await createSignedInUser(t);
    const res = await list(cookie, query);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.errors).toEqual([{ field, message: anyString }]);
  });

  it('answers 401 without a session', async () => {
    const res = await list(undefined);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('NOT_AUTHENTICATED');
  });
});

describe('GET /api/tasks without limit', () => {
  it('answers the first 5,000 tasks of the order and the cursor of the rest', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const newestFirst = (await insertTasks(t, user, 5003)).reverse();
    const res = await list(cookie);
    expect(res.status).toBe(200);
    expect(res.json.results).toBe(5000);
    expect(ids(res.json.data.tasks)).toEqual(newestFirst.slice(0, 5000));
    const cursor = res.json.data.nextCursor;
    expect(cursor).toEqual(anyString);
    const rest = await list(cookie, `?cursor=${encodeURIComponent(cursor ?? '')}`);
    expect(ids(rest.json.data.tasks)).toEqual(newestFirst.slice(5000));
    expect(rest.json.data.nextCursor).toBeNull();
  });
});

describe('GET /api/tasks with limit and cursor', () => {
  it('pages through the list, newest first, with nextCursor null on the last page', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const created: Task[] = [];
    for (let i = 0; i < 7; i++) {
      // Two tasks share each instant, so the id breaks ties.
      if (i % 2 === 0) t.clock.advance(SECOND);
      created.push(i % 3 === 0 ? await createTask(t, bob.cookie, { assignee: alice.user.email }) : await createTask(t, alice.cookie));
    }
    const full = (await list(alice.cookie)).json.data.tasks;
    expect(full).toHaveLength(7);

    const pages: Task[][] = [];
    let cursor: string | null = null;
    do {
      const res = await list(alice.cookie, `?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(res.status).toBe(200);
      pages.push(res.json.data.tasks);
      expect(res.json.results).toBe(res.json.data.tasks.length);
      cursor = res.json.data.nextCursor;
    } while (cursor !== null);

    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(full);
    expect(new Set(ids(pages.flat())).size).toBe(7);
  });

  it('gives a null nextCursor when everything fits', async () => {
    const { cookie } = await createSignedInUser(t);
    await createTask(t, cookie);
    const res = await list(cookie, '?limit=50');
    expect(res.json.data.nextCursor).toBeNull();
    expect(res.json.results).toBe(1);
  });

  it('pages within a status and priority filter', async () => {
    const { cookie } = await createSignedInUser(t);
    const done: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(SECOND);
      const task = await createTask(t, cookie, { priority: 'high' });
      await createTask(t, cookie, { priority: 'high' });
      await complete(cookie, task._id);
      done.unshift(task._id);
    }
    const first = await list(cookie, '?status=done&priority=high&limit=2');
    const second = await list(cookie, `?status=done&priority=high&limit=2&cursor=${first.json.data.nextCursor}`);
    const third = await list(cookie, `?status=done&priority=high&limit=2&cursor=${second.json.data.nextCursor}`);
    expect([...ids(first.json.data.tasks), ...ids(second.json.data.tasks), ...ids(third.json.data.tasks)]).toEqual(done);
    expect(third.json.data.nextCursor).toBeNull();
  });
});

describe('GET /api/tasks/counts', () => {
  it('counts my visible tasks per status, optionally per priority', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    await createTask(t, alice.cookie, { priority: 'urgent' });
    const assigned = await createTask(t, bob.cookie, { assignee: alice.user.email, priority: 'urgent' });
    await createTask(t, alice.cookie, { priority: 'low' });
    await complete(alice.cookie, assigned._id);
    await createTask(t, bob.cookie);

    const all = await t.request('GET', '/api/tasks/counts', { cookie: alice.cookie });
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ status: 'success', data: { counts: { todo: 2, done: 1, overdue: 0 } } });
    const urgent = await t.request('GET', '/api/tasks/counts?priority=urgent', { cookie: alice.cookie });
    expect(urgent.json.data.counts).toEqual({ todo: 1, done: 1, overdue: 0 });
    const everything = await t.request('GET', '/api/tasks/counts?priority=', { cookie: alice.cookie });
    expect(everything.json.data.counts).toEqual({ todo: 2, done: 1, overdue: 0 });

    const stranger = await createSignedInUser(t);
    expect((await t.request('GET', '/api/tasks/counts', { cookie: stranger.cookie })).json.data.counts).toEqual({ todo: 0, done: 0, overdue: 0 });
  });

  it('refuses an unknown priority, and answers 401 without a session', async () => {
    const { cookie } = await createSignedInUser(t);
    expect((await t.request('GET', '/api/tasks/counts?priority=meh', { cookie })).status).toBe(400);
    expect((await t.request('GET', '/api/tasks/counts')).status).toBe(401);
  });
});
