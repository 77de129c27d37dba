import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { createSignedInUser, uniqueEmail } from './factories.ts';
import { anyString, DAY, HOUR, SECOND, useTestApp } from './helpers.ts';

const t = useTestApp();

const create = (cookie: string | undefined, body: unknown) => t.request('POST', '/api/tasks', { body, cookie });
const isoIn = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

describe('POST /api/tasks', () => {
  it('creates the task: 201 with the whole task, the signed-in user as assignor', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const assignee = uniqueEmail('Someone');
    const res = await create(cookie, { taskTitle: '  Write the report  ', assignee: ` ${assignee.toUpperCase()} ` });
    expect(res.status).toBe(201);
    const now = t.clock.now().toISOString();
    expect(res.json).toEqual({
      status: 'success',
      message: SERVER_MESSAGES.taskCreated,
      data: {
        task: {
          _id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) as string,
          workTitle: '',
          taskTitle: 'Write the report',
          assignee: assignee.toLowerCase(),
          assignor: user.fullName,
          assignorEmail: user.email,
          deadline: null,
          startAt: null,
          priority: 'normal',
          status: 'todo',
          description: '',
          createdAt: now,
          updatedAt: now,
          version: 1,
          boardId: user.id,
          labels: [],
          checklist: { done: 0, total: 0 },
          repeat: null,
          columnId: expect.any(String) as string,
          position: expect.any(String) as string,
          attachmentCount: 0,
          cover: null,
        },
      },
    });
  });

  it('ignores an assignor sent by the client, and unknown fields', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await create(cookie, {
      taskTitle: 'Spoof attempt',
      assignee: uniqueEmail(),
      assignor: 'Mallory',
      assignorEmail: 'mallory@evil.test',
      _id: 'chosen-id',
      createdAt: '2000-01-01T00:00:00.000Z',
      colour: 'red',
    });
    expect(res.status).toBe(201);
    const task = res.json.data.task;
    expect(task.assignor).toBe(user.fullName);
    expect(task.assignorEmail).toBe(user.email);
    expect(task.status).toBe('todo');
    expect(task._id).not.toBe('chosen-id');
    expect(task.createdAt).toBe(t.clock.now().toISOString());
    expect(task).not.toHaveProperty('colour');
  });

  it('keeps work title, priority and deadline', async () => {
    const { cookie } = await createSignedInUser(t);
    const deadline = isoIn(2 * DAY);
    const res = await create(cookie, { taskTitle: 'Plan', assignee: uniqueEmail(), workTitle: ' Q3 ', priority: 'urgent', deadline });
    expect(res.json.data.task).toMatchObject({ workTitle: 'Q3', priority: 'urgent', deadline });
  });

  it('reads a deadline without offset as UTC and normalizes one with an offset', async () => {
    const { cookie } = await createSignedInUser(t);
    const local = isoIn(DAY).slice(0, 16); // "YYYY-MM-DDTHH:mm", what <input type=datetime-local> sends
    const res = await create(cookie, { taskTitle: 'Local time', assignee: uniqueEmail(), deadline: local });
    expect(res.json.data.task.deadline).toBe(`${local}:00.000Z`);

    const withOffset = await create(cookie, { taskTitle: 'Offset', assignee: uniqueEmail(), deadline: '2031-03-12T10:00:00+02:00' });
    expect(withOffset.json.data.task.deadline).toBe('2031-03-12T08:00:00.000Z');
  });

  it.each([['an empty string', ''], ['null', null]])('treats %s as no deadline', async (_name, deadline) => {
    const { cookie } = await createSignedInUser(t);
    const res = await create(cookie, { taskTitle: 'No rush', assignee: uniqueEmail(), deadline });
    expect(res.status).toBe(201);
    expect(res.json.data.task.deadline).toBeNull();
  });

  it('accepts a deadline in the current minute and refuses one in the past', async () => {
    const { cookie } = await createSignedInUser(t);
    t.clock.advance(30 * SECOND);
    const minuteStart = new Date(Math.floor(t.clock.now().getTime() / 60_000) * 60_000);
    expect((await create(cookie, { taskTitle: 'Now', assignee: uniqueEmail(), deadline: minuteStart.toISOString() })).status).toBe(201);

    const past = await create(cookie, { taskTitle: 'Too late', assignee: uniqueEmail(), deadline: isoIn(-HOUR) });
    expect(past.status).toBe(400);
    expect(past.json).toEqual({
      status: 'fail',
      code: 'VALIDATION_FAILED',
      message: 'Deadline cannot be in the past.',
      errors: [{ field: 'deadline', message: 'Deadline cannot be in the past.' }],
    });
  });

  it.each([
    ['a title shorter than 3 characters after trimming', { taskTitle: '  ab  ' }, 'taskTitle'],
    ['a title over 200 characters', { taskTitle: 'x'.repeat(201) }, 'taskTitle'],
    ['an assignee that is not an e-mail address', { assignee: 'bob' }, 'assignee'],
    ['an unknown priority', { priority: 'whenever' }, 'priority'],
    ['a work title over 100 characters', { workTitle: 'x'.repeat(101) }, 'workTitle'],
    ['a deadline that is not a date-time', { deadline: 'next tuesday' }, 'deadline'],
    ['a deadline on a day the month does not have', { deadline: '2031-02-30T10:00' }, 'deadline'],
    ['a missing title', { taskTitle: undefined }, 'taskTitle'],
  ])('refuses %s with 400 naming the field', async (_name, override, field) => {
    const { cookie } = await createSignedInUser(t);
    const res = await create(cookie, { taskTitle: 'Valid title', assignee: uniqueEmail(), ...override });
    expect(res.status).toBe(400);
    expect(res.json.status).toBe('fail');
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.errors).toEqual([{ field, message: anyString }]);
    expect(res.json.message).toBe(res.json.errors[0]!.message);
  });

  it('lists every invalid field at once, and writes nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await create(cookie, { taskTitle: 'x', assignee: uniqueEmail(), workTitle: 'w'.repeat(101), deadline: isoIn(-DAY) });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(SERVER_MESSAGES.validationFailed);
    expect(res.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['deadline', 'taskTitle', 'workTitle']);
    const list = await t.request('GET', '/api/tasks', { cookie });
    expect(list.json.results).toBe(0);
  });

  it('answers 401 without a session', async () => {
    const res = await create(undefined, { taskTitle: 'Anonymous', assignee: uniqueEmail() });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('NOT_AUTHENTICATED');
  });
});
