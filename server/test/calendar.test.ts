import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { build, loggedUrl } from '../app.ts';
import { placedAtTop } from '../repositories/columns-repository.ts';
import { boardsApi } from './boards-support.ts';
import { labelsTeam } from './labels-support.ts';
import { createSignedInUser, createTask, insertBoard, uniqueEmail, type TestUser } from './factories.ts';
import { DAY, TEST_ORIGIN, useTestApp, type Response, type TestApp } from './helpers.ts';

const t = useTestApp();

interface FeedEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  url: string;
  priority: number;
  lastModified: Date;
  stamp: Date;
}

/** The feed answer parsed by ical.js (an independent RFC 5545 parser), one entry per VEVENT. */
function eventsOf(res: Response): FeedEvent[] {
  expect(res.status, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(res.body) as unknown[]);
  expect(calendar.name).toBe('vcalendar');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  return calendar.getAllSubcomponents('vevent').map((event) => {
    const time = (name: string) => (event.getFirstPropertyValue(name) as ICAL.Time).toJSDate();
    return {
      uid: event.getFirstPropertyValue('uid') as string,
      start: time('dtstart'),
      end: time('dtend'),
      summary: event.getFirstPropertyValue('summary') as string,
      description: event.getFirstPropertyValue('description') as string,
      url: event.getFirstPropertyValue('url') as string,
      priority: Number(event.getFirstPropertyValue('priority')),
      lastModified: time('last-modified'),
      stamp: time('dtstamp'),
    };
  });
}

