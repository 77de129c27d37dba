import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { lastEventId } from './boards-support.ts';
import { createSignedInUser, createTask, createUser, insertBoard, insertTasks } from './factories.ts';
import { insertLabels, labelsTeam } from './labels-support.ts';
import { DAY, isPostgres, useTestApp } from './helpers.ts';
import { withRoundTrips } from './round-trips.ts';
import { addWebhook, deliveryRows } from './webhooks-support.ts';

/**
 * POST /api/tasks/bulk: one kind of change to many tasks, all or nothing; each task changed as
 * if alone (version, activity, event, webhooks); one assignment mail per assignee.
 */
const t = useTestApp();

const bulk = (cookie: string, taskIds: string[], change: unknown) => t.request('POST', '/api/tasks/bulk', { cookie, body: { taskIds, change } });
const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();

/** A team board with `n` tasks created by its admin (the first created is the first id). */
async function teamWithTasks(n: number) {
  const team = await labelsTeam(t);
  const tasks: Task[] = [];
  for (let i = 0; i < n; i += 1) tasks.push(await createTask(t, team.admin.cookie, { boardId: team.board.id, taskTitle: `Bulk task ${i}` }));
  return { ...team, tasks, ids: tasks.map((task) => task._id) };
}

/** Everything a bulk change could touch, to compare before and after a refusal. */
async function snapshot() {
  const tasks = await t.app.db.selectFrom('tasks').selectAll().orderBy('id').execute();
  const labels = await t.app.db.selectFrom('taskLabels').selectAll().orderBy('taskId').orderBy('labelId').execute();
  const activity = await t.app.db.selectFrom('taskActivity').select('id').orderBy('id').execute();
  const outbox = await t.app.db.selectFrom('outbox').select('id').orderBy('id').execute();
  return { tasks, labels, activity, outbox, lastEvent: await lastEventId(t) };
}

/** The task events written after event `after`, by task id. */
async function taskEventsAfter(after: number) {
  const rows = await t.app.db.selectFrom('events').select(['type', 'subjectId']).where('id', '>', after).where('type', 'like', 'task.%').orderBy('id').execute();
  return rows;
}

const tasksOf = (res: { json: { data: { tasks: Task[] } } }) => res.json.data.tasks;

