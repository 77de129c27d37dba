import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BOARD_POLICY, LIMITS } from '#shared/constants.ts';
import type { Board } from '#shared/schemas/boards.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { TRELLO_IMPORTS_PER_HOUR } from '../routes/boards/trello-import.ts';
import { cut, isDoneListName, labelColorOf, labelNameOf } from '../services/trello-export.ts';
import { boardEventsOf } from './boards-support.ts';
import { createSignedInUser, insertBoard } from './factories.ts';
import { HOUR, useTestApp, type Response, type TestApp } from './helpers.ts';

/**
 * POST /api/boards/import/trello: a Trello board export (the committed fixture is a realistic
 * one, with archived cards and lists, unnamed and duplicate labels, several checklists per card,
 * comments and other actions, and non-ASCII text) becomes a new board with exactly its open cards.
 */
const t = useTestApp();

const FIXTURE = new URL('./fixtures/trello-board.json', import.meta.url);
const fixture = async () => JSON.parse(await readFile(FIXTURE, 'utf8')) as Record<string, unknown> & { cards: Record<string, unknown>[]; lists: Record<string, unknown>[] };

interface Imported {
  board: Board;
  counts: { tasks: number; labels: number; checklistItems: number; comments: number };
}
const importedOf = (res: Response) => (res.json as unknown as { data: Imported }).data;

const importTrello = (app: TestApp, cookie: string | undefined, body: string | Buffer, contentType = 'application/json') =>
  app.app
    .inject({ method: 'POST', url: '/api/boards/import/trello', headers: { 'content-type': contentType, ...(cookie === undefined ? {} : { cookie }) }, payload: body })
    .then((res) => ({ status: res.statusCode, json: (res.body === '' ? undefined : JSON.parse(res.body)) as Response['json'] & { data: Imported } }));

