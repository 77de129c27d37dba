import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { LIMITS, PRIORITIES, TASK_SORTS, TASK_VIEWS } from '#shared/constants.ts';
import type { Activity } from '#shared/schemas/comments.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import { createSignedInUser, createTask, insertBoard, insertTasks, uniqueEmail } from './factories.ts';
import { DAY, isPostgres, untilWaitingOnLock, useTestApp } from './helpers.ts';
import { insertLabels, labelsTeam } from './labels-support.ts';

/**
 * Labels on tasks: `labelIds` on create and update is the task's whole set (labels of its board,
 * at most 10), written with the task; a change bumps the version, is in the activity and in the
 * `task.updated` event; a move to another board drops them. `label=` narrows lists and counts.
 */
const t = useTestApp();

const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });
const read = async (cookie: string, id: string): Promise<Task> => (await t.request('GET', `/api/tasks/${id}`, { cookie })).json.data.task;
const names = (task: Task) => task.labels.map((l) => l.name);

const labels = (boardId: string, ...names: string[]) => insertLabels(t, boardId, ...names);
const team = () => labelsTeam(t);

/** The task events in the log about a task, oldest first. */
async function taskEvents(taskId: string) {
  const rows = await t.app.db.selectFrom('events').select(['type', 'payload']).where('subjectId', '=', taskId).orderBy('id').execute();
  return rows.map((r) => ({ type: r.type, task: (JSON.parse(r.payload) as { task: Task }).task }));
}

const activityOf = async (cookie: string, id: string) =>
  ((await t.request('GET', `/api/tasks/${id}/activity`, { cookie })).json as unknown as { data: { activity: Activity[] } }).data.activity;

const rowsOf = (taskId: string) => t.app.db.selectFrom('taskLabels').select('labelId').where('taskId', '=', taskId).execute();

describe('POST /api/tasks labelIds', () => {
  it('creates the task with its labels, by name, in the answer, on reads and in task.created', async () => {
    const { member, board } = await team();
    const [zeta, alpha] = await labels(board.id, 'zeta', 'Alpha');
    const task = await createTask(t, member.cookie, { boardId: board.id, labelIds: [zeta!._id, alpha!._id, zeta!._id] });
    expect(task.labels).toEqual([alpha, zeta]);
    expect(task.version).toBe(1);
    expect((await read(member.cookie, task._id)).labels).toEqual([alpha, zeta]);
    expect((await taskEvents(task._id)).map((e) => [e.type, e.task.labels])).toEqual([['task.created', [alpha, zeta]]]);
    expect(await activityOf(member.cookie, task._id)).toEqual([expect.objectContaining({ type: 'created' })]);
    // No labels: [].
    expect((await createTask(t, member.cookie, { boardId: board.id })).labels).toEqual([]);
    expect((await createTask(t, member.cookie, { boardId: board.id, labelIds: [] })).labels).toEqual([]);
  });

  it(`refuses more than ${LIMITS.labelsPerTask} labels (repeats count once) and labels of another board: 400 on labelIds, nothing stored`, async () => {
    const { admin, board } = await team();
    const many = await labels(board.id, ...Array.from({ length: LIMITS.labelsPerTask + 1 }, (_, i) => `L${i}`));
    const ids = many.map((l) => l._id);
    const body = { taskTitle: 'Labelled', assignee: uniqueEmail(), boardId: board.id };
    const tooMany = await t.request('POST', '/api/tasks', { cookie: admin.cookie, body: { ...body, labelIds: ids } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.errors).toEqual([{ field: 'labelIds', message: `A task can have at most ${LIMITS.labelsPerTask} labels.` }]);
    const ten = ids.slice(0, LIMITS.labelsPerTask);
    const repeated = await t.request('POST', '/api/tasks', { cookie: admin.cookie, body: { ...body, labelIds: [...ten, ten[0]] } });
    expect(repeated.status, repeated.body).toBe(201);
    expect(repeated.json.data.task.labels).toHaveLength(LIMITS.labelsPerTask);

    const other = await insertBoard(t, admin.user);
    const [foreign] = await labels(other.id, 'Elsewhere');
    for (const labelIds of [[foreign!._id], [ids[0], foreign!._id], [newId()], ['not an id']]) {
      const res = await t.request('POST', '/api/tasks', { cookie: admin.cookie, body: { ...body, taskTitle: 'Refused', labelIds } });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'labelIds', message: "Every label must be one of the task's board." }]);
    }
    expect(await t.app.db.selectFrom('tasks').select('id').where('taskTitle', '=', 'Refused').execute()).toEqual([]);
  });

  it('tells nothing about a board’s labels to someone who may not create on it: 404 off the board, 403 for a viewer', async () => {
    const { viewer, board } = await team();
    const stranger = await createSignedInUser(t);
    const [label] = await labels(board.id, 'Secret');
    const body = { taskTitle: 'Nope', assignee: uniqueEmail(), boardId: board.id };
    for (const labelIds of [[label!._id], [newId()]]) {
      expect((await t.request('POST', '/api/tasks', { cookie: stranger.cookie, body: { ...body, labelIds } })).status).toBe(404);
      expect((await t.request('POST', '/api/tasks', { cookie: viewer.cookie, body: { ...body, labelIds } })).status).toBe(403);
    }
  });
});