describe('POST /api/tasks/bulk: each kind of change', () => {
  it('status: every task completed, at the top of the done column in the order of taskIds, each with its version, activity and event', async () => {
    const { admin, ids, board } = await teamWithTasks(3);
    const after = await lastEventId(t);
    const res = await bulk(admin.cookie, ids, { status: 'done' });
    expect(res.status, res.body).toBe(200);
    const tasks = tasksOf(res);
    expect(tasks.map((task) => [task._id, task.status, task.version])).toEqual(ids.map((id) => [id, 'done', 2]));
    const done = await t.app.db.selectFrom('boardColumns').select('id').where('boardId', '=', board.id).where('category', '=', 'done').executeTakeFirstOrThrow();
    const column = await t.app.db.selectFrom('tasks').select('id').where('columnId', '=', done.id).orderBy('position').execute();
    expect(column.map((row) => row.id)).toEqual(ids);
    const events = await taskEventsAfter(after);
    expect(events).toEqual(ids.map((id) => ({ type: 'task.updated', subjectId: id })));
    const completed = await t.app.db.selectFrom('taskActivity').select('taskId').where('type', '=', 'completed').where('taskId', 'in', ids).execute();
    expect(completed).toHaveLength(3);
  });

  it('columnId: to the top of that column, keeping the order of taskIds; tasks already there move up too', async () => {
    const { admin, ids, board } = await teamWithTasks(3);
    const done = await t.app.db.selectFrom('boardColumns').select('id').where('boardId', '=', board.id).where('category', '=', 'done').executeTakeFirstOrThrow();
    const first = await bulk(admin.cookie, [ids[2]!], { columnId: done.id });
    expect(first.status, first.body).toBe(200);
    const res = await bulk(admin.cookie, [ids[0]!, ids[1]!, ids[2]!], { columnId: done.id });
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).map((task) => [task.columnId, task.status])).toEqual(ids.map(() => [done.id, 'done']));
    // The one already in the column is not moved again.
    expect(tasksOf(res)[2]?.version).toBe(2);
    const column = await t.app.db.selectFrom('tasks').select('id').where('columnId', '=', done.id).orderBy('position').execute();
    expect(column.map((row) => row.id)).toEqual([ids[0], ids[1], ids[2]]);
  });

  it('assignee: one mail for the whole change, counted once against the sender; each task its own event', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createUser(t);
    const board = await insertBoard(t, ada.user);
    const tasks: Task[] = [];
    for (let i = 0; i < 12; i += 1) tasks.push(await createTask(t, ada.cookie, { boardId: board.id, assignee: ada.user.email, taskTitle: `Invoice ${i}` }));
    const ids = tasks.map((task) => task._id);
    const after = await lastEventId(t);
    const res = await bulk(ada.cookie, ids, { assignee: bob.email.toUpperCase() });
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).every((task) => task.assignee === bob.email && task.version === 2)).toBe(true);
    expect(await taskEventsAfter(after)).toHaveLength(12);
    const rows = await t.app.db.selectFrom('outbox').select(['toEmail', 'subject']).where('causedBy', '=', ada.user.id).where('kind', '=', 'assigned').execute();
    expect(rows).toEqual([{ toEmail: bob.email, subject: 'Ada Lovelace assigned you 12 tasks' }]);
    await t.app.outbox.drain();
    const mails = t.mail.to(bob.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('Task: Invoice 0');
    expect(mails[0]?.text).toContain('Task: Invoice 11');
  });

  it('assignee of one task: the usual single assignment mail', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createUser(t);
    const task = await createTask(t, ada.cookie, { assignee: ada.user.email, taskTitle: 'Only one' });
    const res = await bulk(ada.cookie, [task._id], { assignee: bob.email });
    expect(res.status, res.body).toBe(200);
    await t.app.outbox.drain();
    expect(t.mail.to(bob.email).map((m) => m.subject)).toEqual(['Ada Lovelace assigned you: Only one']);
  });

  it('priority: each task changed, with a webhook delivery per task', async () => {
    const { admin, ids, board } = await teamWithTasks(3);
    const { webhook } = await addWebhook(t, admin.cookie, board.id, 'https://hooks.example.invalid/bulk', ['task.updated']);
    const res = await bulk(admin.cookie, ids, { priority: 'urgent' });
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).map((task) => task.priority)).toEqual(['urgent', 'urgent', 'urgent']);
    const deliveries = await deliveryRows(t, webhook._id);
    expect(deliveries.map((row) => (JSON.parse(row.textBody) as { data: { task: { _id: string } } }).data.task._id).toSorted()).toEqual([...ids].toSorted());
  });

  it('deadline: set and cleared; activity says from and to', async () => {
    const { admin, ids } = await teamWithTasks(2);
    const deadline = inDays(3);
    const res = await bulk(admin.cookie, ids, { deadline });
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).map((task) => task.deadline)).toEqual([deadline, deadline]);
    const entries = await t.app.db.selectFrom('taskActivity').select('changes').where('type', '=', 'updated').where('taskId', 'in', ids).execute();
    expect(entries.map((e) => JSON.parse(e.changes ?? '{}') as unknown)).toEqual([{ deadline: { from: null, to: deadline } }, { deadline: { from: null, to: deadline } }]);
    const cleared = await bulk(admin.cookie, ids, { deadline: null });
    expect(tasksOf(cleared).map((task) => [task.deadline, task.version])).toEqual([[null, 3], [null, 3]]);
  });

  it('addLabelIds and removeLabelIds: added to and taken from what each task has', async () => {
    const { admin, ids, board } = await teamWithTasks(2);
    const [red, blue] = await insertLabels(t, board.id, 'Red', 'Blue');
    const add = await bulk(admin.cookie, ids, { addLabelIds: [red!._id, blue!._id] });
    expect(add.status, add.body).toBe(200);
    expect(tasksOf(add).map((task) => task.labels.map((l) => l.name))).toEqual([['Blue', 'Red'], ['Blue', 'Red']]);
    const remove = await bulk(admin.cookie, ids, { removeLabelIds: [red!._id] });
    expect(remove.status, remove.body).toBe(200);
    expect(tasksOf(remove).map((task) => [task.labels.map((l) => l.name), task.version])).toEqual([[['Blue'], 3], [['Blue'], 3]]);
  });

  it('boardId: moved to the top of the first column of their status on that board, labels dropped', async () => {
    const { admin, ids, board } = await teamWithTasks(2);
    const [red] = await insertLabels(t, board.id, 'Red');
    expect((await bulk(admin.cookie, ids, { addLabelIds: [red!._id] })).status).toBe(200);
    const other = await insertBoard(t, admin.user);
    const res = await bulk(admin.cookie, ids, { boardId: other.id });
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).map((task) => [task.boardId, task.labels])).toEqual([[other.id, []], [other.id, []]]);
    const todo = await t.app.db.selectFrom('boardColumns').select('id').where('boardId', '=', other.id).where('category', '=', 'todo').executeTakeFirstOrThrow();
    const column = await t.app.db.selectFrom('tasks').select('id').where('columnId', '=', todo.id).orderBy('position').execute();
    expect(column.map((row) => row.id)).toEqual(ids);
  });

  it('delete: every task deleted, a task.deleted event each; repeated ids count once', async () => {
    const { admin, ids } = await teamWithTasks(3);
    const after = await lastEventId(t);
    const res = await bulk(admin.cookie, [...ids, ids[0]!], { delete: true });
    expect(res.status, res.body).toBe(200);
    expect(res.json.data).toEqual({ deleted: 3 });
    expect(await t.app.db.selectFrom('tasks').select('id').where('id', 'in', ids).execute()).toEqual([]);
    expect((await taskEventsAfter(after)).map((e) => e.type)).toEqual(['task.deleted', 'task.deleted', 'task.deleted']);
  });
});