/** Every row an import writes, for "nothing was written" checks. */
async function rowCounts(app: TestApp) {
  const count = async (table: 'boards' | 'tasks' | 'labels' | 'checklistItems' | 'comments' | 'taskLabels' | 'taskActivity') =>
    Number((await app.app.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    boards: await count('boards'),
    tasks: await count('tasks'),
    labels: await count('labels'),
    checklistItems: await count('checklistItems'),
    comments: await count('comments'),
    taskLabels: await count('taskLabels'),
    activity: await count('taskActivity'),
  };
}

async function tasksOf(cookie: string, boardId: string): Promise<Task[]> {
  const res = await t.request('GET', `/api/tasks?board=${boardId}&limit=100`, { cookie });
  expect(res.status, res.body).toBe(200);
  return res.json.data.tasks;
}

describe('POST /api/boards/import/trello', () => {
  it('imports the fixture: a new board I am the admin of, with each open card a task', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await importTrello(t, cookie, await readFile(FIXTURE));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const { board, counts } = importedOf(res as unknown as Response);
    expect(counts).toEqual({ tasks: 5, labels: 6, checklistItems: 5, comments: 3 });
    expect(res.json.message).toBe('Imported 5 tasks, 6 labels, 5 checklist items and 3 comments.');
    expect(board).toMatchObject({ name: 'Website relaunch 🚀', description: 'Everything for the autumn relaunch of the company website.', personal: false, role: 'admin', memberCount: 1 });
    // Deadlines are kept as they were, past ones too (the test clock is in 2031).
    expect(board.counts).toEqual({ todo: 3, done: 2, overdue: 1 });

    const boards = await t.request('GET', '/api/boards', { cookie });
    expect((boards.json.data as unknown as { boards: Board[] }).boards.map((b) => b.name)).toContain('Website relaunch 🚀');

    // "Newest first" lists them in the board's order: list by list (Trello's pos), card by card.
    const tasks = await tasksOf(cookie, board._id);
    expect(tasks.map((task) => [task.taskTitle, task.workTitle, task.status, task.deadline])).toEqual([
      ['Card QA', 'Backlog', 'todo', null],
      ['Draft the sitemap', 'Backlog', 'todo', '2026-12-01T09:00:00.000Z'],
      ['Fix the login bug', 'In progress', 'done', '2025-03-01T12:00:00.000Z'],
      ['Überprüfen: Impressum & Datenschutz', 'Überprüfung', 'todo', null],
      ['Ship the new logo 🎨', 'Done ✅', 'done', null],
    ]);
    for (const task of tasks) {
      expect(task.assignee).toBe(user.email);
      expect(task.priority).toBe('normal');
      expect(task.boardId).toBe(board._id);
    }
    const byTitle = new Map(tasks.map((task) => [task.taskTitle, task]));
    expect(byTitle.get('Draft the sitemap')?.description).toBe('Pages: home, pricing, blog, about.\n\nKeep the URLs of the old site where we can.');
    expect(byTitle.get('Überprüfen: Impressum & Datenschutz')?.description).toBe('„Anführungszeichen“ und ß bleiben erhalten.');

    // Labels: unnamed ones named after their color, "Bug" and "bug" one label (the first's color).
    const labels = await t.request('GET', `/api/boards/${board._id}/labels`, { cookie });
    expect((labels.json.data as unknown as { labels: { name: string; color: string }[] }).labels.map((l) => [l.name, l.color])).toEqual([
      ['Blue dark', 'indigo'],
      ['Bug', 'red'],
      ['Design', 'green'],
      ['No color', 'gray'],
      ['Priorité', 'teal'],
      ['Yellow', 'yellow'],
    ]);
    const labelNames = (title: string) => byTitle.get(title)?.labels.map((l) => l.name);
    expect(labelNames('Draft the sitemap')).toEqual(['Design', 'Yellow']);
    expect(labelNames('Fix the login bug')).toEqual(['Bug']);
    expect(labelNames('Ship the new logo 🎨')).toEqual(['Blue dark', 'No color', 'Priorité']);
    expect(labelNames('Card QA')).toEqual([]);

    // Checklists: checklist by checklist, item by item, in Trello's pos order, with their state.
    const checklist = async (title: string) => {
      const id = byTitle.get(title)?._id ?? '';
      const res = await t.request('GET', `/api/tasks/${id}/checklist`, { cookie });
      expect(res.status, res.body).toBe(200);
      return (res.json.data as unknown as { items: { text: string; done: boolean }[] }).items.map((i) => [i.text, i.done]);
    };
    expect(await checklist('Draft the sitemap')).toEqual([
      ['Pricing', false],
      ['Home', true],
    ]);
    expect(await checklist('Ship the new logo 🎨')).toEqual([
      ['Pick colours', true],
      ['Ask Zoë for feedback', false],
      ['Export SVG and PNG', true],
    ]);
    expect(byTitle.get('Ship the new logo 🎨')?.checklist).toEqual({ done: 2, total: 3 });

    // Comments: "<member name>: <text>" by me, oldest first; other actions and archived cards' comments skipped.
    const comments = async (title: string) => {
      const res = await t.request('GET', `/api/tasks/${byTitle.get(title)?._id ?? ''}/comments`, { cookie });
      expect(res.status, res.body).toBe(200);
      return (res.json.data as unknown as { comments: { body: string; author: { email: string } }[] }).comments;
    };
    const sitemap = await comments('Draft the sitemap');
    expect(sitemap.map((c) => c.body)).toEqual(["Grace Hopper: I'd start with the pricing page.", "Ada Lovelace: Let's keep it to seven pages."]);
    expect(sitemap.every((c) => c.author.email === user.email)).toBe(true);
    expect((await comments('Ship the new logo 🎨')).map((c) => c.body)).toEqual(['Zoë Ñandú: Colours approved 👍']);
    expect(await comments('Fix the login bug')).toEqual([]);

    // Columns: the open lists in Trello's order, a done-like name `done`; each column's cards in
    // Trello's order; a card marked complete on a todo list is in the first done column.
    const columns = (await t.request('GET', `/api/boards/${board._id}/columns`, { cookie })).json.data as unknown as { columns: { _id: string; name: string; category: string }[] };
    expect(columns.columns.map((c) => [c.name, c.category])).toEqual([
      ['Backlog', 'todo'],
      ['In progress', 'todo'],
      ['Überprüfung', 'todo'],
      ['Done ✅', 'done'],
    ]);
    const inColumn = async (i: number) =>
      (await t.request('GET', `/api/tasks?board=${board._id}&column=${columns.columns[i]?._id ?? ''}&sort=position`, { cookie })).json.data.tasks.map((task) => task.taskTitle);
    expect(await inColumn(0)).toEqual(['Card QA', 'Draft the sitemap']);
    expect(await inColumn(1)).toEqual([]);
    expect(await inColumn(3)).toEqual(['Fix the login bug', 'Ship the new logo 🎨']);

    // Archived cards and the cards of archived lists are not there.
    const all = await t.app.db.selectFrom('tasks').select('taskTitle').where('boardId', '=', board._id).execute();
    expect(all.map((r) => r.taskTitle)).not.toContain('An archived card');
    expect(all.map((r) => r.taskTitle)).not.toContain('A card on an archived list');
    expect(await t.app.db.selectFrom('checklistItems').select('text').where('text', '=', 'Never imported').execute()).toEqual([]);

    // My apps are told (board.added); no notification and no mail for my own tasks.
    expect((await boardEventsOf(t, board._id)).map((e) => [e.type, e.audience])).toEqual([['board.added', [user.email]]]);
    expect(await t.app.db.selectFrom('notifications').select('id').execute()).toEqual([]);
    expect(await t.app.db.selectFrom('outbox').select('id').execute()).toEqual([]);
  });

  it('adds "Tasks To Do" or "Completed" only when no list has that category; names made unique; at most 20 columns', async () => {
    const { cookie } = await createSignedInUser(t);
    const columnsOf = async (lists: { id: string; name: string }[], cards: { id: string; idList: string; dueComplete?: boolean }[] = []) => {
      const body = { name: 'Board', lists: lists.map((l, i) => ({ ...l, closed: false, pos: i + 1 })), cards: cards.map((c, i) => ({ name: `Card ${c.id}`, closed: false, pos: i + 1, ...c })) };
      const res = await importTrello(t, cookie, JSON.stringify(body));
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      const boardId = res.json.data.board._id;
      const listed = (await t.request('GET', `/api/boards/${boardId}/columns`, { cookie })).json.data as unknown as { columns: { name: string; category: string; count: number }[] };
      return listed.columns.map((c) => [c.name, c.category, c.count]);
    };
    expect(await columnsOf([{ id: 'a', name: 'Finished' }], [{ id: 'x', idList: 'a' }])).toEqual([
      ['Tasks To Do', 'todo', 0],
      ['Finished', 'done', 1],
    ]);
    expect(await columnsOf([{ id: 'a', name: 'Ideas' }, { id: 'b', name: 'ideas' }], [{ id: 'x', idList: 'b', dueComplete: true }])).toEqual([
      ['Ideas', 'todo', 0],
      ['ideas 2', 'todo', 0],
      ['Completed', 'done', 1],
    ]);
    const many = Array.from({ length: 25 }, (_, i) => ({ id: `l${i}`, name: `Stage ${i}` }));
    const limited = await columnsOf([...many, { id: 'd', name: 'Done' }], [{ id: 'x', idList: 'l24' }]);
    expect(limited).toHaveLength(20);
    expect(limited.at(-1)).toEqual(['Done', 'done', 0]);
    // The card of a list past the limit is in the first column of its category.
    expect(limited[0]).toEqual(['Stage 0', 'todo', 1]);
  });

  it('shortens texts past the API limits, names short cards, and keeps at most 10 labels per task and 100 checklist items', async () => {
    const { cookie } = await createSignedInUser(t);
    const labels = Array.from({ length: 12 }, (_, i) => ({ id: `l${i}`, name: `Label ${i}`, color: 'green' }));
    const body = {
      name: `  ${'B'.repeat(100)}  `,
      lists: [{ id: 'L', name: 'W'.repeat(150), closed: false, pos: 1 }],
      labels,
      cards: [
        { id: 'c1', name: 'T'.repeat(300), idList: 'L', closed: false, desc: 'D'.repeat(6000), idLabels: labels.map((l) => l.id), idChecklists: ['k'], pos: 1 },
        { id: 'c2', name: '', idList: 'L', closed: false, pos: 2 },
      ],
      checklists: [{ id: 'k', idCard: 'c1', pos: 1, checkItems: Array.from({ length: 105 }, (_, i) => ({ name: `Item ${i}`, state: 'incomplete', pos: i })) }],
      actions: [{ type: 'commentCard', date: '2026-01-01T00:00:00.000Z', data: { text: 'x'.repeat(3000), card: { id: 'c1' } }, memberCreator: { fullName: 'Ada' } }],
    };
    const res = await importTrello(t, cookie, JSON.stringify(body));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.data.counts).toEqual({ tasks: 2, labels: 12, checklistItems: 100, comments: 1 });
    expect(res.json.message).toBe(
      'Imported 2 tasks, 12 labels, 100 checklist items and 1 comment. 5 texts were shortened to fit; 2 card labels past 10 per task left out; 5 checklist items past 100 per task left out.',
    );
    expect(res.json.data.board.name).toBe(`${'B'.repeat(LIMITS.boardNameMax - 1)}…`);
    const rows = await t.app.db.selectFrom('tasks').selectAll().where('boardId', '=', res.json.data.board._id).orderBy('createdAt', 'desc').execute();
    expect(rows.map((r) => r.taskTitle)).toEqual([`${'T'.repeat(LIMITS.taskTitleMax - 1)}…`, 'Untitled card']);
    expect(rows[0]?.workTitle).toHaveLength(LIMITS.workTitleMax);
    expect(rows[0]?.description).toHaveLength(LIMITS.descriptionMax);
    expect(rows[0]?.checklistTotal).toBe(100);
    const comment = await t.app.db.selectFrom('comments').select('body').where('taskId', '=', rows[0]?.id ?? '').executeTakeFirstOrThrow();
    expect(comment.body).toHaveLength(LIMITS.commentMax);
    expect(comment.body.startsWith('Ada: xxx')).toBe(true);
    const taskLabels = await t.app.db.selectFrom('taskLabels').select('labelId').where('taskId', '=', rows[0]?.id ?? '').execute();
    expect(taskLabels).toHaveLength(LIMITS.labelsPerTask);
  });

  it('answers 400 and writes nothing for JSON that is not a Trello export or has fields of the wrong type', async () => {
    const { cookie } = await createSignedInUser(t);
    const before = await rowCounts(t);
    const valid = await fixture();
    const cases: [string, string, { field: string }[] | undefined][] = [
      ['[1, 2, 3]', 'VALIDATION_FAILED', [{ field: 'body' }]],
      ['"a string"', 'VALIDATION_FAILED', [{ field: 'body' }]],
      [JSON.stringify({ hello: 'world' }), 'VALIDATION_FAILED', [{ field: 'name' }, { field: 'lists' }, { field: 'cards' }]],
      [JSON.stringify({ ...valid, cards: 'none' }), 'VALIDATION_FAILED', [{ field: 'cards' }]],
      [JSON.stringify({ ...valid, cards: [...valid.cards, { ...valid.cards[0], name: 42 }] }), 'VALIDATION_FAILED', [{ field: 'cards[7].name' }]],
      [JSON.stringify({ ...valid, cards: [...valid.cards, { ...valid.cards[0], due: 'tomorrow' }] }), 'VALIDATION_FAILED', [{ field: 'cards[7].due' }]],
      [JSON.stringify({ ...valid, cards: [...valid.cards, { ...valid.cards[0], idList: 'nowhere' }] }), 'VALIDATION_FAILED', [{ field: 'cards[7].idList' }]],
      [JSON.stringify({ ...valid, lists: [...valid.lists, 7] }), 'VALIDATION_FAILED', [{ field: 'lists[5]' }]],
      [JSON.stringify({ ...valid, checklists: [{ id: 'k', idCard: 'x', checkItems: [{ name: 'a', state: 'maybe' }] }] }), 'VALIDATION_FAILED', [{ field: 'checklists[0].checkItems[0].state' }]],
      ['{"name": "Board", "lists": [', 'MALFORMED_JSON', undefined],
      ['not json at all', 'MALFORMED_JSON', undefined],
      ['', 'MALFORMED_JSON', undefined],
    ];
    for (const [body, code, fields] of cases) {
      const res = await importTrello(t, cookie, body);
      expect(res.status, `${body.slice(0, 60)} → ${JSON.stringify(res.json)}`).toBe(400);
      expect(res.json.code).toBe(code);
      if (fields !== undefined) expect(res.json.errors.map((e) => ({ field: e.field }))).toEqual(fields);
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('answers 413 past 20 MB (declared or streamed) and 415 for another content type, writing nothing', async () => {
    const { cookie } = await createSignedInUser(t);
    const before = await rowCounts(t);
    const valid = await fixture();
    // A real export padded past the limit with a long description: refused while it streams in.
    const big = JSON.stringify({ ...valid, desc: 'x'.repeat(LIMITS.importMaxBytes) });
    const declared = await importTrello(t, cookie, big);
    expect(declared.status).toBe(413);
    expect(declared.json.code).toBe('PAYLOAD_TOO_LARGE');
    const streamed = await t.app.inject({
      method: 'POST',
      url: '/api/boards/import/trello',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', cookie },
      payload: Readable.from(
        (function* () {
          for (let sent = 0; sent <= LIMITS.importMaxBytes; sent += 1024 * 1024) yield Buffer.from(sent === 0 ? `{"name":"x","desc":"${'y'.repeat(1024 * 1024 - 20)}` : 'y'.repeat(1024 * 1024));
        })(),
      ),
    });
    expect(streamed.statusCode).toBe(413);
    // Just under the limit is read.
    const under = JSON.stringify({ ...valid, desc: 'x'.repeat(LIMITS.importMaxBytes - JSON.stringify(valid).length - 100) });
    expect(Buffer.byteLength(under)).toBeLessThanOrEqual(LIMITS.importMaxBytes);
    expect((await importTrello(t, cookie, under)).status).toBe(201);

    const text = await importTrello(t, cookie, JSON.stringify(valid), 'text/plain');
    expect(text.status).toBe(415);
    expect(text.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const csv = await importTrello(t, cookie, 'a,b', 'text/csv');
    expect(csv.status).toBe(415);
    expect((await rowCounts(t)).boards).toBe(before.boards + 1);
  });

  it('needs a signed-in person, and counts against the shared boards one account may be on', async () => {
    const body = await readFile(FIXTURE);
    const anonymous = await importTrello(t, undefined, body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.code).toBe('NOT_AUTHENTICATED');

    const { user, cookie } = await createSignedInUser(t);
    for (let i = 0; i < BOARD_POLICY.maxSharedBoardsPerAccount; i += 1) await insertBoard(t, user);
    const before = await rowCounts(t);
    const full = await importTrello(t, cookie, body);
    expect(full.status).toBe(409);
    expect(full.json.code).toBe('LIMIT_REACHED');
    expect(await rowCounts(t)).toEqual(before);
  });

  it('takes at most 20 imports per account per hour (429 with Retry-After), then takes them again', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const at = t.clock.now().toISOString();
    const earlier = Array.from({ length: TRELLO_IMPORTS_PER_HOUR }, (_, i) => ({ id: `hit-${user.id}-${String(i)}`, key: `trello-import:${user.id}`, hitAt: at }));
    await t.app.db.insertInto('rateLimitHits').values(earlier).execute();
    const before = await rowCounts(t);
    const refused = await t.app.inject({ method: 'POST', url: '/api/boards/import/trello', headers: { 'content-type': 'application/json', cookie }, payload: await readFile(FIXTURE) });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(await rowCounts(t)).toEqual(before);
    t.clock.advance(HOUR);
    expect((await importTrello(t, cookie, await readFile(FIXTURE))).status).toBe(201);
  });

  it('keeps other routes at the 16 KB body limit', async () => {
    const { cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/boards', { cookie, body: { name: 'x', description: 'y'.repeat(LIMITS.bodyMaxBytes) } });
    expect(res.status).toBe(413);
  });
});

describe('Trello mapping rules', () => {
  it('counts a list as done when its name holds done, complete(d) or finished as a word, in any case', () => {
    for (const name of ['Done', 'DONE ✅', 'done!', 'Complete', 'Completed tasks', 'Finished', 'Sprint 3 – done']) expect(isDoneListName(name), name).toBe(true);
    for (const name of ['Undone', 'Incomplete', 'Not done', 'To do', 'Doneness', 'Finish line']) expect(isDoneListName(name), name).toBe(false);
  });

  it("maps Trello's label colors onto the palette and names unnamed labels after them", () => {
    expect(['green', 'sky', 'lime', 'black', 'blue_dark', 'red_light', 'pink', null, 'chartreuse'].map((c) => labelColorOf(c))).toEqual([
      'green',
      'teal',
      'green',
      'gray',
      'indigo',
      'red',
      'pink',
      'gray',
      'gray',
    ]);
    expect([labelNameOf('sky'), labelNameOf('green_dark'), labelNameOf(null)]).toEqual(['Sky', 'Green dark', 'No color']);
  });

  it('cuts text with an ellipsis without splitting a surrogate pair', () => {
    expect(cut('abcdef', 6)).toEqual({ text: 'abcdef', cut: false });
    expect(cut('abcdefg', 6)).toEqual({ text: 'abcde…', cut: true });
    expect(cut('abcd😀x', 6)).toEqual({ text: 'abcd…', cut: true });
  });
});
