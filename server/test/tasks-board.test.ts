import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRIORITY, LIMITS, PRIORITIES, type Priority } from '#shared/constants.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import { placedAtTop } from '../repositories/columns-repository.ts';
import { FTS_MAX_HITS } from '../repositories/task-search.ts';
import { createSignedInUser, createTask, insertBoard, uniqueEmail } from './factories.ts';
import { DAY, HOUR, isPostgres, MINUTE, SECOND, useTestApp } from './helpers.ts';

const t = useTestApp();

const list = (cookie: string, query = '') => t.request('GET', `/api/tasks${query}`, { cookie });
const counts = (cookie: string, query = '') => t.request('GET', `/api/tasks/counts${query}`, { cookie });
const patch = (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/tasks/${id}`, { cookie, body });
const ids = (tasks: Task[]) => tasks.map((task) => task._id);
const isoIn = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

const RANK = { urgent: 0, high: 1, normal: 2, low: 3 } as const;
const newestFirst = (a: Task, b: Task) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id);
/** The board's three orders, as the API documents them. */
const ORDERS = {
  newest: newestFirst,
  deadline: (a: Task, b: Task) =>
    Number(a.deadline === null) - Number(b.deadline === null) || (a.deadline ?? '').localeCompare(b.deadline ?? '') || newestFirst(a, b),
  priority: (a: Task, b: Task) => RANK[a.priority] - RANK[b.priority] || newestFirst(a, b),
} as const;

/** Every page of a query, following nextCursor with the given page size. */
async function allPages(cookie: string, query: string, limit: number): Promise<Task[]> {
  const out: Task[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page += 1) {
    const sep = query === '' ? '?' : '&';
    const res = await list(cookie, `${query}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(res.status, res.body).toBe(200);
    expect(res.json.results).toBeLessThanOrEqual(limit);
    out.push(...res.json.data.tasks);
    cursor = res.json.data.nextCursor;
    if (cursor === null) return out;
  }
  throw new Error('paging did not end');
}

/** A task on `owner`'s personal board, created by them and assigned to a new address, as a row written straight to the table. */
function taskRow(owner: string, taskTitle: string, fields: { deadline?: string | null; priority?: Priority } = {}) {
  const now = t.clock.now().toISOString();
  return {
    id: newId(),
    workTitle: '',
    taskTitle,
    assigneeEmail: uniqueEmail(),
    createdBy: owner,
    boardId: owner,
    deadline: fields.deadline ?? null,
    priority: fields.priority ?? DEFAULT_PRIORITY,
    status: 'todo' as const,
    description: '',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

/** Many task rows at once, placed at the top of their columns, in statements small enough for SQLite's bound parameters. */
async function insertRows(rows: ReturnType<typeof taskRow>[]): Promise<void> {
  const placed = await placedAtTop(t.app.db, rows);
  for (let i = 0; i < placed.length; i += 500) await t.app.db.insertInto('tasks').values(placed.slice(i, i + 500)).execute();
}

describe('description', () => {
  it('is "" by default, set on create and by PATCH, trimmed, plain text kept as sent', async () => {
    const { cookie } = await createSignedInUser(t);
    const plain = await createTask(t, cookie);
    expect(plain.description).toBe('');
    const text = 'Line one\n<b>not html</b> & https://example.test/x';
    const res = await t.request('POST', '/api/tasks', {
      cookie,
      body: { taskTitle: 'With text', assignee: uniqueEmail(), description: `  ${text}\n ` },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json.data.task.description).toBe(text);
    const updated = await patch(cookie, plain._id, { description: 'Now described' });
    expect(updated.status).toBe(200);
    expect(updated.json.data.task.description).toBe('Now described');
    expect((await t.request('GET', `/api/tasks/${plain._id}`, { cookie })).json.data.task.description).toBe('Now described');
  });

  it(`refuses more than ${LIMITS.descriptionMax} characters, and accepts exactly that many`, async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    const tooLong = await patch(cookie, task._id, { description: 'x'.repeat(LIMITS.descriptionMax + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.errors).toEqual([{ field: 'description', message: expect.stringContaining('5000') as string }]);
    const exact = await patch(cookie, task._id, { description: 'x'.repeat(LIMITS.descriptionMax) });
    expect(exact.status).toBe(200);
    expect(exact.json.data.task.description).toHaveLength(LIMITS.descriptionMax);
  });
});

describe('status on create', () => {
  it('takes todo or done, and refuses any other value with 400 naming the field, storing nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const done = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'Already done', assignee: uniqueEmail(), status: 'done' } });
    expect(done.status).toBe(201);
    expect(done.json.data.task.status).toBe('done');
    const archived = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'Archived', assignee: uniqueEmail(), status: 'archived' } });
    expect(archived.status).toBe(400);
    expect(archived.json.errors.map((e) => e.field)).toEqual(['status']);
    expect(ids((await list(cookie)).json.data.tasks)).toEqual([done.json.data.task._id]);
  });
});

