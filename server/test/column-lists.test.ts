import { describe, expect, it } from 'vitest';
import type { ColumnWithCount } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { createTask } from './factories.ts';
import { useTestApp } from './helpers.ts';
import { labelsTeam } from './labels-support.ts';

const t = useTestApp();

async function team() {
  const s = await labelsTeam(t);
  const columns = ((await t.request('GET', `/api/boards/${s.board.id}/columns`, { cookie: s.admin.cookie })).json.data as unknown as { columns: ColumnWithCount[] }).columns;
  const [todo, done] = columns;
  if (todo === undefined || done === undefined) throw new Error('no columns');
  const tasks: Task[] = [];
  for (let i = 0; i < 5; i += 1) {
    tasks.push(await createTask(t, i % 2 === 0 ? s.admin.cookie : s.member.cookie, { boardId: s.board.id, taskTitle: `Column task ${i}`, priority: i === 3 ? 'urgent' : 'normal' }));
  }
  await createTask(t, s.admin.cookie, { boardId: s.board.id, columnId: done._id, taskTitle: 'Finished one' });
  return { ...s, todo, done, tasks };
}
/** Every page of a list, following nextCursor. */
async function allPages(cookie: string, query: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await t.request('GET', `/api/tasks?${query}${cursor === null ? '' : `&cursor=${cursor}`}`, { cookie });
    expect(res.status, res.body).toBe(200);
    ids.push(...res.json.data.tasks.map((task) => task._id));
    cursor = res.json.data.nextCursor ?? null;
    pages += 1;
  } while (cursor !== null);
  return { ids, pages };
}

describe('GET /api/tasks?column=', () => {
  it('sort=position lists the column top first, page by page with the cursor, as the database orders the keys', async () => {
    const s = await team();
    const moved = await t.request('POST', `/api/tasks/${s.tasks[0]?._id}/move`, { cookie: s.admin.cookie, body: { columnId: s.todo._id, afterId: s.tasks[3]?._id, version: 1 } });
    expect(moved.status).toBe(200);
    const stored = await t.app.db.selectFrom('tasks').select('id').where('columnId', '=', s.todo._id).orderBy('position').execute();
    const expected = stored.map((row) => row.id);
    expect(expected).toHaveLength(5);
    const { ids, pages } = await allPages(s.viewer.cookie, `board=${s.board.id}&column=${s.todo._id}&sort=position&limit=2`);
    expect(ids).toEqual(expected);
    expect(pages).toBe(3);
    // The move put task 0 directly below task 3.
    expect(expected.indexOf(s.tasks[0]?._id ?? '')).toBe(expected.indexOf(s.tasks[3]?._id ?? '') + 1);
  });

  it('works with every filter and the other sorts; sort=position without column is 400; a column of a board I am not on is 404', async () => {
    const s = await team();
    const urgent = await allPages(s.admin.cookie, `column=${s.todo._id}&priority=urgent&sort=position`);
    expect(urgent.ids).toEqual([s.tasks[3]?._id]);
    const mine = await allPages(s.member.cookie, `board=${s.board.id}&column=${s.todo._id}&view=created-by-me&sort=position&limit=1`);
    expect(mine.ids).toEqual([s.tasks[3]?._id, s.tasks[1]?._id]);
    const searched = await allPages(s.admin.cookie, `column=${s.todo._id}&q=task%204`);
    expect(searched.ids).toEqual([s.tasks[4]?._id]);
    const byPriority = await allPages(s.admin.cookie, `column=${s.todo._id}&sort=priority&limit=2`);
    expect(byPriority.ids[0]).toBe(s.tasks[3]?._id);
    expect(byPriority.ids).toHaveLength(5);
    const done = await allPages(s.admin.cookie, `column=${s.done._id}&sort=position`);
    expect(done.ids).toHaveLength(1);

    const noColumn = await t.request('GET', `/api/tasks?board=${s.board.id}&sort=position`, { cookie: s.admin.cookie });
    expect([noColumn.status, noColumn.json.errors.map((e) => e.field)]).toEqual([400, ['sort']]);
    expect((await t.request('GET', `/api/tasks?column=${s.todo._id}&sort=position`, { cookie: s.outsider.cookie })).status).toBe(404);
    expect((await t.request('GET', `/api/tasks?board=${s.admin.user.id}&column=${s.todo._id}`, { cookie: s.admin.cookie })).status).toBe(404);
    expect((await t.request('GET', `/api/tasks?column=no-such-column`, { cookie: s.admin.cookie })).status).toBe(404);
    expect((await t.request('GET', `/api/tasks?column=${s.todo._id}&sort=position&cursor=bad`, { cookie: s.admin.cookie })).status).toBe(400);
  });

  it('GET /api/tasks/counts?board= gains columns: {<columnId>: n}, under the same filters', async () => {
    const s = await team();
    const all = await t.request('GET', `/api/tasks/counts?board=${s.board.id}`, { cookie: s.viewer.cookie });
    expect(all.status).toBe(200);
    expect(all.json.data.counts).toMatchObject({ todo: 5, done: 1, columns: { [s.todo._id]: 5, [s.done._id]: 1 } });
    const urgent = await t.request('GET', `/api/tasks/counts?board=${s.board.id}&priority=urgent`, { cookie: s.viewer.cookie });
    expect(urgent.json.data.counts).toMatchObject({ columns: { [s.todo._id]: 1, [s.done._id]: 0 } });
    const done = await t.request('GET', `/api/tasks/counts?board=${s.board.id}&status=done`, { cookie: s.viewer.cookie });
    expect(done.json.data.counts).toMatchObject({ todo: 0, done: 1, columns: { [s.todo._id]: 0, [s.done._id]: 1 } });
    const todo = await t.request('GET', `/api/tasks/counts?board=${s.board.id}&status=todo&priority=urgent`, { cookie: s.viewer.cookie });
    expect(todo.json.data.counts).toMatchObject({ columns: { [s.todo._id]: 1, [s.done._id]: 0 } });
    const without = await t.request('GET', '/api/tasks/counts', { cookie: s.viewer.cookie });
    expect(without.json.data.counts).not.toHaveProperty('columns');
  });
});
