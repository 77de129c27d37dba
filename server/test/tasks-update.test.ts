import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { createSignedInUser, createTask, uniqueEmail } from './factories.ts';
import { anyString, DAY, HOUR, MINUTE, useTestApp } from './helpers.ts';

const t = useTestApp();

const patch = (cookie: string | undefined, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });
const isoIn = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
const NOT_FOUND = { status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.taskNotFound };

describe('PATCH /api/tasks/:id', () => {
  it('changes a subset of fields: 200 with the updated task', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    t.clock.advance(MINUTE);
    const res = await patch(cookie, task._id, { priority: 'high' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      status: 'success',
      message: SERVER_MESSAGES.taskUpdated,
      data: { task: { ...task, priority: 'high', updatedAt: t.clock.now().toISOString(), version: 2 } },
    });
  });

  it('completes a task with {status:"done"}', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const res = await patch(cookie, task._id, { status: 'done' });
    expect(res.json.data.task.status).toBe('done');
    const done = await t.request('GET', '/api/tasks?status=done', { cookie });
    expect(done.json.data.tasks.map((x: Task) => x._id)).toEqual([task._id]);
  });

  it('takes the whole task back, as the original task-board client sends it, ignoring _id, assignor, assignorEmail and timestamps', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const created = await createTask(t, cookie, { deadline: isoIn(HOUR), workTitle: 'Ops' });
    // The deadline has passed by the time the user edits other fields: it is sent back unchanged.
    t.clock.advance(2 * HOUR);
    const listed = (await t.request('GET', '/api/tasks', { cookie })).json.data.tasks[0]!;
    const newAssignee = uniqueEmail('new');
    const draft = {
      ...listed,
      assignee: newAssignee,
      priority: 'low',
      _id: 'something-else',
      assignor: 'Hard Coded Name',
      assignorEmail: 'spoof@evil.test',
      createdAt: '2000-01-01T00:00:00.000Z',
      updatedAt: '2000-01-01T00:00:00.000Z',
      extra: 'ignored',
    };
    const res = await patch(cookie, created._id, draft);
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task).toEqual({
      ...created,
      assignee: newAssignee,
      priority: 'low',
      assignor: user.fullName,
      assignorEmail: user.email,
      updatedAt: t.clock.now().toISOString(),
      version: 2,
    });
  });

  it('refuses a deadline changed to the past, accepts one changed to the future, and clears one with ""', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const past = await patch(cookie, task._id, { deadline: isoIn(-DAY) });
    expect(past.status).toBe(400);
    expect(past.json.errors).toEqual([{ field: 'deadline', message: 'Deadline cannot be in the past.' }]);

    const future = isoIn(DAY);
    expect((await patch(cookie, task._id, { deadline: future })).json.data.task.deadline).toBe(future);
    expect((await patch(cookie, task._id, { deadline: '' })).json.data.task.deadline).toBeNull();
    const local = isoIn(DAY).slice(0, 16);
    expect((await patch(cookie, task._id, { deadline: local })).json.data.task.deadline).toBe(`${local}:00.000Z`);
  });

  it.each([
    ['a short title', { taskTitle: 'no' }, 'taskTitle'],
    ['an invalid assignee', { assignee: 'not-an-address' }, 'assignee'],
    ['an unknown priority', { priority: 'asap' }, 'priority'],
    ['an unknown status', { status: 'archived' }, 'status'],
    ['a long work title', { workTitle: 'w'.repeat(101) }, 'workTitle'],
    ['a malformed deadline', { deadline: '31/12/2031' }, 'deadline'],
  ])('refuses %s with 400 and changes nothing', async (_name, body, field) => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const res = await patch(cookie, task._id, { priority: 'urgent', ...body });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.errors).toEqual([{ field, message: anyString }]);
    const after = (await t.request('GET', '/api/tasks', { cookie })).json.data.tasks[0];
    expect(after).toEqual(task);
  });

  it('leaves updatedAt alone when nothing changes', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    t.clock.advance(MINUTE);
    const res = await patch(cookie, task._id, { taskTitle: task.taskTitle, ignored: true });
    expect(res.status).toBe(200);
    expect(res.json.data.task).toEqual(task);
  });

  it('lets the assignee edit and complete a task', async () => {
    const creator = await createSignedInUser(t);
    const assignee = await createSignedInUser(t);
    const task = await createTask(t, creator.cookie, { assignee: assignee.user.email });
    const res = await patch(assignee.cookie, task._id, { status: 'done' });
    expect(res.status).toBe(200);
    expect(res.json.data.task.assignor).toBe(creator.user.fullName);
  });

  it('answers 404 to a stranger, as for a missing id, and changes nothing', async () => {
    const owner = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const task = await createTask(t, owner.cookie);
    const res = await patch(stranger.cookie, task._id, { status: 'done' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
    const missing = await patch(owner.cookie, 'no-such-task-id', { status: 'done' });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(NOT_FOUND);
    expect((await t.request('GET', '/api/tasks', { cookie: owner.cookie })).json.data.tasks[0]!.status).toBe('todo');
  });

  it('loses the assignee access once the task is reassigned', async () => {
    const creator = await createSignedInUser(t);
    const assignee = await createSignedInUser(t);
    const task = await createTask(t, creator.cookie, { assignee: assignee.user.email });
    expect((await patch(assignee.cookie, task._id, { assignee: uniqueEmail() })).status).toBe(200);
    expect((await patch(assignee.cookie, task._id, { priority: 'high' })).status).toBe(404);
    expect((await t.request('GET', '/api/tasks', { cookie: assignee.cookie })).json.results).toBe(0);
  });

  it('answers 401 without a session', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const res = await patch(undefined, task._id, { status: 'done' });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('NOT_AUTHENTICATED');
  });
});