describe('GET /api/tasks/:id', () => {
  it('answers the task to its creator and assignee, 404 to anyone else and for a missing id', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const task = await createTask(t, alice.cookie, { assignee: bob.user.email });
    for (const who of [alice, bob]) {
      const res = await t.request('GET', `/api/tasks/${task._id}`, { cookie: who.cookie });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: 'success', data: { task } });
    }
    const hidden = await t.request('GET', `/api/tasks/${task._id}`, { cookie: stranger.cookie });
    const missing = await t.request('GET', '/api/tasks/AAAAAAAAAAAAAAAAAAAAAA', { cookie: stranger.cookie });
    expect(hidden.status).toBe(404);
    expect(hidden.json).toEqual(missing.json);
    expect((await t.request('GET', `/api/tasks/${task._id}`)).status).toBe(401);
  });
});

describe('reopen', () => {
  it('sets a done task back to todo', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie);
    expect((await patch(cookie, task._id, { status: 'done' })).json.data.task.status).toBe('done');
    const reopened = await patch(cookie, task._id, { status: 'todo' });
    expect(reopened.status).toBe(200);
    expect(reopened.json.data.task.status).toBe('todo');
    expect(ids((await list(cookie, '?status=todo')).json.data.tasks)).toEqual([task._id]);
  });
});

describe('GET /api/tasks?view=', () => {
  it('all (default), assigned-to-me (including my own for myself) and created-by-me', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const mineForOther = await createTask(t, alice.cookie);
    t.clock.advance(SECOND);
    const mineForMe = await createTask(t, alice.cookie, { assignee: alice.user.email });
    t.clock.advance(SECOND);
    const bobsForMe = await createTask(t, bob.cookie, { assignee: alice.user.email });
    expect(ids((await list(alice.cookie)).json.data.tasks)).toEqual([bobsForMe._id, mineForMe._id, mineForOther._id]);
    expect(ids((await list(alice.cookie, '?view=all')).json.data.tasks)).toEqual([bobsForMe._id, mineForMe._id, mineForOther._id]);
    expect(ids((await list(alice.cookie, '?view=assigned-to-me')).json.data.tasks)).toEqual([bobsForMe._id, mineForMe._id]);
    expect(ids((await list(alice.cookie, '?view=created-by-me')).json.data.tasks)).toEqual([mineForMe._id, mineForOther._id]);
    expect(ids((await list(bob.cookie, '?view=assigned-to-me')).json.data.tasks)).toEqual([]);
    const bad = await list(alice.cookie, '?view=everyone');
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('VALIDATION_FAILED');
  });
});

