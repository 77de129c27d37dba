import { describe, expect, it } from 'vitest';
import type { ColumnWithCount } from '#shared/schemas/columns.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { createTask } from './factories.ts';
import { insertLabels, labelsTeam } from './labels-support.ts';
import { isPostgres, useTestApp, type Response } from './helpers.ts';
import { withRoundTrips } from './round-trips.ts';

/**
 * What the writes of a task's place cost on PostgreSQL, in round trips (each statement is one:
 * node-postgres does not pipeline), counted by a proxy in front of the database. The least of
 * four runs is kept: other work of the app (the outbox worker's poll) only ever adds trips.
 */
const t = useTestApp();

const taskOf = (res: Response) => (res.json.data as unknown as { task: Task }).task;

describe('round trips of a task’s place (PostgreSQL)', () => {
  it.runIf(isPostgres)('a move costs what a PATCH does; a create with labels and a column reads the role once', async () => {
    await withRoundTrips(t, async (trips) => {
      const team = await labelsTeam(t);
      const cookie = team.member.cookie;
      const columns = ((await t.request('GET', `/api/boards/${team.board.id}/columns`, { cookie })).json.data as unknown as { columns: ColumnWithCount[] }).columns;
      const [todo, done] = columns;
      if (todo === undefined || done === undefined) throw new Error('no columns');
      const doing = (await t.request('POST', `/api/boards/${team.board.id}/columns`, { cookie: team.admin.cookie, body: { name: 'Doing', category: 'todo' } })).json.data as unknown as { column: { _id: string } };
      const [label] = await insertLabels(t, team.board.id, 'Bug');
      const tripsOf = async (call: (i: number) => Promise<Response>, status: number) => {
        const runs: number[] = [];
        for (let i = 0; i < 4; i++) {
          const before = trips();
          const res = await call(i);
          expect(res.status, res.body).toBe(status);
          runs.push(trips() - before);
        }
        return Math.min(...runs);
      };
      const patched = await createTask(t, cookie, { boardId: team.board.id });
      const moving = [await createTask(t, cookie, { boardId: team.board.id }), await createTask(t, cookie, { boardId: team.board.id })];
      const body = { taskTitle: 'Counted', assignee: team.member.user.email, boardId: team.board.id };
      const figures = {
        create: await tripsOf(() => t.request('POST', '/api/tasks', { cookie, body }), 201),
        createInColumn: await tripsOf(() => t.request('POST', '/api/tasks', { cookie, body: { ...body, columnId: done._id } }), 201),
        createWithLabels: await tripsOf(() => t.request('POST', '/api/tasks', { cookie, body: { ...body, columnId: todo._id, labelIds: [label?._id] } }), 201),
        patch: await tripsOf((i) => t.request('PATCH', `/api/tasks/${patched._id}`, { cookie, body: { priority: i % 2 === 0 ? 'low' : 'high' } }), 200),
        // Each task to the top of the other todo column and back.
        move: await tripsOf(async (i) => {
          const task = moving[i % 2];
          if (task === undefined) throw new Error('no task');
          const res = await t.request('POST', `/api/tasks/${task._id}/move`, { cookie, body: { columnId: i < 2 ? doing.column._id : todo._id, afterId: null, version: task.version } });
          moving[i % 2] = taskOf(res);
          return res;
        }, 200),
      };
      // The session check and the one-statement write: the place is drawn from what the instance
      // last read of the board (the creates above), and the write checks that it still holds.
      expect(figures.create).toBe(2);
      // The member's role on the board (for the labels and the column alike) is read with the columns.
      expect(figures.createInColumn).toBe(3);
      // Plus the labels.
      expect(figures.createWithLabels).toBe(4);
      // The session check, the task with the writer's rights, the one-statement write.
      expect(figures.patch).toBe(3);
      // The same: the spot (the column and the keys around it) is read with the task.
      expect(figures.move).toBe(3);
    });
  });
});
