import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { useTestApp } from './helpers.ts';

const t = useTestApp();

const remove = (cookie: string | undefined, id: string) => t.request('DELETE', `/api/tasks/${id}`, { cookie });
const NOT_FOUND = { status: 'fail', code: 'NOT_FOUND', message: SERVER_MESSAGES.taskNotFound };

describe('DELETE /api/tasks/:id', () => {
  it('deletes: 204 with an empty body, and the task is gone', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const res = await remove(cookie, task._id);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await t.request('GET', '/api/tasks', { cookie })).json.results).toBe(0);
    const again = await remove(cookie, task._id);
    expect(again.status).toBe(404);
    expect(again.json).toEqual(NOT_FOUND);
  });

  it('lets the assignee delete', async () => {
    const creator = await createSignedInUser(t);
    const assignee = await createSignedInUser(t);
    const task = await createTask(t, creator.cookie, { assignee: assignee.user.email });
    expect((await remove(assignee.cookie, task._id)).status).toBe(204);
  });

  it('answers 404 to a stranger and keeps the task', async () => {
    const owner = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const task = await createTask(t, owner.cookie);
    const res = await remove(stranger.cookie, task._id);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
    expect((await t.request('GET', '/api/tasks', { cookie: owner.cookie })).json.results).toBe(1);
  });

  it.each(['a%00b', 'x'.repeat(64), 'has.dot', '%E2%9C%93'])('answers 404 to the id %j', async (id) => {
    const { cookie } = await createSignedInUser(t);
    const res = await remove(cookie, id);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NOT_FOUND);
  });

  it('answers 401 without a session', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const res = await remove(undefined, task._id);
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('NOT_AUTHENTICATED');
  });
});