describe('tasks I assigned to myself', () => {
  it('appear once, in every order, view, status and page size, and are counted once', async () => {
    const me = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const specs = [
      { by: me, to: me, priority: 'high', deadline: isoIn(2 * DAY), done: false },
      { by: me, to: me, priority: 'low', deadline: null, done: false },
      { by: me, to: other, priority: 'urgent', deadline: isoIn(HOUR), done: false },
      { by: other, to: me, priority: 'normal', deadline: isoIn(2 * DAY), done: false },
      { by: me, to: me, priority: 'urgent', deadline: isoIn(HOUR), done: true },
      { by: me, to: me, priority: 'normal', deadline: isoIn(HOUR), done: false },
      { by: other, to: me, priority: 'high', deadline: null, done: false },
      { by: me, to: me, priority: 'normal', deadline: null, done: true },
      { by: other, to: other, priority: 'urgent', deadline: isoIn(HOUR), done: false },
      { by: me, to: me, priority: 'low', deadline: isoIn(3 * DAY), done: false },
      { by: other, to: me, priority: 'low', deadline: isoIn(HOUR), done: true },
      { by: me, to: other, priority: 'high', deadline: null, done: true },
    ] as const;
    const tasks: Task[] = [];
    for (const spec of specs) {
      const task = await createTask(t, spec.by.cookie, { assignee: spec.to.user.email, priority: spec.priority, deadline: spec.deadline });
      tasks.push(spec.done ? (await patch(spec.by.cookie, task._id, { status: 'done' })).json.data.task : task);
      t.clock.advance(SECOND);
    }
    t.clock.advance(2 * HOUR);
    const now = t.clock.now().toISOString();
    const views = {
      all: (task: Task) => task.assignorEmail === me.user.email || task.assignee === me.user.email,
      'assigned-to-me': (task: Task) => task.assignee === me.user.email,
      'created-by-me': (task: Task) => task.assignorEmail === me.user.email,
    };
    for (const [view, visible] of Object.entries(views)) {
      const seen = tasks.filter(visible);
      const open = seen.filter((task) => task.status === 'todo');
      expect((await counts(me.cookie, `?view=${view}`)).json.data.counts, view).toEqual({
        todo: open.length,
        done: seen.length - open.length,
        overdue: open.filter((task) => task.deadline !== null && task.deadline < now).length,
      });
      for (const status of [undefined, 'todo', 'done']) {
        const wanted = status === undefined ? seen : seen.filter((task) => task.status === status);
        for (const [sort, order] of Object.entries(ORDERS)) {
          const query = `?view=${view}&sort=${sort}${status === undefined ? '' : `&status=${status}`}`;
          const want = ids([...wanted].sort(order));
          expect(ids((await list(me.cookie, query)).json.data.tasks), query).toEqual(want);
          for (const limit of [1, 2, 50]) expect(ids(await allPages(me.cookie, query, limit)), `${query} by ${limit}`).toEqual(want);
        }
      }
    }
  });
});

