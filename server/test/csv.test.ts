import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Task } from '#shared/schemas/tasks.ts';
import { placedAtTop } from '../repositories/columns-repository.ts';
import { boardEventsOf, lastEventId } from './boards-support.ts';
import { insertLabels, labelsTeam } from './labels-support.ts';
import { createSignedInUser, createTask, insertBoard, type TestUser } from './factories.ts';
import { DAY, useTestApp, type Response } from './helpers.ts';

const t = useTestApp();
const HEADER = 'taskTitle,workTitle,assignee,deadline,priority,status,description,labels';
/** An export's header: every column an import takes, the start and the task's column (by name) included. */
const EXPORT_HEADER = 'taskTitle,workTitle,assignee,deadline,priority,status,description,labels,column,startAt';

const exportOf = (cookie: string, boardId: string) => t.request('GET', `/api/boards/${boardId}/export.csv`, { cookie });
const importOf = (cookie: string, boardId: string, body: string, type = 'text/csv; charset=utf-8') =>
  t.request('POST', `/api/boards/${boardId}/import.csv`, { cookie, body, headers: { 'content-type': type } });
/** The records of a CSV answer (header first), read by csv-parse. */
const recordsOf = (res: Response): string[][] => {
  expect(res.status, res.body).toBe(200);
  const records: string[][] = parse(res.body, { bom: true });
  return records;
};
const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();
const tasksOn = async (boardId: string) =>
  (await t.app.db.selectFrom('tasks').select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n')).where('boardId', '=', boardId).executeTakeFirstOrThrow()).n;

const team = () => labelsTeam(t);

async function labelOn(cookie: string, boardId: string, name: string): Promise<string> {
  const res = await t.request('POST', `/api/boards/${boardId}/labels`, { cookie, body: { name, color: 'blue' } });
  expect(res.status, res.body).toBe(201);
  return (res.json.data as unknown as { label: { _id: string } }).label._id;
}

describe('GET /api/boards/:id/export.csv', () => {
  it("writes the board's tasks as RFC 4180 CSV with the header row, newest first", async () => {
    const { admin, board } = await team();
    const urgent = await labelOn(admin.cookie, board.id, 'Urgent; really');
    const later = await labelOn(admin.cookie, board.id, 'Later');
    const deadline = inDays(2);
    await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'Plain task', assignee: 'a@example.com' });
    t.clock.advance(1000);
    await createTask(t, admin.cookie, {
      boardId: board.id,
      taskTitle: 'Quote "this", then, commas',
      workTitle: 'Line\nbreak',
      assignee: 'b@example.com',
      deadline,
      priority: 'high',
      description: 'Multi\r\nline, "quoted"\n',
      labelIds: [urgent, later],
    });
    const res = await exportOf(admin.cookie, board.id);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${board.name.replace(/\s+/g, '-')}.csv"`);
    expect(res.body.startsWith(`${EXPORT_HEADER}\r\n`)).toBe(true);
    // Fields with a quote, comma or line break are quoted, quotes doubled.
    expect(res.body).toContain('"Quote ""this"", then, commas","Line\nbreak"');
    expect(recordsOf(res)).toEqual([
      EXPORT_HEADER.split(','),
      ['Quote "this", then, commas', 'Line\nbreak', 'b@example.com', deadline, 'high', 'todo', 'Multi\r\nline, "quoted"', 'Later;Urgent; really', 'Tasks To Do', ''],
      ['Plain task', '', 'a@example.com', '', 'normal', 'todo', '', '', 'Tasks To Do', ''],
    ]);
  });

  it('answers any member, viewers too; 404 for anyone else and for no board; 401 without a session', async () => {
    const { admin, member, viewer, outsider, board } = await team();
    await createTask(t, admin.cookie, { boardId: board.id });
    for (const who of [admin, member, viewer]) expect(recordsOf(await exportOf(who.cookie, board.id))).toHaveLength(2);
    expect((await exportOf(outsider.cookie, board.id)).status).toBe(404);
    expect((await exportOf(admin.cookie, 'no-such-board')).status).toBe(404);
    expect((await exportOf(admin.cookie, 'not an id!')).status).toBe(404);
    expect((await t.request('GET', `/api/boards/${board.id}/export.csv`)).status).toBe(401);
  });

  it('writes every task of a board larger than a page, each once', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const start = t.clock.now().getTime();
    const rows = Array.from({ length: 1203 }, (_, i) => {
      const at = new Date(start + Math.floor(i / 3)).toISOString();
      return { id: `x${i}-${user.id}`.slice(0, 64), workTitle: '', taskTitle: `Row ${i}`, assigneeEmail: user.email, createdBy: user.id, boardId: user.id, deadline: null, priority: 'normal', status: i % 2 === 0 ? 'todo' : 'done', description: '', createdAt: at, updatedAt: at, version: 1 } as const;
    });
    const placed = await placedAtTop(t.app.db, rows);
    for (let i = 0; i < rows.length; i += 400) await t.app.db.insertInto('tasks').values(placed.slice(i, i + 400)).execute();
    const records = recordsOf(await exportOf(cookie, user.id)).slice(1);
    expect(records).toHaveLength(1203);
    expect(new Set(records.map((r) => r[0])).size).toBe(1203);
  });
});