describe('PATCH /api/tasks/:id labelIds', () => {
  it('sets, replaces and clears the labels: each a new version, an activity entry and a task.updated with them', async () => {
    const { admin, member, board } = await team();
    const [bug, idea, ux] = await labels(board.id, 'Bug', 'Idea', 'UX');
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    const set = await patch(member.cookie, task._id, { labelIds: [idea!._id, bug!._id] });
    expect(set.status, set.body).toBe(200);
    expect(set.json.data.task).toMatchObject({ labels: [bug, idea], version: 2 });
    const replaced = await patch(member.cookie, task._id, { labelIds: [ux!._id, bug!._id], version: 2 });
    expect(replaced.json.data.task).toMatchObject({ labels: [bug, ux], version: 3 });
    expect(await rowsOf(task._id)).toHaveLength(2);
    const cleared = await patch(admin.cookie, task._id, { labelIds: [] });
    expect(cleared.json.data.task).toMatchObject({ labels: [], version: 4 });
    expect(await rowsOf(task._id)).toEqual([]);
    expect((await read(admin.cookie, task._id)).labels).toEqual([]);

    const events = await taskEvents(task._id);
    expect(events.map((e) => [e.type, names(e.task), e.task.version])).toEqual([
      ['task.created', [], 1],
      ['task.updated', ['Bug', 'Idea'], 2],
      ['task.updated', ['Bug', 'UX'], 3],
      ['task.updated', [], 4],
    ]);
    const entries = await activityOf(admin.cookie, task._id);
    expect(entries.map((a) => [a.type, a.changes])).toEqual([
      ['created', undefined],
      ['updated', { labels: { from: null, to: 'Bug, Idea' } }],
      ['updated', { labels: { from: 'Bug, Idea', to: 'Bug, UX' } }],
      ['updated', { labels: { from: 'Bug, UX', to: null } }],
    ]);
  });

  it('the same set, in any order and with repeats, is no change: no new version, event or activity', async () => {
    const { admin, board } = await team();
    const [bug, idea] = await labels(board.id, 'Bug', 'Idea');
    const task = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [bug!._id, idea!._id] });
    const res = await patch(admin.cookie, task._id, { labelIds: [idea!._id, bug!._id, idea!._id] });
    expect(res.status).toBe(200);
    expect(res.json.data.task).toEqual(task);
    expect(await taskEvents(task._id)).toHaveLength(1);
    // Labels with another field: one change, one entry.
    const both = await patch(admin.cookie, task._id, { labelIds: [bug!._id], priority: 'urgent' });
    expect(both.json.data.task).toMatchObject({ labels: [bug], priority: 'urgent', version: 2 });
    expect((await activityOf(admin.cookie, task._id)).map((a) => a.changes)).toEqual([
      undefined,
      { priority: { from: 'normal', to: 'urgent' }, labels: { from: 'Bug, Idea', to: 'Bug' } },
    ]);
  });

  it('refuses more than the limit or a label of another board (400 on labelIds) and changes nothing', async () => {
    const { admin, board } = await team();
    const many = await labels(board.id, ...Array.from({ length: LIMITS.labelsPerTask + 1 }, (_, i) => `L${i}`));
    const other = await insertBoard(t, admin.user);
    const [foreign] = await labels(other.id, 'Elsewhere');
    const task = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [many[0]!._id] });
    const tooMany = await patch(admin.cookie, task._id, { labelIds: many.map((l) => l._id), taskTitle: 'Changed' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.errors.map((e) => e.field)).toEqual(['labelIds']);
    const wrong = await patch(admin.cookie, task._id, { labelIds: [foreign!._id], taskTitle: 'Changed' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.errors).toEqual([{ field: 'labelIds', message: "Every label must be one of the task's board." }]);
    expect(await read(admin.cookie, task._id)).toEqual(task);
  });

  it('a viewer may not change labels (403); the assignee may, whatever their role', async () => {
    const { admin, viewer, board } = await team();
    const [bug] = await labels(board.id, 'Bug');
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    expect((await patch(viewer.cookie, task._id, { labelIds: [bug!._id] })).status).toBe(403);
    const outsider = await createSignedInUser(t);
    const theirs = await createTask(t, admin.cookie, { boardId: board.id, assignee: outsider.user.email });
    const res = await patch(outsider.cookie, theirs._id, { labelIds: [bug!._id] });
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task.labels).toEqual([bug]);
  });

  it('a move to another board drops the labels, unless labelIds of that board come with it', async () => {
    const { admin, board } = await team();
    const target = await insertBoard(t, admin.user, [], 'Target board');
    const [bug] = await labels(board.id, 'Bug');
    const [ops] = await labels(target.id, 'Ops');
    const dropped = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [bug!._id] });
    const moved = await patch(admin.cookie, dropped._id, { boardId: target.id });
    expect(moved.status, moved.body).toBe(200);
    expect(moved.json.data.task).toMatchObject({ boardId: target.id, labels: [], version: 2 });
    expect(await rowsOf(dropped._id)).toEqual([]);
    expect((await activityOf(admin.cookie, dropped._id)).at(-1)?.changes).toMatchObject({ labels: { from: 'Bug', to: null } });

    const kept = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [bug!._id] });
    const old = await patch(admin.cookie, kept._id, { boardId: target.id, labelIds: [bug!._id] });
    expect(old.status).toBe(400);
    expect(old.json.errors.map((e) => e.field)).toEqual(['labelIds']);
    const relabelled = await patch(admin.cookie, kept._id, { boardId: target.id, labelIds: [ops!._id] });
    expect(relabelled.json.data.task).toMatchObject({ boardId: target.id, labels: [ops], version: 2 });
    expect((await taskEvents(kept._id)).at(-1)?.task.labels).toEqual([ops]);
    // "Moving" to the board it is on is no move: its labels stay.
    const stay = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [bug!._id] });
    const same = await patch(admin.cookie, stay._id, { boardId: board.id });
    expect(same.json.data.task).toEqual(stay);
  });

  it('the original client’s whole-task PATCH, labels included as read, keeps the labels', async () => {
    const { member, board } = await team();
    const [bug] = await labels(board.id, 'Bug');
    const task = await createTask(t, member.cookie, { boardId: board.id, labelIds: [bug!._id] });
    const res = await patch(member.cookie, task._id, { ...task, labels: [], status: 'done' });
    expect(res.status, res.body).toBe(200);
    expect(res.json.data.task).toMatchObject({ status: 'done', labels: [bug], version: 2 });
    const unchanged = await patch(member.cookie, task._id, res.json.data.task);
    expect(unchanged.json.data.task.version).toBe(2);
  });

  it('a label deleted meanwhile leaves the task it was on without a new version', async () => {
    const { admin, board } = await team();
    const [bug] = await labels(board.id, 'Bug');
    const task = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [bug!._id] });
    expect((await t.request('DELETE', `/api/boards/${board.id}/labels/${bug!._id}`, { cookie: admin.cookie })).status).toBe(204);
    expect(await read(admin.cookie, task._id)).toEqual({ ...task, labels: [] });
    const res = await patch(admin.cookie, task._id, { labelIds: [bug!._id] });
    expect(res.status).toBe(400);
  });
});