describe('POST /api/tasks/bulk: WIP limits, repeating tasks, round trips', () => {
  it('a move that leaves a column over its WIP limit: done, with the warning in message (as a single move)', async () => {
    const { admin, ids, board } = await teamWithTasks(3);
    const add = await t.request('POST', `/api/boards/${board.id}/columns`, { cookie: admin.cookie, body: { name: 'Review', category: 'todo', wipLimit: 2 } });
    expect(add.status, add.body).toBe(201);
    const review = (add.json.data as unknown as { column: { _id: string } }).column;
    const within = await bulk(admin.cookie, ids.slice(0, 2), { columnId: review._id });
    expect([within.status, within.json.message]).toEqual([200, '2 tasks changed.']);
    const over = await bulk(admin.cookie, ids, { columnId: review._id });
    expect([over.status, over.json.message]).toEqual([200, '"Review" now holds 3 tasks, over its WIP limit of 2.']);
    expect(tasksOf(over).map((task) => task.columnId)).toEqual([review._id, review._id, review._id]);
    // A change that moves nothing says nothing of the limit.
    const priority = await bulk(admin.cookie, ids, { priority: 'high' });
    expect([priority.status, priority.json.message]).toEqual([200, '3 tasks changed.']);
    // A status change puts the tasks in the first column of that status: its limit warns too.
    const done = await t.app.db.selectFrom('boardColumns').select(['id', 'name']).where('boardId', '=', board.id).where('category', '=', 'done').executeTakeFirstOrThrow();
    await t.app.db.updateTable('boardColumns').set({ wipLimit: 1 }).where('id', '=', done.id).execute();
    const completed = await bulk(admin.cookie, ids, { status: 'done' });
    expect([completed.status, completed.json.message]).toEqual([200, `"${done.name}" now holds 3 tasks, over its WIP limit of 1.`]);
  });

  it('status done: a repeating task gets its next occurrence and stops repeating, the others are completed alike', async () => {
    const { admin, ids, board } = await teamWithTasks(2);
    const repeatingTask = async (taskTitle: string) => {
      const created = await createTask(t, admin.cookie, { boardId: board.id, taskTitle, deadline: inDays(2) });
      const patched = await t.request('PATCH', `/api/tasks/${created._id}`, { cookie: admin.cookie, body: { repeat: { every: 1, unit: 'week' } } });
      expect(patched.status, patched.body).toBe(200);
      return (patched.json.data as unknown as { task: Task }).task;
    };
    const repeating = await repeatingTask('Weekly report');
    const other = await repeatingTask('Weekly review');
    const all = [ids[0]!, repeating._id, ids[1]!, other._id];
    const after = await lastEventId(t);
    const res = await bulk(admin.cookie, all, { status: 'done' });
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).map((task) => [task._id, task.status, task.version, task.repeat])).toEqual(all.map((id) => [id, 'done', id === repeating._id || id === other._id ? 3 : 2, null]));
    const next = await t.app.db.selectFrom('tasks').select(['status', 'deadline', 'repeatEvery', 'repeatUnit']).where('taskTitle', '=', 'Weekly report').where('id', '<>', repeating._id).execute();
    expect(next).toEqual([{ status: 'todo', deadline: inDays(9), repeatEvery: 1, repeatUnit: 'week' }]);
    const nextReview = await t.app.db.selectFrom('tasks').select('status').where('taskTitle', '=', 'Weekly review').where('id', '<>', other._id).execute();
    expect(nextReview).toEqual([{ status: 'todo' }]);
    const events = await taskEventsAfter(after);
    expect(events.filter((e) => e.type === 'task.updated').map((e) => e.subjectId).toSorted()).toEqual([...all].toSorted());
    expect(events.filter((e) => e.type === 'task.created')).toHaveLength(2);
  });

  it('each task gets what a change of it alone gets: the same activity, events, notifications and webhook deliveries as PATCHes one by one', async () => {
    const { admin, member, board } = await labelsTeam(t);
    await addWebhook(t, admin.cookie, board.id, 'https://hooks.example.invalid/same', ['task.updated']);
    const make = async () => {
      const tasks: Task[] = [];
      for (let i = 0; i < 3; i += 1) tasks.push(await createTask(t, admin.cookie, { boardId: board.id, taskTitle: `Same ${i}`, assignee: admin.user.email }));
      return tasks.map((task) => task._id);
    };
    const alone = await make();
    const together = await make();
    const deadline = inDays(4);
    for (const id of alone) {
      const res = await t.request('PATCH', `/api/tasks/${id}`, { cookie: admin.cookie, body: { assignee: member.user.email } });
      expect(res.status, res.body).toBe(200);
      const dated = await t.request('PATCH', `/api/tasks/${id}`, { cookie: admin.cookie, body: { deadline } });
      expect(dated.status, dated.body).toBe(200);
      const done = await t.request('PATCH', `/api/tasks/${id}`, { cookie: admin.cookie, body: { status: 'done' } });
      expect(done.status, done.body).toBe(200);
    }
    expect((await bulk(admin.cookie, together, { assignee: member.user.email })).status).toBe(200);
    expect((await bulk(admin.cookie, together, { deadline })).status).toBe(200);
    expect((await bulk(admin.cookie, together, { status: 'done' })).status).toBe(200);
    /** What the writes stored for each task, without ids and times. */
    const stored = async (ids: string[]) =>
      Promise.all(
        ids.map(async (id) => {
          const activity = await t.app.db.selectFrom('taskActivity').select(['type', 'changes', 'actorEmail']).where('taskId', '=', id).orderBy('seq').execute();
          const notifications = await t.app.db.selectFrom('notifications').select(['userId', 'type', 'text', 'taskTitle']).where('taskId', '=', id).orderBy('createdAt').execute();
          const events = await t.app.db.selectFrom('events').select(['type', 'audience', 'boardId']).where('subjectId', '=', id).orderBy('id').execute();
          const hooks = await t.app.db.selectFrom('outbox').select(['subject', 'textBody']).where('kind', '=', 'webhook').execute();
          // `next_reminder_at` is the reminder schedule's own column, outside the table's type.
          const task = await t.app.db
            .$extendTables<{ tasks: { nextReminderAt: string | null } }>()
            .selectFrom('tasks')
            .select(['status', 'assigneeEmail', 'version', 'columnId', 'deadline', 'nextReminderAt'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          return {
            task,
            activity: activity.map((a) => ({ ...a, changes: JSON.parse(a.changes ?? 'null') as unknown })),
            notifications,
            events,
            hooks: hooks.filter((h) => h.textBody.includes(id)).map((h) => h.subject),
          };
        }),
      );
    expect(await stored(together)).toEqual(await stored(alone));
  });

  it.runIf(isPostgres)('500 tasks on PostgreSQL: at most 10 round trips for a change, a move, labels and a delete', async () => {
    await withRoundTrips(t, async (trips) => {
      // Each change is counted once, so the outbox's poll (two claims every 2 s, whatever the
      // calls do) must not land inside one: a bulk change under a busy machine's load can take
      // long enough for it. Nothing here sends mail or webhooks.
      await t.app.outbox.stop();
      const ada = await createSignedInUser(t);
      const ids = await insertTasks(t, ada.user, 500);
      const [label] = await insertLabels(t, ada.user.id, 'Bug');
      const counted = async (change: unknown) => {
        const before = trips();
        const res = await bulk(ada.cookie, ids, change);
        expect(res.status, res.body).toBe(200);
        return { trips: trips() - before, res };
      };
      const priority = await counted({ priority: 'urgent' });
      expect(tasksOf(priority.res).every((task) => task.priority === 'urgent' && task.version === 2)).toBe(true);
      const status = await counted({ status: 'done' });
      expect(tasksOf(status.res).every((task) => task.status === 'done' && task.version === 3)).toBe(true);
      const labels = await counted({ addLabelIds: [label!._id] });
      expect(tasksOf(labels.res).every((task) => task.labels.length === 1 && task.version === 4)).toBe(true);
      const removed = await counted({ delete: true });
      expect(removed.res.json.data).toEqual({ deleted: 500 });
      const figures = { priority: priority.trips, status: status.trips, labels: labels.trips, delete: removed.trips };
      for (const n of Object.values(figures)) expect(n, JSON.stringify(figures)).toBeLessThanOrEqual(10);
    });
  });
});