describe('POST /api/boards/:id/import.csv', () => {
  it('round trip: an export imported onto another board exports the same', async () => {
    const { admin, board } = await team();
    const other = await insertBoard(t, admin.user);
    const existing = await labelOn(admin.cookie, other.id, 'later');
    const label = await labelOn(admin.cookie, board.id, 'Later');
    const second = await labelOn(admin.cookie, board.id, 'Blocked, "hard"');
    await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'First, "quoted"', assignee: 'x@example.com', description: 'a\nb', labelIds: [label] });
    t.clock.advance(1000);
    const done: Task = await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'Second', workTitle: 'W', assignee: 'y@example.com', deadline: inDays(3), priority: 'urgent', labelIds: [label, second] });
    expect((await t.request('PATCH', `/api/tasks/${done._id}`, { cookie: admin.cookie, body: { status: 'done' } })).status).toBe(200);
    const exported = await exportOf(admin.cookie, board.id);

    const res = await importOf(admin.cookie, other.id, exported.body);
    expect(res.status, res.body).toBe(201);
    // 'Later' is the board's 'later' (ignoring case); the other one is made.
    expect(res.json.data).toEqual({ counts: { tasks: 2, labels: 1 } });
    expect(res.json.message).toBe('2 tasks were imported.');
    const again = recordsOf(await exportOf(admin.cookie, other.id));
    expect(again).toEqual(recordsOf(exported).map((r) => r.map((cell) => cell.replace('Later', 'later'))));
    const labels = await t.app.db.selectFrom('labels').select(['id', 'name', 'color']).where('boardId', '=', other.id).orderBy('nameKey').execute();
    expect(labels.map((l) => [l.name, l.color])).toEqual([
      ['Blocked, "hard"', 'gray'],
      ['later', 'blue'],
    ]);
    expect(labels[1]?.id).toBe(existing);
  });

  it('places each row in its named column (ignoring case), creating a missing one as todo after the last; the column decides the status', async () => {
    const { admin, board } = await team();
    const review = await t.request('POST', `/api/boards/${board.id}/columns`, { cookie: admin.cookie, body: { name: 'Review', category: 'done' } });
    expect(review.status, review.body).toBe(201);
    const body = [
      'taskTitle,assignee,status,column',
      `Into review,${admin.user.email},todo,review`,
      `Into doing,${admin.user.email},done,Doing`,
      `Also doing,${admin.user.email},,  doing `,
      `No column,${admin.user.email},done,`,
    ].join('\n');
    const res = await importOf(admin.cookie, board.id, body);
    expect(res.status, res.body).toBe(201);
    const columns = ((await t.request('GET', `/api/boards/${board.id}/columns`, { cookie: admin.cookie })).json.data as unknown as { columns: { _id: string; name: string; category: string; count: number }[] }).columns;
    expect(columns.map((c) => [c.name, c.category, c.count])).toEqual([
      ['Tasks To Do', 'todo', 0],
      ['Completed', 'done', 1],
      ['Review', 'done', 1],
      ['Doing', 'todo', 2],
    ]);
    const doing = columns[3]?._id ?? '';
    const list = await t.request('GET', `/api/tasks?board=${board.id}&column=${doing}&sort=position`, { cookie: admin.cookie });
    // The file's first row of a column is its top; the column decides the status.
    expect(list.json.data.tasks.map((task) => [task.taskTitle, task.status])).toEqual([
      ['Into doing', 'todo'],
      ['Also doing', 'todo'],
    ]);
    const all = await t.request('GET', `/api/tasks?board=${board.id}`, { cookie: admin.cookie });
    const byTitle = new Map(all.json.data.tasks.map((task) => [task.taskTitle, task]));
    expect([byTitle.get('Into review')?.status, byTitle.get('Into review')?.columnId]).toEqual(['done', columns[2]?._id]);
    expect([byTitle.get('No column')?.status, byTitle.get('No column')?.columnId]).toEqual(['done', columns[1]?._id]);
    // The export names each task's column.
    const exported = recordsOf(await exportOf(admin.cookie, board.id));
    expect(new Map(exported.slice(1).map((r) => [r[0], r[EXPORT_HEADER.split(',').indexOf('column')]]))).toEqual(
      new Map([
        ['Into review', 'Review'],
        ['Into doing', 'Doing'],
        ['Also doing', 'Doing'],
        ['No column', 'Completed'],
      ]),
    );
  });

  it('refuses, naming the row, an import whose new columns would pass 20 on the board, and imports nothing; a column name over 40 characters is a bad row', async () => {
    const { admin, board } = await team();
    const rows = Array.from({ length: 19 }, (_, i) => `Task ${i},${admin.user.email},Stage ${i}`);
    const res = await importOf(admin.cookie, board.id, ['taskTitle,assignee,column', ...rows].join('\n'));
    expect(res.status, res.body).toBe(400);
    // The board has 2 columns: the 18th new one (row 20) would be the 21st.
    expect(res.json.errors).toEqual([{ field: 'row 20: column', message: 'A board can have at most 20 columns: this row names one more.' }]);
    expect(await tasksOn(board.id)).toBe(0);
    const columns = await t.app.db.selectFrom('boardColumns').select('name').where('boardId', '=', board.id).execute();
    expect(columns).toHaveLength(2);
    const long = await importOf(admin.cookie, board.id, `taskTitle,assignee,column\nA task,${admin.user.email},${'c'.repeat(41)}\n`);
    expect([long.status, long.json.errors.map((e) => e.field)]).toEqual([400, ['row 2: column']]);
  });

  it('reads RFC 4180: a BOM, CRLF, quotes, line breaks in quotes, columns in any order, only the required ones', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const body = '\uFEFFassignee,taskTitle\r\nA@Example.com,"Say ""hi"", then\r\nleave"\r\n  b@example.com  ,  Trimmed title  \r\n\r\n';
    const res = await importOf(cookie, user.id, body);
    expect(res.status, res.body).toBe(201);
    const list = await t.request('GET', `/api/tasks?board=${user.id}`, { cookie });
    expect(list.json.data.tasks.map((task) => [task.taskTitle, task.assignee, task.priority, task.status, task.workTitle, task.deadline, task.assignorEmail])).toEqual([
      ['Say "hi", then\r\nleave', 'a@example.com', 'normal', 'todo', '', null, user.email],
      ['Trimmed title', 'b@example.com', 'normal', 'todo', '', null, user.email],
    ]);
  });

  it("writes the tasks with their activity, reminders and one board.updated to the board's members", async () => {
    const { admin, member, board } = await team();
    const after = await lastEventId(t);
    const res = await importOf(member.cookie, board.id, `taskTitle,assignee,deadline\nRemind me,${admin.user.email},${inDays(5)}\n`);
    expect(res.status, res.body).toBe(201);
    const task = await t.app.db.selectFrom('tasks').select(['id', 'createdBy']).where('boardId', '=', board.id).executeTakeFirstOrThrow();
    expect(task.createdBy).toBe(member.user.id);
    const reminder = await t.app.db.$extendTables<{ tasks: { nextReminderAt: string | null } }>().selectFrom('tasks').select('nextReminderAt').where('id', '=', task.id).executeTakeFirstOrThrow();
    expect(reminder.nextReminderAt).toBe(new Date(Date.parse(inDays(5)) - DAY).toISOString());
    const activity = await t.request('GET', `/api/tasks/${task.id}/activity`, { cookie: admin.cookie });
    expect(activity.status, activity.body).toBe(200);
    expect(JSON.stringify(activity.json.data)).toContain('"created"');
    const events = await boardEventsOf(t, board.id, after);
    expect(events.map((e) => e.type)).toEqual(['board.updated', 'board.updated', 'board.updated']);
  });

  it('answers admins and members; 403 for a viewer, 404 for anyone else, 401 without a session, and writes nothing then', async () => {
    const { admin, member, viewer, outsider, board } = await team();
    const body = `taskTitle,assignee\nSome task,${admin.user.email}\n`;
    expect((await importOf(admin.cookie, board.id, body)).status).toBe(201);
    expect((await importOf(member.cookie, board.id, body)).status).toBe(201);
    const refused = await importOf(viewer.cookie, board.id, body);
    expect([refused.status, refused.json.code]).toEqual([403, 'FORBIDDEN']);
    expect((await importOf(outsider.cookie, board.id, body)).status).toBe(404);
    expect((await importOf(admin.cookie, 'no-such-board', body)).status).toBe(404);
    expect((await t.request('POST', `/api/boards/${board.id}/import.csv`, { body, headers: { 'content-type': 'text/csv' } })).status).toBe(401);
    expect(await tasksOn(board.id)).toBe(2);
  });

  it('lists every bad row and field, numbered as a spreadsheet does, and imports nothing', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const past = new Date(t.clock.now().getTime() - DAY).toISOString();
    const eleven = Array.from({ length: 11 }, (_, i) => `L${i}`).join(';');
    const rows = [
      HEADER,
      `Good row,${user.email},,,,,,`,
      `ab,not-an-email,,,,,,`,
      `Fine title,${user.email},,tomorrow,someday,open,,`,
      `Fine title,${user.email},,${past},,,,`,
      `Fine title,${user.email},${'w'.repeat(101)},,,,,`,
      `Fine title,${user.email},,,,,,${eleven}`,
      `Fine title,${user.email},,,,,,${'n'.repeat(41)}`,
      `Too,few,fields`,
      `Fine title,${user.email},,,,,"${'d'.repeat(5001)}",`,
    ];
    const header = 'taskTitle,assignee,workTitle,deadline,priority,status,description,labels';
    const res = await importOf(cookie, user.id, [header, ...rows.slice(1)].join('\n'));
    expect(res.status, res.body).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.errors.map((e) => e.field)).toEqual([
      'row 3: taskTitle',
      'row 3: assignee',
      'row 4: deadline',
      'row 4: priority',
      'row 4: status',
      'row 5: deadline',
      'row 6: workTitle',
      'row 7: labels',
      'row 8: labels',
      'row 9: row',
      'row 10: description',
    ]);
    for (const error of res.json.errors) expect(error.message.length).toBeGreaterThan(5);
    expect(res.json.errors.find((e) => e.field === 'row 5: deadline')?.message).toBe('Deadline cannot be in the past.');
    expect(await tasksOn(user.id)).toBe(0);
  });

  it('refuses a header with an unknown, repeated or missing column, an empty file or one without rows, and bad CSV', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const cases: [string, string, string][] = [
      [`taskTitle,assignee,color\nA task,${user.email},red\n`, 'header', 'Unknown column "color"'],
      [`taskTitle,assignee,taskTitle\nA task,${user.email},x\n`, 'header', 'The column "taskTitle" appears more than once.'],
      [`taskTitle,deadline\nA task,\n`, 'header', 'The column "assignee" is required.'],
      ['', 'header', 'The file has no header row.'],
      ['taskTitle,assignee\r\n', 'file', 'The file has a header row but no tasks.'],
      [`taskTitle,assignee\n"Unclosed,${user.email}\n`, 'row 2', 'The file is not valid CSV.'],
      [`taskTitle,assignee\nA "bad" quote,${user.email}\n`, 'row 2', 'The file is not valid CSV.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await importOf(cookie, user.id, body);
      expect(res.status, body).toBe(400);
      expect(res.json.errors[0]?.field, body).toBe(field);
      expect(res.json.errors[0]?.message, body).toContain(message);
    }
    expect(await tasksOn(user.id)).toBe(0);
  });

  it('keeps the 100 labels of a board: an import that needs more imports nothing', async () => {
    const { user, cookie }: { user: TestUser; cookie: string } = await createSignedInUser(t);
    await insertLabels(t, user.id, ...Array.from({ length: 99 }, (_, i) => `Label ${i}`));
    const ok = await importOf(cookie, user.id, `taskTitle,assignee,labels\nOne more,${user.email},LABEL 5;New one\n`);
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.data).toEqual({ counts: { tasks: 1, labels: 1 } });
    const full = await importOf(cookie, user.id, `taskTitle,assignee,labels\nFirst,${user.email},Label 1\nSecond,${user.email},Too many\n`);
    expect(full.status, full.body).toBe(400);
    expect(full.json.errors).toEqual([{ field: 'labels', message: 'A board can have at most 100 labels: this import would need more.' }]);
    expect(await tasksOn(user.id)).toBe(1);
  });

  it('takes text/csv only (415), up to 20 MB on this route (413), while other routes keep their limit', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const body = `taskTitle,assignee\nA task,${user.email}\n`;
    for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      const res = await importOf(cookie, user.id, type === 'application/json' ? JSON.stringify(body) : body, type);
      expect([res.status, res.json.code], type).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    const line = `${'A long title '.repeat(10)},${user.email}\n`;
    const large = `taskTitle,assignee\n${line.repeat(Math.ceil((20 * 1024 * 1024) / line.length) + 10)}`;
    const tooLarge = await importOf(cookie, user.id, large);
    expect([tooLarge.status, tooLarge.json.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const json = await t.request('POST', '/api/tasks', { cookie, body: { taskTitle: 'x'.repeat(20_000), assignee: user.email } });
    expect(json.status).toBe(413);
    expect(await tasksOn(user.id)).toBe(0);
  });
});