describe('GET /api/tasks?q=', () => {
  it('matches a case-insensitive substring of task title, work title, description or assignee', async () => {
    const alice = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const byTitle = await createTask(t, alice.cookie, { taskTitle: 'Pay the INVOICE batch' });
    const byWork = await createTask(t, alice.cookie, { workTitle: 'Invoices Q3' });
    const byDescription = await createTask(t, alice.cookie, { description: 'see the attached invoice' });
    const byAssignee = await createTask(t, alice.cookie, { assignee: uniqueEmail('invoice-desk') });
    await createTask(t, alice.cookie, { taskTitle: 'Something else', workTitle: 'Other' });
    await createTask(t, stranger.cookie, { taskTitle: 'Stranger invoice' });

    const found = (await list(alice.cookie, '?q=InVoIcE')).json.data.tasks;
    expect(new Set(ids(found))).toEqual(new Set([byTitle._id, byWork._id, byDescription._id, byAssignee._id]));
    // Short text (no trigram) and a substring inside a word.
    expect(ids((await list(alice.cookie, '?q=q3')).json.data.tasks)).toEqual([byWork._id]);
    expect(ids((await list(alice.cookie, '?q=TACH')).json.data.tasks)).toEqual([byDescription._id]);
    expect((await list(alice.cookie, '?q=zzzz')).json.results).toBe(0);
    // It combines with the other filters and with the counts.
    await patch(alice.cookie, byTitle._id, { status: 'done' });
    expect(ids((await list(alice.cookie, '?q=invoice&status=done')).json.data.tasks)).toEqual([byTitle._id]);
    expect((await counts(alice.cookie, '?q=invoice')).json.data.counts).toEqual({ todo: 3, done: 1, overdue: 0 });
    expect((await counts(alice.cookie, '?q=invoice&view=created-by-me&status=todo')).json.data.counts).toEqual({
      todo: 3,
      done: 0,
      overdue: 0,
    });
  });

  it('follows an edit: the old text no longer matches, the new one does', async () => {
    const { cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { taskTitle: 'Alpha title' });
    await patch(cookie, task._id, { taskTitle: 'Bravo title' });
    expect((await list(cookie, '?q=alpha')).json.results).toBe(0);
    expect(ids((await list(cookie, '?q=bravo')).json.data.tasks)).toEqual([task._id]);
    await t.request('DELETE', `/api/tasks/${task._id}`, { cookie });
    expect((await list(cookie, '?q=bravo')).json.results).toBe(0);
  });

  it(`answers the same with more than ${FTS_MAX_HITS} matches in the table (SQLite then tests the user's own rows)`, async () => {
    const alice = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    await insertRows(Array.from({ length: FTS_MAX_HITS + 50 }, (_, i) => taskRow(other.user.id, `Common word ${i}`)));
    const mine = await createTask(t, alice.cookie, { taskTitle: 'My common word task' });
    const forMe = await createTask(t, other.cookie, { assignee: alice.user.email, description: 'a COMMON WORD here' });
    expect(new Set(ids((await list(alice.cookie, '?q=common word')).json.data.tasks))).toEqual(new Set([mine._id, forMe._id]));
    expect((await counts(alice.cookie, '?q=common word')).json.data.counts).toEqual({ todo: 2, done: 0, overdue: 0 });
    expect(ids(await allPages(alice.cookie, '?q=common word&sort=priority', 1))).toHaveLength(2);
    // Pages of the newest: with this many matches SQLite reads the user's rows in index order.
    const paged = ids(await allPages(alice.cookie, '?q=common word', 1));
    expect(new Set(paged)).toEqual(new Set([mine._id, forMe._id]));
    expect(paged).toHaveLength(2);
  });

  it('answers the same whether a word is rare in the table, rarer than the statistics can tell, or common', async () => {
    // PostgreSQL reads a rare word's matches from the trigram index (at most 200 for a page of the
    // newest, 2,000 otherwise) and keeps the visible ones; with more, or a word its statistics
    // call common, it tests the text on the viewer's rows. SQLite does the same with its FTS5 index.
    const alice = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    // Deadlines and priorities vary, so that every sort has something to order.
    const row = (taskTitle: string, i: number) =>
      taskRow(other.user.id, taskTitle, { deadline: i % 3 === 0 ? null : isoIn((i + 1) * HOUR), priority: PRIORITIES[i % PRIORITIES.length] });
    await insertRows([
      ...Array.from({ length: 10 }, (_, i) => row(`Very rare okapi ${i}`, i)),
      ...Array.from({ length: 150 }, (_, i) => row(`Rare zebra ${i}`, i)),
      ...Array.from({ length: 700 }, (_, i) => row(`Middling yak ${i}`, i)),
      ...Array.from({ length: FTS_MAX_HITS + 50 }, (_, i) => row(`Plentiful gnu ${i}`, i)),
    ]);
    if (isPostgres) await sql`analyze tasks`.execute(t.app.db);
    for (const word of ['okapi', 'zebra', 'yak', 'gnu']) {
      const mine = await createTask(t, alice.cookie, { taskTitle: `My ${word} task`, deadline: isoIn(DAY), priority: 'high' });
      t.clock.advance(SECOND);
      const done = await createTask(t, alice.cookie, { workTitle: `${word.toUpperCase()} work` });
      await patch(alice.cookie, done._id, { status: 'done' });
      t.clock.advance(SECOND);
      const forMe = await createTask(t, other.cookie, { assignee: alice.user.email, description: `about the ${word}`, priority: 'urgent' });
      t.clock.advance(SECOND);
      const all = new Set([mine._id, done._id, forMe._id]);
      expect(new Set(ids((await list(alice.cookie, `?q=${word}`)).json.data.tasks)), word).toEqual(all);
      expect(new Set(ids((await list(alice.cookie, `?q=${word}&limit=50`)).json.data.tasks)), word).toEqual(all);
      for (const sort of ['newest', 'deadline', 'priority']) {
        const paged = ids(await allPages(alice.cookie, `?q=${word}&sort=${sort}`, 1));
        expect(paged, `${word}, sort=${sort}`).toHaveLength(3);
        expect(new Set(paged), `${word}, sort=${sort}`).toEqual(all);
      }
      expect(ids((await list(alice.cookie, `?q=${word}&status=done&limit=10`)).json.data.tasks), word).toEqual([done._id]);
      expect(ids((await list(alice.cookie, `?q=${word}&view=assigned-to-me&limit=10`)).json.data.tasks), word).toEqual([forMe._id]);
      expect((await counts(alice.cookie, `?q=${word}`)).json.data.counts, word).toEqual({ todo: 2, done: 1, overdue: 0 });
      // The other person sees their own matches and not Alice's.
      const theirs = await list(other.cookie, `?q=${word}&limit=5`);
      expect(theirs.json.results).toBe(5);
      expect(ids(theirs.json.data.tasks)).not.toContain(mine._id);
    }
  });

  it('treats %, _, quotes and backslashes as text', async () => {
    const { cookie } = await createSignedInUser(t);
    const percent = await createTask(t, cookie, { taskTitle: 'Raise 50% now' });
    const quoted = await createTask(t, cookie, { taskTitle: 'The "big" one \\ here' });
    await createTask(t, cookie, { taskTitle: 'Raise 500 now' });
    expect(ids((await list(cookie, `?q=${encodeURIComponent('0% n')}`)).json.data.tasks)).toEqual([percent._id]);
    expect(ids((await list(cookie, `?q=${encodeURIComponent('%')}`)).json.data.tasks)).toEqual([percent._id]);
    expect((await list(cookie, `?q=${encodeURIComponent('_')}`)).json.results).toBe(0);
    expect(ids((await list(cookie, `?q=${encodeURIComponent('"big"')}`)).json.data.tasks)).toEqual([quoted._id]);
    expect(ids((await list(cookie, `?q=${encodeURIComponent(' \\ ')}`)).json.data.tasks)).toEqual([quoted._id]);
  });

  it(`refuses an empty q and one longer than ${LIMITS.searchMax} characters`, async () => {
    const { cookie } = await createSignedInUser(t);
    for (const q of ['', 'x'.repeat(LIMITS.searchMax + 1)]) {
      const res = await list(cookie, `?q=${q}`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
      expect((await counts(cookie, `?q=${q}`)).status).toBe(400);
    }
    expect((await list(cookie, `?q=${'x'.repeat(LIMITS.searchMax)}`)).status).toBe(200);
  });
});

describe('GET /api/tasks?sort=', () => {
  /** Tasks with every kind of sort key, ties included, created a second apart. */
  async function board() {
    const { cookie } = await createSignedInUser(t);
    const specs = [
      { priority: 'low', deadline: isoIn(3 * DAY) },
      { priority: 'urgent', deadline: null },
      { priority: 'normal', deadline: isoIn(DAY) },
      { priority: 'high', deadline: isoIn(3 * DAY) },
      { priority: 'urgent', deadline: isoIn(2 * DAY) },
      { priority: 'normal', deadline: null },
      { priority: 'low', deadline: isoIn(DAY) },
    ] as const;
    const tasks: Task[] = [];
    for (const spec of specs) {
      tasks.push(await createTask(t, cookie, spec));
      t.clock.advance(SECOND);
    }
    return { cookie, tasks };
  }
  it('newest (default), deadline (soonest first, none last) and priority (urgent to low), each paged by keyset', async () => {
    const { cookie, tasks } = await board();
    const expected = {
      newest: [...tasks].sort(ORDERS.newest),
      deadline: [...tasks].sort(ORDERS.deadline),
      priority: [...tasks].sort(ORDERS.priority),
    };
    for (const [sort, want] of Object.entries(expected)) {
      const query = sort === 'newest' ? '' : `?sort=${sort}`;
      expect(ids((await list(cookie, query)).json.data.tasks), sort).toEqual(ids(want));
      for (const limit of [1, 2, 3]) {
        expect(ids(await allPages(cookie, query, limit)), `${sort} by ${limit}`).toEqual(ids(want));
      }
    }
    expect((await list(cookie, '?sort=oldest')).status).toBe(400);
  });

  it('pages the newest tasks of both statuses in one order, mine and assigned to me, with and without a search', async () => {
    const me = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const tasks: Task[] = [];
    for (let i = 0; i < 8; i++) {
      const task =
        i % 3 === 0
          ? await createTask(t, other.cookie, { assignee: me.user.email, taskTitle: `Shared plan ${i}` })
          : await createTask(t, me.cookie, { taskTitle: i % 2 === 0 ? `Shared plan ${i}` : `Other ${i}` });
      tasks.push(i % 2 === 0 ? (await patch(me.cookie, task._id, { status: 'done' })).json.data.task : task);
      t.clock.advance(SECOND);
    }
    const newest = [...tasks].sort(ORDERS.newest);
    expect(new Set(newest.map((task) => task.status))).toEqual(new Set(['todo', 'done']));
    for (const limit of [1, 3, 50]) {
      expect(ids(await allPages(me.cookie, '', limit)), `all by ${limit}`).toEqual(ids(newest));
      const matching = newest.filter((task) => task.taskTitle.includes('Shared'));
      expect(ids(await allPages(me.cookie, '?q=shared', limit)), `search by ${limit}`).toEqual(ids(matching));
    }
  });

  it('pages with every filter combined', async () => {
    const { cookie, tasks } = await board();
    const urgent = tasks.filter((task) => task.priority === 'urgent');
    const paged = await allPages(cookie, '?sort=deadline&priority=urgent&status=todo&view=created-by-me&q=task', 1);
    expect(ids(paged)).toEqual(ids([urgent[1]!, urgent[0]!]));
  });

  it('refuses a cursor made for another order, or a forged one', async () => {
    const { cookie } = await board();
    const first = await list(cookie, '?sort=priority&limit=2');
    const cursor = first.json.data.nextCursor ?? '';
    for (const query of [`?limit=2&cursor=${cursor}`, `?sort=deadline&limit=2&cursor=${cursor}`, '?sort=priority&limit=2&cursor=bm9wZQ']) {
      const res = await list(cookie, query);
      expect(res.status, query).toBe(400);
      expect(res.json.errors[0]?.field).toBe('cursor');
    }
  });
});

describe('every board I am on', () => {
  it('pages each order, with and without a status, as the whole list sorts it; the counts follow creates, completes, moves, deletes and a deleted board', async () => {
    const me = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const boards: { id: string; name: string }[] = [];
    for (let i = 0; i < 3; i += 1) boards.push(await insertBoard(t, { ...other.user, fullName: 'Other' }, [{ who: me.user, role: 'member' }]));
    const notMine = await insertBoard(t, { ...other.user, fullName: 'Other' });
    const priorities = ['low', 'urgent', 'normal', 'high', 'normal'] as const;
    const deadlines = [null, isoIn(HOUR), isoIn(3 * DAY), null, isoIn(2 * HOUR), isoIn(DAY)];
    const created: Task[] = [];
    for (let i = 0; i < 22; i += 1) {
      // Every fifth on a board I am not on, assigned to me; some of the others assigned to me too.
      const boardId = i % 5 === 4 ? notMine.id : boards[i % 3]!.id;
      const assignee = i % 5 === 4 || i % 4 === 0 ? me.user.email : uniqueEmail();
      created.push(await createTask(t, other.cookie, { boardId, assignee, priority: priorities[i % 5]!, deadline: deadlines[i % 6]! }));
      t.clock.advance(SECOND);
    }
    for (const task of created.filter((_, i) => i % 3 === 0)) expect((await patch(other.cookie, task._id, { status: 'done' })).status).toBe(200);
    t.clock.advance(90 * MINUTE);

    async function check(step: string) {
      const now = t.clock.now().toISOString();
      const visible: Task[] = (await list(me.cookie)).json.data.tasks;
      const tally = (tasks: Task[]) => ({
        todo: tasks.filter((x) => x.status === 'todo').length,
        done: tasks.filter((x) => x.status === 'done').length,
        overdue: tasks.filter((x) => x.status === 'todo' && x.deadline !== null && x.deadline < now).length,
      });
      expect((await counts(me.cookie)).json.data.counts, step).toEqual(tally(visible));
      for (const board of boards) {
        const res = await counts(other.cookie, `?board=${board.id}`);
        expect(res.status, res.body).toBe(200);
        expect(res.json.data.counts, `${step}: board`).toMatchObject(tally(visible.filter((x) => x.boardId === board.id)));
        // Its columns hold the same tasks between them.
        const { todo, done, columns = {} } = res.json.data.counts;
        expect(Object.values(columns).reduce((sum, n) => sum + n, 0), `${step}: columns`).toBe(todo + done);
      }
      for (const [sort, order] of Object.entries(ORDERS)) {
        for (const status of [undefined, 'todo', 'done']) {
          const want = visible.filter((x) => status === undefined || x.status === status).sort(order);
          const query = `?sort=${sort}${status === undefined ? '' : `&status=${status}`}`;
          for (const limit of [2, 5]) expect(ids(await allPages(me.cookie, query, limit)), `${step}: ${query} by ${limit}`).toEqual(ids(want));
        }
      }
      return visible;
    }

    expect(await check('created')).toHaveLength(22);
    const [a, b, c] = created.filter((x) => x.boardId === boards[0]!.id);
    expect((await patch(other.cookie, a!._id, { boardId: boards[1]!.id })).status).toBe(200);
    expect((await patch(other.cookie, b!._id, { status: b!.status === 'done' ? 'todo' : 'done' })).status).toBe(200);
    expect((await t.request('DELETE', `/api/tasks/${c!._id}`, { cookie: other.cookie })).status).toBe(204);
    expect(await check('moved, completed or reopened, deleted')).toHaveLength(21);
    const gone = boards.pop()!;
    expect((await t.request('DELETE', `/api/boards/${gone.id}`, { cookie: other.cookie })).status).toBe(204);
    await check('board deleted');
    const left = await t.app.db.selectFrom('boardTaskCounts').select('n').where('boardId', '=', gone.id).execute();
    expect(left).toEqual([]);
  });

  it('pages each order as the whole list sorts it when the boards’ first tasks tie on every key but the id', async () => {
    // A page samples each board's first tasks to bound how far every board is read
    // (repositories/task-list-queries.ts, `pageBound`): here the bound lands on ties of
    // created_at (four tasks a second, on different boards), of one priority, of one deadline
    // and of no deadline.
    const me = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const boards: { id: string }[] = [];
    for (let i = 0; i < 6; i += 1) boards.push(await insertBoard(t, { ...other.user, fullName: 'Other' }, [{ who: me.user, role: 'member' }]));
    const deadline = isoIn(DAY);
    const created: Task[] = [];
    for (let i = 0; i < 40; i += 1) {
      const priority = i % 7 === 0 ? 'high' : i % 11 === 0 ? 'low' : 'urgent';
      created.push(await createTask(t, other.cookie, { boardId: boards[i % 6]!.id, assignee: uniqueEmail(), priority, deadline: i % 3 === 0 ? deadline : null }));
      if (i % 4 === 3) t.clock.advance(SECOND);
    }
    for (const task of created.filter((_, i) => i % 5 === 0)) expect((await patch(other.cookie, task._id, { status: 'done' })).status).toBe(200);
    for (const [sort, order] of Object.entries(ORDERS)) {
      const keys = (tasks: Task[]) => tasks.map((x) => [x.createdAt, ...(sort === 'priority' ? [x.priority] : sort === 'deadline' ? [x.deadline] : [])]);
      for (const status of [undefined, 'todo', 'done']) {
        const query = `?sort=${sort}${status === undefined ? '' : `&status=${status}`}`;
        // The whole list (no limit: read and sorted whole, no bound), in the documented order;
        // tasks that tie on every key are in the database's order of their ids.
        const whole: Task[] = (await list(me.cookie, query)).json.data.tasks;
        expect(whole).toHaveLength(status === undefined ? 40 : status === 'done' ? 8 : 32);
        expect(keys(whole), query).toEqual(keys([...whole].sort(order)));
        for (const limit of [1, 3, 7]) expect(ids(await allPages(me.cookie, query, limit)), `${query} by ${limit}`).toEqual(ids(whole));
      }
    }
  });
});

describe('GET /api/tasks/counts overdue', () => {
  it('counts open tasks whose deadline has passed on the app clock, with the same filters', async () => {
    const alice = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const soon = await createTask(t, alice.cookie, { deadline: isoIn(HOUR), priority: 'high' });
    const later = await createTask(t, bob.cookie, { assignee: alice.user.email, deadline: isoIn(DAY) });
    const doneSoon = await createTask(t, alice.cookie, { deadline: isoIn(HOUR) });
    await createTask(t, alice.cookie);
    await patch(alice.cookie, doneSoon._id, { status: 'done' });
    expect((await counts(alice.cookie)).json.data.counts).toEqual({ todo: 3, done: 1, overdue: 0 });
    t.clock.advance(HOUR + MINUTE);
    expect((await counts(alice.cookie)).json.data.counts).toEqual({ todo: 3, done: 1, overdue: 1 });
    expect((await counts(alice.cookie, '?priority=normal')).json.data.counts.overdue).toBe(0);
    t.clock.advance(DAY);
    expect((await counts(alice.cookie)).json.data.counts.overdue).toBe(2);
    expect((await counts(alice.cookie, '?view=assigned-to-me')).json.data.counts).toEqual({ todo: 1, done: 0, overdue: 1 });
    expect((await counts(alice.cookie, '?view=created-by-me')).json.data.counts).toEqual({ todo: 2, done: 1, overdue: 1 });
    await patch(alice.cookie, soon._id, { status: 'done' });
    await patch(alice.cookie, later._id, { status: 'done' });
    expect((await counts(alice.cookie)).json.data.counts.overdue).toBe(0);
  });
});