describe('POST /api/tasks/bulk: refusals change nothing', () => {
  it('more than 500 ids: 400 before anything is looked up', async () => {
    const { admin, ids } = await teamWithTasks(1);
    const before = await snapshot();
    const res = await bulk(admin.cookie, [...ids, ...Array.from({ length: 500 }, (_, i) => `missing${i}`)], { priority: 'low' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(await snapshot()).toEqual(before);
  });

  it('more than one kind of change, or none: 400', async () => {
    const { admin, ids } = await teamWithTasks(1);
    const before = await snapshot();
    expect((await bulk(admin.cookie, ids, { priority: 'low', status: 'done' })).status).toBe(400);
    expect((await bulk(admin.cookie, ids, {})).status).toBe(400);
    expect((await bulk(admin.cookie, ids, { delete: false })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('a missing task: 404 naming it, and the tasks before it are not changed', async () => {
    const { admin, ids } = await teamWithTasks(2);
    const before = await snapshot();
    const missing = 'AAAAAAAAAAAAAAAAAAAAAA';
    const res = await bulk(admin.cookie, [...ids, missing], { priority: 'urgent' });
    expect(res.status, res.body).toBe(404);
    expect(res.json.data).toEqual({ taskId: missing });
    expect(res.json.message).toContain(missing);
    expect(await snapshot()).toEqual(before);
  });

  it("a task the caller cannot see: 404 naming it by id (its title is not told)", async () => {
    const { admin, ids } = await teamWithTasks(1);
    const stranger = await createSignedInUser(t);
    const hidden = await createTask(t, stranger.cookie, { taskTitle: 'Secret plan' });
    const before = await snapshot();
    const res = await bulk(admin.cookie, [...ids, hidden._id], { delete: true });
    expect(res.status).toBe(404);
    expect(res.json.data).toEqual({ taskId: hidden._id });
    expect(res.json.message).not.toContain('Secret plan');
    expect(await snapshot()).toEqual(before);
  });

  it('a task the caller may not edit (a viewer): 403 naming it', async () => {
    const { viewer, ids, tasks } = await teamWithTasks(2);
    const before = await snapshot();
    const res = await bulk(viewer.cookie, ids, { status: 'done' });
    expect(res.status).toBe(403);
    expect(res.json.data).toEqual({ taskId: ids[0] });
    expect(res.json.message).toContain(tasks[0]!.taskTitle);
    expect(await snapshot()).toEqual(before);
  });

  it('a change not valid for one task: 400 naming it (a column of another board, a deadline before its start, a label of another board, too many labels)', async () => {
    const { admin, ids, tasks, board } = await teamWithTasks(2);
    const start = inDays(5);
    const late = await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'Starts late', startAt: start, deadline: inDays(6) });
    const elsewhere = await createTask(t, admin.cookie, { taskTitle: 'On my own board' });
    const done = await t.app.db.selectFrom('boardColumns').select('id').where('boardId', '=', board.id).where('category', '=', 'done').executeTakeFirstOrThrow();
    const labels = await insertLabels(t, board.id, ...Array.from({ length: 11 }, (_, i) => `L${i}`));
    const before = await snapshot();

    const column = await bulk(admin.cookie, [...ids, elsewhere._id], { columnId: done.id });
    expect([column.status, column.json.data, column.json.errors[0]?.field]).toEqual([400, { taskId: elsewhere._id }, 'columnId']);
    expect(column.json.message).toContain('On my own board');

    const deadline = await bulk(admin.cookie, [...ids, late._id], { deadline: inDays(2) });
    expect([deadline.status, deadline.json.data, deadline.json.errors[0]?.field]).toEqual([400, { taskId: late._id }, 'deadline']);

    const label = await bulk(admin.cookie, [ids[0]!, elsewhere._id], { addLabelIds: [labels[0]!._id] });
    expect([label.status, label.json.data, label.json.errors[0]?.field]).toEqual([400, { taskId: elsewhere._id }, 'labelIds']);

    expect((await bulk(admin.cookie, [ids[0]!], { addLabelIds: labels.slice(0, 10).map((l) => l._id) })).status).toBe(200);
    const before2 = await snapshot();
    const tooMany = await bulk(admin.cookie, [ids[1]!, ids[0]!], { addLabelIds: [labels[10]!._id] });
    expect([tooMany.status, tooMany.json.data]).toEqual([400, { taskId: ids[0] }]);
    expect(tooMany.json.message).toContain(tasks[0]!.taskTitle);
    expect(await snapshot()).toEqual(before2);
    expect(before2.tasks.filter((row) => row.id !== ids[0])).toEqual(before.tasks.filter((row) => row.id !== ids[0]));
  });

  it('a change invalid in itself (a past deadline, a bad address): 400 before any task is read; 401 without a session', async () => {
    const { admin, ids } = await teamWithTasks(1);
    const before = await snapshot();
    const past = await bulk(admin.cookie, ids, { deadline: new Date(t.clock.now().getTime() - DAY).toISOString() });
    expect([past.status, past.json.errors[0]?.field]).toEqual([400, 'deadline']);
    const address = await bulk(admin.cookie, ids, { assignee: 'not-an-address' });
    expect(address.status).toBe(400);
    expect((await t.request('POST', '/api/tasks/bulk', { body: { taskIds: ids, change: { priority: 'low' } } })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });
});

describe('POST /api/tasks/bulk: versions (an undo must not overwrite a later change)', () => {
  const bulkAt = (cookie: string, taskIds: string[], change: unknown, versions: unknown) => t.request('POST', '/api/tasks/bulk', { cookie, body: { taskIds, change, versions } });
  const patch = async (cookie: string, id: string, body: unknown) => {
    const res = await t.request('PATCH', `/api/tasks/${id}`, { cookie, body });
    expect(res.status, res.body).toBe(200);
    return (res.json.data as unknown as { task: Task }).task;
  };

  it('every task at its given version: the change is made, as without versions', async () => {
    const { admin, ids, tasks } = await teamWithTasks(3);
    await patch(admin.cookie, ids[1]!, { priority: 'low' });
    const res = await bulkAt(admin.cookie, ids, { priority: 'urgent' }, [tasks[0]!.version, tasks[1]!.version + 1, tasks[2]!.version]);
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).map((task) => [task._id, task.priority, task.version])).toEqual([
      [ids[0], 'urgent', 2],
      [ids[1], 'urgent', 3],
      [ids[2], 'urgent', 2],
    ]);
  });

  it('the undo of a change with the versions its answer gave: refused with 409 CONFLICT naming the task someone changed since, and nothing changes', async () => {
    const { admin, member, ids } = await teamWithTasks(3);
    const changed = await bulk(admin.cookie, ids, { priority: 'urgent' });
    expect(changed.status, changed.body).toBe(200);
    const versions = tasksOf(changed).map((task) => task.version);
    // Someone else changes the second task after the bulk change.
    const theirs = await patch(member.cookie, ids[1]!, { priority: 'low', taskTitle: 'Renamed by Member' });
    const before = await snapshot();
    const undo = await bulkAt(admin.cookie, ids, { priority: 'normal' }, versions);
    expect(undo.status, undo.body).toBe(409);
    expect(undo.json.code).toBe('CONFLICT');
    const data = undo.json.data as unknown as { taskId: string; task: Task };
    expect(data.taskId).toBe(ids[1]);
    expect([data.task._id, data.task.priority, data.task.version, data.task.taskTitle]).toEqual([ids[1], 'low', theirs.version, 'Renamed by Member']);
    expect(undo.json.message).toContain('“Renamed by Member”');
    expect(await snapshot()).toEqual(before);
    const rows = await t.app.db.selectFrom('tasks').select(['id', 'priority', 'version']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.toSorted((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))).toEqual([
      { id: ids[0], priority: 'urgent', version: 2 },
      { id: ids[1], priority: 'low', version: 3 },
      { id: ids[2], priority: 'urgent', version: 2 },
    ]);
    // With the current versions the undo goes through.
    const retried = await bulkAt(admin.cookie, ids, { priority: 'normal' }, [2, 3, 2]);
    expect(retried.status, retried.body).toBe(200);
  });

  it('the change made, sent again with the versions its answer gave, writes nothing (a check of the versions before an undo of several requests)', async () => {
    const { admin, member, ids, board } = await teamWithTasks(2);
    const [label] = await insertLabels(t, board.id, 'Bug');
    const done = await t.app.db.selectFrom('boardColumns').select('id').where('boardId', '=', board.id).where('category', '=', 'done').executeTakeFirstOrThrow();
    const other = await t.request('POST', '/api/boards', { cookie: admin.cookie, body: { name: 'Elsewhere' } });
    expect(other.status, other.body).toBe(201);
    const otherBoard = (other.json.data as unknown as { board: { _id: string } }).board;
    for (const change of [
      { priority: 'urgent' },
      { columnId: done.id },
      { status: 'todo' },
      { addLabelIds: [label!._id] },
      { removeLabelIds: [label!._id] },
      { deadline: inDays(3) },
      { assignee: member.user.email },
      { boardId: otherBoard._id },
    ]) {
      const made = await bulk(admin.cookie, ids, change);
      expect(made.status, made.body).toBe(200);
      const before = await snapshot();
      const again = await bulkAt(admin.cookie, ids, change, tasksOf(made).map((task) => task.version));
      expect(again.status, again.body).toBe(200);
      expect(tasksOf(again).map((task) => task.version), JSON.stringify(change)).toEqual(tasksOf(made).map((task) => task.version));
      expect(await snapshot(), JSON.stringify(change)).toEqual(before);
    }
  });

  it('a delete and a move check the versions too', async () => {
    const { admin, ids, board } = await teamWithTasks(2);
    await patch(admin.cookie, ids[0]!, { priority: 'high' });
    const done = await t.app.db.selectFrom('boardColumns').select('id').where('boardId', '=', board.id).where('category', '=', 'done').executeTakeFirstOrThrow();
    const before = await snapshot();
    const removed = await bulkAt(admin.cookie, ids, { delete: true }, [1, 1]);
    expect([removed.status, removed.json.code, (removed.json.data as { taskId?: string } | undefined)?.taskId]).toEqual([409, 'CONFLICT', ids[0]]);
    const moved = await bulkAt(admin.cookie, ids, { columnId: done.id }, [1, 1]);
    expect([moved.status, moved.json.code, (moved.json.data as { taskId?: string } | undefined)?.taskId]).toEqual([409, 'CONFLICT', ids[0]]);
    expect(await snapshot()).toEqual(before);
    const deleted = await bulkAt(admin.cookie, ids, { delete: true }, [2, 1]);
    expect([deleted.status, deleted.json.data]).toEqual([200, { deleted: 2 }]);
  });

  it('versions not one per id (too few, too many, none, an id given two versions, not a version): 400 on versions, nothing changes', async () => {
    const { admin, ids } = await teamWithTasks(2);
    const before = await snapshot();
    for (const [taskIds, versions] of [
      [ids, [1]],
      [ids, [1, 1, 1]],
      [ids, []],
      [[ids[0]!, ids[1]!, ids[0]!], [1, 1, 2]],
      [ids, [1, 0]],
      [ids, [1, 'one']],
    ] as const) {
      const res = await bulkAt(admin.cookie, [...taskIds], { priority: 'low' }, versions);
      expect([res.status, res.json.code], JSON.stringify(versions)).toEqual([400, 'VALIDATION_FAILED']);
    }
    const short = await bulkAt(admin.cookie, ids, { priority: 'low' }, [1]);
    expect(short.json.errors).toEqual([{ field: 'versions', message: 'Give one version for each task id, in the order of taskIds.' }]);
    expect(await snapshot()).toEqual(before);
    // A repeated id with its one version is fine.
    expect((await bulkAt(admin.cookie, [ids[0]!, ids[1]!, ids[0]!], { priority: 'low' }, [1, 1, 1])).status).toBe(200);
  });

  it('without versions, a task someone changed meanwhile is changed all the same (as before)', async () => {
    const { admin, member, ids } = await teamWithTasks(2);
    await patch(member.cookie, ids[0]!, { priority: 'low' });
    const res = await bulk(admin.cookie, ids, { priority: 'urgent' });
    expect(res.status, res.body).toBe(200);
    expect(tasksOf(res).map((task) => [task.priority, task.version])).toEqual([
      ['urgent', 3],
      ['urgent', 2],
    ]);
  });

  it('a viewer is refused for their rights (403) before any version is looked at', async () => {
    const { viewer, ids } = await teamWithTasks(1);
    const res = await bulkAt(viewer.cookie, ids, { priority: 'low' }, [7]);
    expect([res.status, res.json.data]).toEqual([403, { taskId: ids[0] }]);
  });
});
