import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { makeTask } from '#web/testing/data.ts';
import { atVersions, notUndoneText, planUndo, sendBulkChange } from './bulk-change.ts';

const label = (id: string) => ({ _id: id, name: id, color: 'blue' }) as Task['labels'][number];

describe('planUndo', () => {
  it('puts back each task’s own previous priority, one request per previous value', () => {
    const a = makeTask({ priority: 'high' });
    const b = makeTask({ priority: 'low' });
    const c = makeTask({ priority: 'high' });
    const d = makeTask({ priority: 'urgent' });
    expect(planUndo([a, b, c, d], { priority: 'urgent' })).toEqual([
      { taskIds: [a._id, c._id], change: { priority: 'high' } },
      { taskIds: [b._id], change: { priority: 'low' } },
    ]);
  });

  it('puts back deadlines, a missing one as null, and leaves out tasks the change did not change', () => {
    const none = makeTask({ deadline: null });
    const same = makeTask({ deadline: '2026-12-24T17:00:00.000Z' });
    const other = makeTask({ deadline: '2026-12-01T09:00:00.000Z' });
    expect(planUndo([none, same, other], { deadline: '2026-12-24T17:00:00Z' })).toEqual([
      { taskIds: [none._id], change: { deadline: null } },
      { taskIds: [other._id], change: { deadline: '2026-12-01T09:00:00.000Z' } },
    ]);
  });

  it('moves tasks back to the column each was in, after a move or a change of status', () => {
    const a = makeTask({ columnId: 'doing' });
    const b = makeTask({ columnId: 'todo' });
    const done = makeTask({ columnId: 'done', status: 'done' });
    expect(planUndo([a, b, done], { columnId: 'done' })).toEqual([
      { taskIds: [a._id], change: { columnId: 'doing' } },
      { taskIds: [b._id], change: { columnId: 'todo' } },
    ]);
    expect(planUndo([a, b, done], { status: 'done' })).toEqual([
      { taskIds: [a._id], change: { columnId: 'doing' } },
      { taskIds: [b._id], change: { columnId: 'todo' } },
    ]);
  });

  it('takes off only the labels a task did not have, and puts back only those it had', () => {
    const had = makeTask({ labels: [label('red')] });
    const bare = makeTask({ labels: [] });
    expect(planUndo([had, bare], { addLabelIds: ['red', 'blue'] })).toEqual([
      { taskIds: [had._id], change: { removeLabelIds: ['blue'] } },
      { taskIds: [bare._id], change: { removeLabelIds: ['blue', 'red'] } },
    ]);
    expect(planUndo([had, bare], { removeLabelIds: ['red'] })).toEqual([{ taskIds: [had._id], change: { addLabelIds: ['red'] } }]);
  });

  it('puts back assignees and splits a group of more than 500 into requests of 500', () => {
    const many = Array.from({ length: 501 }, () => makeTask({ assignee: 'bob@example.com' }));
    const plan = planUndo(many, { assignee: 'Ada@Example.com' });
    expect(plan.map((request) => request.taskIds.length)).toEqual([500, 1]);
    expect(plan[0]?.change).toEqual({ assignee: 'bob@example.com' });
  });

  it('has nothing for a deletion', () => {
    expect(planUndo([makeTask()], { delete: true })).toEqual([]);
  });
});

describe('atVersions', () => {
  it('gives each request of an undo plan the versions the change’s answer gave, after a check of them all that changes nothing', () => {
    const a = makeTask({ priority: 'high' });
    const b = makeTask({ priority: 'low' });
    const c = makeTask({ priority: 'high' });
    const plan = planUndo([a, b, c], { priority: 'urgent' });
    const after = [{ ...c, version: 7 }, { ...a, version: 4 }, { ...b, version: 2 }];
    expect(atVersions(plan, after, { priority: 'urgent' })).toEqual([
      // The change made, again: each task is already urgent, so only the versions are checked.
      { taskIds: [a._id, c._id, b._id], change: { priority: 'urgent' }, versions: [4, 7, 2], check: true },
      { taskIds: [a._id, c._id], change: { priority: 'high' }, versions: [4, 7] },
      { taskIds: [b._id], change: { priority: 'low' }, versions: [2] },
    ]);
  });

  it('needs no check for a plan of one request; leaves out a task the answer does not hold, and a request left with none', () => {
    const a = makeTask({ priority: 'high' });
    const b = makeTask({ priority: 'low' });
    expect(atVersions(planUndo([a, b], { priority: 'urgent' }), [{ ...a, version: 3 }], { priority: 'urgent' })).toEqual([
      { taskIds: [a._id], change: { priority: 'high' }, versions: [3] },
    ]);
  });
});

describe('notUndoneText', () => {
  it('names the task someone changed since, and says what earlier requests put back', () => {
    expect(notUndoneText('Bravo', 0)).toBe('Not undone: “Bravo” was changed by someone else since.');
    expect(notUndoneText('Bravo', 2)).toBe('2 tasks changed back; the rest not undone: “Bravo” was changed by someone else since.');
  });
});

describe('sendBulkChange', () => {
  it('sends versions with their ids, split as the ids are', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => `t${String(i)}`);
    const versions = ids.map((_, i) => i + 1);
    const fetch = mockFetch().always('POST', '/tasks/bulk', (call) =>
      json(200, { status: 'success', message: 'Done.', data: { tasks: (call.body as { taskIds: string[] }).taskIds.map((id) => makeTask({ _id: id })) } }),
    );
    await sendBulkChange(ids, { priority: 'low' }, () => undefined, versions);
    expect(fetch.callsTo('POST', '/tasks/bulk').map((call) => call.body)).toEqual([
      { taskIds: ids.slice(0, 500), change: { priority: 'low' }, versions: versions.slice(0, 500) },
      { taskIds: ids.slice(500), change: { priority: 'low' }, versions: [501] },
    ]);
  });


  it('sends 501 ids as two requests of at most 500', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => `t${String(i)}`);
    const fetch = mockFetch().always('POST', '/tasks/bulk', (call) =>
      json(200, { status: 'success', message: 'Done.', data: { tasks: (call.body as { taskIds: string[] }).taskIds.map((id) => makeTask({ _id: id })) } }),
    );
    const chunks: number[] = [];
    const result = await sendBulkChange(ids, { priority: 'low' }, (_answer, sent) => chunks.push(sent.length));
    expect(chunks).toEqual([500, 1]);
    expect(result.tasks).toHaveLength(501);
    expect(fetch.callsTo('POST', '/tasks/bulk').map((call) => call.body)).toEqual([
      { taskIds: ids.slice(0, 500), change: { priority: 'low' } },
      { taskIds: ids.slice(500), change: { priority: 'low' } },
    ]);
  });
});
