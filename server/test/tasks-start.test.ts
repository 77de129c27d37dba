import { describe, expect, it } from 'vitest';
import { createSignedInUser, createTask } from './factories.ts';
import { DAY, useTestApp } from './helpers.ts';

/** `startAt`: an optional start of a task, never after its deadline when both are set. */
const t = useTestApp();

const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();
const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });

describe('startAt', () => {
  it('is null by default, set on create (any instant, a past one too), read back as UTC', async () => {
    const { cookie } = await createSignedInUser(t);
    expect((await createTask(t, cookie)).startAt).toBeNull();
    const past = inDays(-2);
    const task = await createTask(t, cookie, { startAt: past.replace('Z', '+00:00') });
    expect(task.startAt).toBe(past);
    const read = await t.request('GET', `/api/tasks/${task._id}`, { cookie });
    expect(read.json.data.task.startAt).toBe(past);
    expect((await createTask(t, cookie, { startAt: '' })).startAt).toBeNull();
  });

  it('on create: not after the deadline (400 on startAt), equal is fine, and must be ISO 8601', async () => {
    const { cookie } = await createSignedInUser(t);
    const after = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'Late start', assignee: 'a@example.com', deadline: inDays(1), startAt: inDays(2) } });
    expect([after.status, after.json.code, after.json.errors]).toEqual([400, 'VALIDATION_FAILED', [{ field: 'startAt', message: 'Start cannot be after the deadline.' }]]);
    const bad = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'Bad start', assignee: 'a@example.com', startAt: 'next week' } });
    expect([bad.status, bad.json.errors[0]?.field]).toEqual([400, 'startAt']);
    const day = inDays(1);
    expect((await createTask(t, cookie, { deadline: day, startAt: day })).startAt).toBe(day);
  });

  it('on change: whichever of the two a change sets is refused when the start would be after the deadline', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { deadline: inDays(3) });
    const late = await patch(cookie, task._id, { startAt: inDays(4) });
    expect([late.status, late.json.errors]).toEqual([400, [{ field: 'startAt', message: 'Start cannot be after the deadline.' }]]);
    const ok = await patch(cookie, task._id, { startAt: inDays(1) });
    expect(ok.status, ok.body).toBe(200);
    expect([ok.json.data.task.startAt, ok.json.data.task.version]).toEqual([inDays(1), 2]);
    const early = await patch(cookie, task._id, { deadline: inDays(0.5) });
    expect([early.status, early.json.errors]).toEqual([400, [{ field: 'deadline', message: 'Deadline cannot be before the start.' }]]);
    // Both at once: told on the start.
    const both = await patch(cookie, task._id, { startAt: inDays(6), deadline: inDays(5) });
    expect([both.status, both.json.errors[0]?.field]).toEqual([400, 'startAt']);
    const moved = await patch(cookie, task._id, { startAt: inDays(5), deadline: inDays(6) });
    expect(moved.status, moved.body).toBe(200);
    // Without a deadline any start goes; the same start again is no change.
    const cleared = await patch(cookie, task._id, { deadline: null });
    expect(cleared.json.data.task.version).toBe(4);
    const same = await patch(cookie, task._id, { startAt: inDays(5) });
    expect(same.json.data.task.version).toBe(4);
    const none = await patch(cookie, task._id, { startAt: null });
    expect([none.json.data.task.startAt, none.json.data.task.version]).toEqual([null, 5]);
  });

  it('is in the activity and the task.updated event', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const start = inDays(1);
    expect((await patch(cookie, task._id, { startAt: start })).status).toBe(200);
    const entry = await t.app.db.selectFrom('taskActivity').select('changes').where('taskId', '=', task._id).where('type', '=', 'updated').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.changes ?? '{}')).toEqual({ startAt: { from: null, to: start } });
    const event = await t.app.db.selectFrom('events').select('payload').where('subjectId', '=', task._id).where('type', '=', 'task.updated').executeTakeFirstOrThrow();
    expect((JSON.parse(event.payload) as { task: { startAt: string } }).task.startAt).toBe(start);
  });

  it('goes through a CSV export and import as the startAt column; a start after the deadline is a bad row', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const start = inDays(1);
    const deadline = inDays(2);
    await createTask(t, cookie, { taskTitle: 'Planned', startAt: start, deadline });
    const exported = await t.request('GET', `/api/boards/${user.id}/export.csv`, { cookie });
    expect(exported.body).toContain(`Planned,,`);
    expect(exported.body).toContain(`${deadline},normal,`);
    expect(exported.body).toContain(`,Tasks To Do,${start}\r\n`);
    const csv = (body: string) => t.request('POST', `/api/boards/${user.id}/import.csv`, { cookie, body, headers: { 'content-type': 'text/csv' } });
    const imported = await csv(`taskTitle,assignee,deadline,startAt\nImported,${user.email},${deadline},${start}\n`);
    expect(imported.status, imported.body).toBe(201);
    const row = await t.app.db.selectFrom('tasks').select('startAt').where('taskTitle', '=', 'Imported').executeTakeFirstOrThrow();
    expect(row.startAt).toBe(start);
    const bad = await csv(`taskTitle,assignee,deadline,startAt\nBackwards,${user.email},${start},${deadline}\n`);
    expect([bad.status, bad.json.errors]).toEqual([400, [{ field: 'row 2: startAt', message: 'Start cannot be after the deadline.' }]]);
  });

  it('a repeating task\'s next occurrence keeps the start the same time before its deadline', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const deadline = inDays(3);
    const task = await createTask(t, cookie, { assignee: user.email, deadline, startAt: inDays(1) });
    expect((await patch(cookie, task._id, { repeat: { every: 1, unit: 'week' } })).status).toBe(200);
    expect((await patch(cookie, task._id, { status: 'done' })).status).toBe(200);
    const next = await t.app.db.selectFrom('tasks').select(['deadline', 'startAt']).where('taskTitle', '=', task.taskTitle).where('status', '=', 'todo').executeTakeFirstOrThrow();
    expect(next).toEqual({ deadline: inDays(10), startAt: inDays(8) });
  });
});
