import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, createTask } from './factories.ts';
import { useTestApp } from './helpers.ts';

const t = useTestApp();

const patch = (cookie: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request('PATCH', `/api/tasks/${id}`, { cookie, body, headers });
const list = async (cookie: string) => (await t.request('GET', '/api/tasks', { cookie })).json.data.tasks;

describe('task versions', () => {
  it('starts at 1 and goes up by one on every change, but not on a PATCH that changes nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { priority: 'normal' });
    expect(task.version).toBe(1);
    expect((await patch(cookie, task._id, { priority: 'high' })).json.data.task.version).toBe(2);
    expect((await patch(cookie, task._id, { status: 'done' })).json.data.task.version).toBe(3);
    expect((await patch(cookie, task._id, { status: 'done', priority: 'high' })).json.data.task.version).toBe(3);
    expect((await list(cookie))[0]?.version).toBe(3);
  });
});

describe('PATCH with a version', () => {
  it('applies when the version is current (body or If-Match)', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const viaBody = await patch(cookie, task._id, { priority: 'high', version: 1 });
    expect(viaBody.status, viaBody.body).toBe(200);
    const viaHeader = await patch(cookie, task._id, { priority: 'low' }, { 'if-match': '"2"' });
    expect(viaHeader.status, viaHeader.body).toBe(200);
    expect(viaHeader.json.data.task).toMatchObject({ priority: 'low', version: 3 });
  });

  it('answers 409 CONFLICT with the current task and changes nothing when the version is stale', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { priority: 'normal' });
    const theirs = await patch(cookie, task._id, { priority: 'urgent', version: 1 });
    expect(theirs.status).toBe(200);
    const mine = await patch(cookie, task._id, { ...task, taskTitle: 'My stale edit', version: 1 });
    expect(mine.status).toBe(409);
    expect(mine.json).toEqual({
      status: 'fail',
      code: 'CONFLICT',
      message: SERVER_MESSAGES.taskConflict,
      data: { task: theirs.json.data.task },
    });
    expect((await list(cookie))[0]).toEqual(theirs.json.data.task);
    const viaHeader = await patch(cookie, task._id, { priority: 'low' }, { 'if-match': 'W/"1"' });
    expect(viaHeader.status).toBe(409);
    expect(viaHeader.json.data.task.version).toBe(2);
  });

  it('without a version applies as before (last write wins)', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    await patch(cookie, task._id, { priority: 'urgent' });
    const res = await patch(cookie, task._id, { priority: 'low' });
    expect(res.status).toBe(200);
    expect(res.json.data.task).toMatchObject({ priority: 'low', version: 3 });
  });

  it('gives exactly one of two concurrent writes based on the same version', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const answers = await Promise.all(
      ['urgent', 'high', 'low', 'urgent', 'high'].map((priority) => patch(cookie, task._id, { priority, version: 1 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await list(cookie))[0]?.version).toBe(2);
  });

  it('refuses a version of the wrong type, a bad If-Match, and a body and header that disagree', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    for (const version of [0, -1, 1.5, 'one']) {
      const res = await patch(cookie, task._id, { priority: 'high', version });
      expect(res.status, JSON.stringify(version)).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
    }
    const bad = await patch(cookie, task._id, { priority: 'high' }, { 'if-match': 'version one' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(SERVER_MESSAGES.ifMatchInvalid);
    const mismatch = await patch(cookie, task._id, { priority: 'high', version: 1 }, { 'if-match': '"2"' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.errors).toEqual([{ field: 'version', message: SERVER_MESSAGES.versionMismatch }]);
    expect((await list(cookie))[0]?.version).toBe(1);
  });

  it('still answers 404 for a task the user cannot see, whatever the version', async () => {
    const owner = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const task = await createTask(t, owner.cookie);
    const res = await patch(other.cookie, task._id, { priority: 'high', version: 7 });
    expect(res.status).toBe(404);
  });
});

describe('DELETE with a version', () => {
  it('deletes when ?version= is current, and answers 409 with the current task when it is not', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const changed = await patch(cookie, task._id, { priority: 'urgent' });
    const stale = await t.request('DELETE', `/api/tasks/${task._id}?version=1`, { cookie });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ code: 'CONFLICT', data: { task: changed.json.data.task } });
    expect(await list(cookie)).toHaveLength(1);
    const viaHeader = await t.request('DELETE', `/api/tasks/${task._id}`, { cookie, headers: { 'if-match': '"1"' } });
    expect(viaHeader.status).toBe(409);
    const ok = await t.request('DELETE', `/api/tasks/${task._id}?version=2`, { cookie });
    expect(ok.status).toBe(204);
    expect(await list(cookie)).toHaveLength(0);
  });

  it('refuses a version that is not a positive whole number', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const res = await t.request('DELETE', `/api/tasks/${task._id}?version=abc`, { cookie });
    expect(res.status).toBe(400);
    expect(await list(cookie)).toHaveLength(1);
  });
});