/** The path of `user`'s feed (made on the first call). */
async function feedPath(test: TestApp, cookie: string): Promise<string> {
  const res = await test.request('GET', '/api/users/me/calendar', { cookie });
  expect(res.status, res.body).toBe(200);
  const url = (res.json.data as unknown as { url: string }).url;
  expect(url).toMatch(new RegExp(`^${TEST_ORIGIN}/api/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
  return url.slice(TEST_ORIGIN.length);
}

const feed = (path: string, headers: Record<string, string> = {}) => t.request('GET', path, { headers });
const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();
const titlesOf = (res: Response) => eventsOf(res).map((event) => event.summary).toSorted();

describe('GET /api/users/me/calendar', () => {
  it('makes the secret URL on the first call and answers the same one after', async () => {
    const { cookie } = await createSignedInUser(t);
    const first = await feedPath(t, cookie);
    expect(await feedPath(t, cookie)).toBe(first);
    const other = await createSignedInUser(t);
    expect(await feedPath(t, other.cookie)).not.toBe(first);
  });

  it('needs a session', async () => {
    expect((await t.request('GET', '/api/users/me/calendar')).status).toBe(401);
    expect((await t.request('POST', '/api/users/me/calendar/rotate')).status).toBe(401);
  });

  it('keeps one row per person when first calls race', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const paths = await Promise.all(Array.from({ length: 5 }, () => feedPath(t, cookie)));
    expect(new Set(paths).size).toBe(1);
    const rows = await t.app.db.selectFrom('calendarFeeds').selectAll().where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('POST /api/users/me/calendar/rotate', () => {
  it('answers a new URL; the old one answers 404 at once', async () => {
    const { cookie } = await createSignedInUser(t);
    const old = await feedPath(t, cookie);
    expect(eventsOf(await feed(old))).toEqual([]);
    const res = await t.request('POST', '/api/users/me/calendar/rotate', { cookie });
    expect(res.status, res.body).toBe(200);
    const fresh = (res.json.data as unknown as { url: string }).url.slice(TEST_ORIGIN.length);
    expect(fresh).not.toBe(old);
    const gone = await feed(old);
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('NOT_FOUND');
    expect(eventsOf(await feed(fresh))).toEqual([]);
    expect(await feedPath(t, cookie)).toBe(fresh);
  });
});

describe('GET /api/calendar/<secret>.ics', () => {
  it('starts the event at the task\'s start when it has one (DTSTART), ending at the deadline; without one, at the deadline', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const deadline = inDays(3);
    const startAt = inDays(1);
    await createTask(t, cookie, { taskTitle: 'With a start', assignee: user.email, deadline, startAt });
    await createTask(t, cookie, { taskTitle: 'Start at the deadline', assignee: user.email, deadline, startAt: deadline });
    const events = eventsOf(await feed(await feedPath(t, cookie))).toSorted((a, b) => a.summary.localeCompare(b.summary));
    expect(events.map((e) => [e.summary, e.start, e.end])).toEqual([
      ['Start at the deadline', new Date(deadline), new Date(Date.parse(deadline) + 30 * 60_000)],
      ['With a start', new Date(startAt), new Date(deadline)],
    ]);
  });

  it('writes one VEVENT per open task with a deadline, every field from the task', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const deadline = inDays(3);
    const task = await createTask(t, cookie, {
      taskTitle: 'Ship the release, "v2"; with commas',
      assignee: user.email,
      deadline,
      priority: 'urgent',
      workTitle: 'Launch',
      description: 'First line\nSecond line, with a comma; and a semicolon',
    });
    const board = await t.app.db.selectFrom('boards').select('name').where('id', '=', user.id).executeTakeFirstOrThrow();
    const [event, ...others] = eventsOf(await feed(await feedPath(t, cookie)));
    expect(others).toEqual([]);
    expect(event).toEqual({
      uid: `${task._id}@localhost:3000`,
      start: new Date(deadline),
      end: new Date(Date.parse(deadline) + 30 * 60_000),
      summary: 'Ship the release, "v2"; with commas',
      description: `Board: ${board.name}\nAssignee: ${user.email}\nPriority: Urgent\nWork: Launch\n\nFirst line\nSecond line, with a comma; and a semicolon`,
      url: `${TEST_ORIGIN}/tasks/${task._id}`,
      priority: 1,
      lastModified: new Date(task.updatedAt),
      stamp: new Date(task.updatedAt),
    });
  });

  it("is written in its owner's language: the product's own board names translated, a name people typed as they typed it", async () => {
    const { user, cookie } = await createSignedInUser(t);
    expect((await t.request('PATCH', '/api/users/me/settings', { cookie, body: { language: 'de' } })).status).toBe(200);
    const typed = await insertBoard(t, user, [], "Sprint {1} 'Q3'");
    await createTask(t, cookie, { taskTitle: 'Personal one', assignee: user.email, deadline: inDays(1), priority: 'high' });
    await createTask(t, cookie, { taskTitle: 'Shared one', assignee: user.email, deadline: inDays(2), boardId: typed.id });
    const events = eventsOf(await feed(await feedPath(t, cookie)));
    const descriptionOf = (title: string) => events.find((event) => event.summary === title)?.description;
    expect(descriptionOf('Personal one')).toBe(`Board: Persönlich\nZuständig: ${user.email}\nPriorität: Hoch`);
    expect(descriptionOf('Shared one')).toBe(`Board: Sprint {1} 'Q3'\nZuständig: ${user.email}\nPriorität: Normal`);
  });

  it('keeps the UID of a task across reads and edits', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { assignee: user.email, deadline: inDays(1) });
    const path = await feedPath(t, cookie);
    const before = eventsOf(await feed(path))[0]?.uid;
    const edit = await t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body: { taskTitle: 'Renamed task' } });
    expect(edit.status, edit.body).toBe(200);
    const after = eventsOf(await feed(path));
    expect(after.map((e) => [e.uid, e.summary])).toEqual([[before, 'Renamed task']]);
  });

  it('shows what the person sees: board tasks to members and viewers, assigned tasks to the assignee; not done or undated ones', async () => {
    const { admin, member, viewer, outsider, board } = await labelsTeam(t);
    await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'Board dated', deadline: inDays(2) });
    await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'Board undated' });
    const done = await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'Board done', deadline: inDays(2) });
    expect((await t.request('PATCH', `/api/tasks/${done._id}`, { cookie: admin.cookie, body: { status: 'done' } })).status).toBe(200);
    // On the admin's board, assigned to the outsider: they see it without being a member.
    await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'Assigned to outsider', assignee: outsider.user.email, deadline: inDays(4) });
    // On the admin's personal board: nobody else sees it.
    await createTask(t, admin.cookie, { taskTitle: 'Personal of admin', deadline: inDays(1) });

    const boardTitles = ['Assigned to outsider', 'Board dated'];
    expect(titlesOf(await feed(await feedPath(t, member.cookie)))).toEqual(boardTitles);
    expect(titlesOf(await feed(await feedPath(t, viewer.cookie)))).toEqual(boardTitles);
    expect(titlesOf(await feed(await feedPath(t, admin.cookie)))).toEqual([...boardTitles, 'Personal of admin']);
    expect(titlesOf(await feed(await feedPath(t, outsider.cookie)))).toEqual(['Assigned to outsider']);
  });

  it('narrows to one board with ?board=; a board the person is not on gives an empty calendar', async () => {
    const admin = await createSignedInUser(t);
    const other = await createSignedInUser(t);
    const board = await insertBoard(t, admin.user);
    const hidden = await insertBoard(t, other.user);
    await createTask(t, admin.cookie, { boardId: board.id, taskTitle: 'On the board', deadline: inDays(2) });
    await createTask(t, admin.cookie, { taskTitle: 'On my own board', deadline: inDays(2) });
    await createTask(t, other.cookie, { boardId: hidden.id, taskTitle: 'Hidden one', deadline: inDays(2) });
    const path = await feedPath(t, admin.cookie);
    expect(titlesOf(await feed(path))).toEqual(['On my own board', 'On the board']);
    expect(titlesOf(await feed(`${path}?board=${board.id}`))).toEqual(['On the board']);
    expect(titlesOf(await feed(`${path}?board=${admin.user.id}`))).toEqual(['On my own board']);
    expect(titlesOf(await feed(`${path}?board=${hidden.id}`))).toEqual([]);
    expect(titlesOf(await feed(`${path}?board=no-such-board`))).toEqual([]);
    expect(titlesOf(await feed(`${path}?board=${encodeURIComponent('not an id!')}`))).toEqual([]);
  });

  it('answers 404 for a URL that is no feed', async () => {
    const { cookie } = await createSignedInUser(t);
    const path = await feedPath(t, cookie);
    for (const bad of [path.replace('.ics', ''), path.replace(/[A-Za-z0-9_-]{43}/, 'A'.repeat(43)), '/api/calendar/x.ics']) {
      const res = await feed(bad);
      expect(res.status, bad).toBe(404);
    }
  });

  it('reads every task of a long list (more than one page)', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const rows = Array.from({ length: 2100 }, (_, i) => {
      const at = new Date(t.clock.now().getTime() + i).toISOString();
      return {
        id: `bulk-${i}-${user.id}`.slice(0, 64),
        workTitle: '',
        taskTitle: `Bulk ${i}`,
        assigneeEmail: user.email,
        createdBy: user.id,
        boardId: user.id,
        deadline: inDays(1 + (i % 7)),
        priority: 'normal',
        status: 'todo',
        description: '',
        createdAt: at,
        updatedAt: at,
        version: 1,
      } as const;
    });
    const placed = await placedAtTop(t.app.db, rows);
    for (let i = 0; i < rows.length; i += 500) await t.app.db.insertInto('tasks').values(placed.slice(i, i + 500)).execute();
    const events = eventsOf(await feed(await feedPath(t, cookie)));
    expect(new Set(events.map((e) => e.uid)).size).toBe(2100);
  });
});

describe('the feed ETag', () => {
  /** A feed's ETag, checked to answer 304 when sent back (`If-None-Match`). */
  async function etagOf(path: string): Promise<string> {
    const res = await feed(path);
    expect(res.status).toBe(200);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Read again without the ETag: the same document (written once, kept by ETag).
    expect((await feed(path)).body).toBe(res.body);
    const again = await feed(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect((await feed(path, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    return etag;
  }

  it('answers 304 while nothing changed and 200 with a new one after each change', async () => {
    const admin = await createSignedInUser(t);
    const { user, cookie } = await createSignedInUser(t);
    const board = await insertBoard(t, admin.user, [{ who: user, role: 'member' }]);
    const path = await feedPath(t, cookie);
    const seen = [await etagOf(path)];
    // Each change a second after the one before, as writes are in real time.
    const changed = async () => {
      t.clock.advance(1000);
      const etag = await etagOf(path);
      expect(seen).not.toContain(etag);
      seen.push(etag);
    };
    const task = await createTask(t, cookie, { assignee: user.email, deadline: inDays(2) });
    await changed();
    expect((await t.request('PATCH', `/api/tasks/${task._id}`, { cookie, body: { priority: 'high' } })).status).toBe(200);
    await changed();
    await createTask(t, admin.cookie, { boardId: board.id, deadline: inDays(2) });
    await changed();
    expect((await t.request('DELETE', `/api/tasks/${task._id}`, { cookie })).status).toBe(204);
    await changed();
    const left = await boardsApi(t).removeMember(cookie, board.id, user.email);
    expect(left.status, left.body).toBe(204);
    await changed();
    expect(eventsOf(await feed(path))).toEqual([]);
  });

  it('changes with a new URL and differs per board', async () => {
    const { user, cookie } = await createSignedInUser(t);
    await createTask(t, cookie, { assignee: user.email, deadline: inDays(2) });
    const path = await feedPath(t, cookie);
    const all = await etagOf(path);
    expect(await etagOf(`${path}?board=${user.id}`)).not.toBe(all);
    const res = await t.request('POST', '/api/users/me/calendar/rotate', { cookie });
    const fresh = (res.json.data as unknown as { url: string }).url.slice(TEST_ORIGIN.length);
    expect((await feed(fresh, { 'if-none-match': all })).status).toBe(200);
  });

  it('changes when a task assigned to me leaves for someone else', async () => {
    const admin = await createSignedInUser(t);
    const me: { user: TestUser; cookie: string } = await createSignedInUser(t);
    const board = await insertBoard(t, admin.user);
    const task = await createTask(t, admin.cookie, { boardId: board.id, assignee: me.user.email, deadline: inDays(2) });
    const path = await feedPath(t, me.cookie);
    const before = await etagOf(path);
    expect((await t.request('PATCH', `/api/tasks/${task._id}`, { cookie: admin.cookie, body: { assignee: uniqueEmail() } })).status).toBe(200);
    expect(await etagOf(path)).not.toBe(before);
    expect(eventsOf(await feed(path))).toEqual([]);
  });
});

describe('the feed ETag with two instances', () => {
  it('changes at once on an instance whose last answer was 304, after a change made through another', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const task = await createTask(t, cookie, { assignee: user.email, deadline: inDays(2) });
    const path = await feedPath(t, cookie);
    const first = await feed(path);
    const etag = String(first.headers.etag);
    expect((await feed(path, { 'if-none-match': etag })).status).toBe(304);
    // The second instance: the same database and clock, its own memory.
    const other = await build({ config: t.config, clock: t.clock });
    try {
      t.clock.advance(1000);
      const patched = await other.inject({ method: 'PATCH', url: `/api/tasks/${task._id}`, headers: { cookie, 'content-type': 'application/json' }, payload: JSON.stringify({ taskTitle: 'Renamed elsewhere' }) });
      expect(patched.statusCode, patched.body).toBe(200);
    } finally {
      await other.close();
    }
    const after = await feed(path, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.body).toContain('SUMMARY:Renamed elsewhere');
  });
});

describe('the request log', () => {
  it('writes a feed URL with its secret replaced, however it is spelled', () => {
    const secret = 'A'.repeat(20) + 'b_-'.repeat(7) + 'zz';
    expect(loggedUrl(`/api/calendar/${secret}.ics`)).toBe('/api/calendar/[redacted]');
    expect(loggedUrl(`/api/calendar/${secret}.ics?board=abc`)).toBe('/api/calendar/[redacted]?board=abc');
    // A sign-in provider's one-time code and the flow's state, on the way back.
    expect(loggedUrl('/api/auth/oidc/corp/callback?code=abc123&%73tate=xyz&iss=https%3A%2F%2Fid.example.com')).toBe('/api/auth/oidc/corp/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fid.example.com');
    expect(loggedUrl(`/api/%63alendar/${secret}.ics`)).toBe('/api/%63alendar/[redacted]');
    expect(loggedUrl(`//api//calendar/${secret}.ics`)).toBe('//api//calendar/[redacted]');
    expect(loggedUrl('/api/users/me/calendar')).toBe('/api/users/me/calendar');
  });
});
