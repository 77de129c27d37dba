import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { createTask, insertBoard } from './factories.ts';
import { DAY, isPostgres, untilWaitingOnLock, useTestApp } from './helpers.ts';
import { insertLabels, labelsTeam } from './labels-support.ts';

/**
 * `tasks.label_ids`, which a page of tasks reads instead of task_labels, is kept by triggers on
 * task_labels (migration 0031): whatever writes or deletes a task's label rows, the column is
 * the ids of the rows it has, comma-separated in byte order, or null when it has none.
 */
const t = useTestApp();

/** Every task whose `label_ids` is not the ids of its label rows (none when the triggers keep it). */
async function disagreeing() {
  const rows = await t.app.db.selectFrom('tasks').select(['id', 'labelIds']).execute();
  const pairs = await t.app.db.selectFrom('taskLabels').select(['taskId', 'labelId']).execute();
  const byTask = new Map<string, string[]>();
  for (const { taskId, labelId } of pairs) byTask.set(taskId, [...(byTask.get(taskId) ?? []), labelId]);
  const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  return rows
    .map((row) => ({ id: row.id, column: row.labelIds, rows: byTask.get(row.id)?.sort(byteOrder).join(',') ?? null }))
    .filter((row) => row.column !== row.rows);
}

const labelIdsOf = async (taskId: string) => (await t.app.db.selectFrom('tasks').select('labelIds').where('id', '=', taskId).executeTakeFirstOrThrow()).labelIds;
const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });

describe('tasks.label_ids', () => {
  it('is the ids of the task’s label rows after every kind of write that changes them', async () => {
    const { admin, board } = await labelsTeam(t);
    const other = await insertBoard(t, admin.user);
    const [a, b, c, d] = await insertLabels(t, board.id, 'Alpha', 'Beta', 'Gamma', 'Delta');
    const [elsewhere] = await insertLabels(t, other.id, 'Elsewhere');
    const ids = (...labels: { _id: string }[]) => labels.map((l) => l._id);

    // Create, replace, clear.
    const first = await createTask(t, admin.cookie, { boardId: board.id, labelIds: ids(c!, a!, b!) });
    expect(await labelIdsOf(first._id)).toBe(ids(a!, b!, c!).sort().join(','));
    expect((await patch(admin.cookie, first._id, { labelIds: ids(d!) })).status).toBe(200);
    expect(await labelIdsOf(first._id)).toBe(d!._id);
    expect((await patch(admin.cookie, first._id, { labelIds: [] })).status).toBe(200);
    expect(await labelIdsOf(first._id)).toBeNull();

    // Many tasks at once: labels added, then one taken off.
    const many: Task[] = [];
    for (let i = 0; i < 3; i++) many.push(await createTask(t, admin.cookie, { boardId: board.id, labelIds: ids(a!) }));
    const bulk = (change: unknown) => t.request('POST', '/api/tasks/bulk', { cookie: admin.cookie, body: { taskIds: many.map((x) => x._id), change } });
    expect((await bulk({ addLabelIds: ids(b!, c!) })).status).toBe(200);
    expect((await bulk({ removeLabelIds: ids(a!) })).status).toBe(200);
    for (const task of many) expect(await labelIdsOf(task._id)).toBe(ids(b!, c!).sort().join(','));

    // A label's deletion, from every task carrying it.
    expect((await t.request('DELETE', `/api/boards/${board.id}/labels/${b!._id}`, { cookie: admin.cookie })).status).toBe(204);
    for (const task of many) expect(await labelIdsOf(task._id)).toBe(c!._id);

    // A move drops them, unless labels of the new board come with it.
    expect((await patch(admin.cookie, many[0]!._id, { boardId: other.id })).status).toBe(200);
    expect(await labelIdsOf(many[0]!._id)).toBeNull();
    expect((await patch(admin.cookie, many[1]!._id, { boardId: other.id, labelIds: ids(elsewhere!) })).status).toBe(200);
    expect(await labelIdsOf(many[1]!._id)).toBe(elsewhere!._id);

    // A repeating task's next occurrence carries its labels.
    const deadline = new Date(t.clock.now().getTime() + DAY).toISOString();
    const created = await t.request('POST', '/api/tasks', {
      cookie: admin.cookie,
      body: { taskTitle: 'Weekly', assignee: admin.user.email, boardId: board.id, labelIds: ids(a!, d!), deadline, repeat: { every: 1, unit: 'week' } },
    });
    expect(created.status, created.body).toBe(201);
    const weekly: Task = created.json.data.task;
    expect((await patch(admin.cookie, weekly._id, { status: 'done' })).status).toBe(200);
    const next = await t.app.db.selectFrom('tasks').select(['id', 'labelIds']).where('boardId', '=', board.id).where('status', '=', 'todo').where('taskTitle', '=', weekly.taskTitle).executeTakeFirstOrThrow();
    expect(next.labelIds).toBe(ids(a!, d!).sort().join(','));

    // An import: its labels, existing and new.
    const csv = 'taskTitle,workTitle,assignee,deadline,priority,status,description,labels\r\nImported,,x@example.com,,normal,todo,,Alpha;Brand new\r\n';
    const imported = await t.request('POST', `/api/boards/${board.id}/import.csv`, { cookie: admin.cookie, body: csv, headers: { 'content-type': 'text/csv' } });
    expect(imported.status, imported.body).toBe(201);
    const row = await t.app.db.selectFrom('tasks').select('labelIds').where('taskTitle', '=', 'Imported').executeTakeFirstOrThrow();
    expect(row.labelIds?.split(',')).toHaveLength(2);

    // And the task's own deletion takes its rows with it.
    expect((await t.request('DELETE', `/api/tasks/${many[2]!._id}`, { cookie: admin.cookie })).status).toBe(204);

    expect(await disagreeing()).toEqual([]);
  });

  it.runIf(isPostgres)(
    'PostgreSQL: a label taken off while another transaction puts one on the same task keeps the one put on',
    async () => {
      const { admin, board } = await labelsTeam(t);
      const [kept, gone, added] = await insertLabels(t, board.id, 'Kept', 'Gone', 'Added');
      const task = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [kept!._id, gone!._id] });
      // One transaction puts a label on and holds the task's row; the label's deletion cascades
      // to the same task and waits for that row. Its ids must be read after the wait, or they
      // would leave out the label committed meanwhile.
      const adding = await t.app.db.startTransaction().execute();
      try {
        await sql`insert into task_labels (task_id, label_id) values (${task._id}, ${added!._id})`.execute(adding);
        const deleting = sql`delete from labels where id = ${gone!._id}`.execute(t.app.db);
        await untilWaitingOnLock(t, 'delete from labels%');
        await adding.commit().execute();
        await deleting;
      } finally {
        await adding.rollback().execute().catch(() => undefined);
      }
      expect(await labelIdsOf(task._id)).toBe([kept!._id, added!._id].sort().join(','));
      expect(await disagreeing()).toEqual([]);
    },
  );
});