describe.runIf(isPostgres)('a label deleted while a task write sets it (PostgreSQL)', () => {
  it('the write fails whole on the foreign key: 400 on labelIds, the task unchanged', async () => {
    const { admin, board } = await team();
    const [bug] = await labels(board.id, 'Bug');
    const task = await createTask(t, admin.cookie, { boardId: board.id });
    // The deletion is under way and holds the label row: the write checked the label before it,
    // and its statement's foreign key check waits for the deletion to end.
    const other = await t.app.db.startTransaction().execute();
    try {
      await sql`delete from labels where id = ${bug!._id}`.execute(other);
      const answer = patch(admin.cookie, task._id, { labelIds: [bug!._id], taskTitle: 'Renamed too' });
      await untilWaitingOnLock(t, '%task_labels%');
      await other.commit().execute();
      const res = await answer;
      expect(res.status, res.body).toBe(400);
      expect(res.json.errors.map((e) => e.field)).toEqual(['labelIds']);
    } finally {
      await other.rollback().execute().catch(() => undefined);
    }
    expect(await read(admin.cookie, task._id)).toEqual(task);
    expect(await taskEvents(task._id)).toHaveLength(1);
  });
});

describe('GET /api/tasks?label= and /api/tasks/counts?label=', () => {
  /** 7 tasks on a board, 4 of them labelled Bug, with varied deadlines, priorities and statuses. */
  async function labelled() {
    const { admin, member, board } = await team();
    const [bug, idea] = await labels(board.id, 'Bug', 'Idea');
    const tasks: Task[] = [];
    for (let i = 0; i < 7; i++) {
      t.clock.advance(1000);
      const labelIds = i % 2 === 0 ? [bug!._id] : [idea!._id];
      const deadline = i % 3 === 0 ? null : new Date(t.clock.now().getTime() + (7 - i) * DAY).toISOString();
      tasks.push(await createTask(t, admin.cookie, { boardId: board.id, labelIds, deadline, priority: PRIORITIES[i % PRIORITIES.length], taskTitle: `Labelled ${i} needle` }));
    }
    await patch(admin.cookie, tasks[2]!._id, { status: 'done' });
    return { admin, member, board, bug: bug!, idea: idea!, bugs: new Set(tasks.filter((_, i) => i % 2 === 0).map((x) => x._id)) };
  }

  it('lists only the tasks carrying the label, for every sort and view, page by page', async () => {
    const { admin, board, bug, bugs } = await labelled();
    // A task of mine elsewhere, without the label, is left out with board= and without it.
    await createTask(t, admin.cookie);
    for (const sort of TASK_SORTS) {
      for (const scope of [`&board=${board.id}`, '']) {
        for (const view of TASK_VIEWS) {
          const seen: string[] = [];
          let cursor: string | null = null;
          do {
            const query = `?label=${bug._id}&sort=${sort}&view=${view}${scope}&limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
            const res = await t.request('GET', `/api/tasks${query}`, { cookie: admin.cookie });
            expect(res.status, res.body).toBe(200);
            seen.push(...res.json.data.tasks.map((x) => x._id));
            cursor = res.json.data.nextCursor;
          } while (cursor !== null);
          // The admin created them all and is on the board; none is assigned to them.
          const expected = view === 'assigned-to-me' ? new Set<string>() : bugs;
          expect(new Set(seen), `${sort} ${view} ${scope}`).toEqual(expected);
          expect(seen).toHaveLength(expected.size);
          const whole = await t.request('GET', `/api/tasks?label=${bug._id}&sort=${sort}&view=${view}${scope}`, { cookie: admin.cookie });
          expect(whole.json.data.tasks.map((x) => x._id)).toEqual(seen);
        }
      }
    }
  });

  it('works with status, priority and text search, and the counts agree', async () => {
    const { admin, bug, idea } = await labelled();
    const list = async (query: string) => (await t.request('GET', `/api/tasks?${query}`, { cookie: admin.cookie })).json.data.tasks;
    const counts = async (query: string) => (await t.request('GET', `/api/tasks/counts?${query}`, { cookie: admin.cookie })).json.data.counts;
    expect((await list(`label=${bug._id}&status=done`)).map((x) => x.taskTitle)).toEqual(['Labelled 2 needle']);
    expect((await list(`label=${bug._id}&q=needle`)).length).toBe(4);
    expect((await list(`label=${bug._id}&q=ne`)).length).toBe(4);
    expect((await list(`label=${idea._id}&priority=${PRIORITIES[1]}`)).map((x) => x.taskTitle)).toEqual(['Labelled 5 needle', 'Labelled 1 needle']);
    expect(await counts(`label=${bug._id}`)).toMatchObject({ todo: 3, done: 1 });
    expect(await counts(`label=${idea._id}`)).toMatchObject({ todo: 3, done: 0 });
    expect(await counts(`label=${bug._id}&q=needle`)).toMatchObject({ todo: 3, done: 1 });
  });

  it('an unknown label, or one of a board I cannot see, lists nothing (no 404); an assignee sees their labelled task', async () => {
    const { admin, board, bug } = await labelled();
    const outsider = await createSignedInUser(t);
    const list = async (cookie: string, query: string) => t.request('GET', `/api/tasks?${query}`, { cookie });
    for (const query of [`label=${newId()}`, 'label=nonsense', `label=${newId()}&board=${board.id}`]) {
      const res = await list(admin.cookie, query);
      expect(res.status).toBe(200);
      expect(res.json.data.tasks).toEqual([]);
    }
    expect((await list(outsider.cookie, `label=${bug._id}`)).json.data.tasks).toEqual([]);
    expect((await t.request('GET', `/api/tasks/counts?label=${bug._id}`, { cookie: outsider.cookie })).json.data.counts).toEqual({ todo: 0, done: 0, overdue: 0 });
    const theirs = await createTask(t, admin.cookie, { boardId: board.id, assignee: outsider.user.email, labelIds: [bug._id] });
    expect((await list(outsider.cookie, `label=${bug._id}`)).json.data.tasks.map((x) => x._id)).toEqual([theirs._id]);
    // board= of a board I am not on still answers 404, label or not.
    expect((await list(outsider.cookie, `label=${bug._id}&board=${board.id}`)).status).toBe(404);
  });

  it('pages through a label on thousands of tasks (read in index order and tested) like one on a few', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const [common] = await labels(user.id, 'Common');
    // More tasks than a page starts from the label's entries for (task-list-queries.ts): 2,100 of 2,400 carry it.
    const ids = await insertTasks(t, user, 2400);
    const carrying = ids.filter((_, i) => i % 8 !== 0);
    const rows = carrying.map((taskId) => ({ taskId, labelId: common!._id }));
    for (let i = 0; i < rows.length; i += 500) await t.app.db.insertInto('taskLabels').values(rows.slice(i, i + 500)).execute();
    for (const sort of TASK_SORTS) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query = `?label=${common!._id}&sort=${sort}&limit=500${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const res = await t.request('GET', `/api/tasks${query}`, { cookie });
        expect(res.status, res.body).toBe(200);
        seen.push(...res.json.data.tasks.map((x) => x._id));
        cursor = res.json.data.nextCursor;
      } while (cursor !== null);
      expect(seen, sort).toHaveLength(carrying.length);
      expect(new Set(seen), sort).toEqual(new Set(carrying));
    }
    expect((await t.request('GET', `/api/tasks/counts?label=${common!._id}`, { cookie })).json.data.counts).toEqual({ todo: carrying.length, done: 0, overdue: 0 });
  });
});
