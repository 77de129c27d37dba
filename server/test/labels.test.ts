import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/constants.ts';
import type { Label } from '#shared/schemas/labels.ts';
import { newId } from '../db/ids.ts';
import { boardEventsOf, lastEventId } from './boards-support.ts';
import { createSignedInUser, createTask, insertBoard } from './factories.ts';
import { isPostgres, useTestApp, type Response, type TestApp } from './helpers.ts';
import { insertLabels, labelsTeam } from './labels-support.ts';
import { openStream } from './sse-client.ts';

/**
 * A board's labels: any active member reads them, admins and members change them, names are
 * unique per board ignoring case, at most 100 per board; every change tells the board's members
 * (`board.updated`), and a deleted label leaves every task.
 */
const t = useTestApp();

const labelsOf = (res: Response) => (res.json as unknown as { data: { labels: Label[] } }).data.labels;
const labelOf = (res: Response) => (res.json as unknown as { data: { label: Label } }).data.label;

/** The labels calls as a signed-in user makes them. */
function labelsApi(app: TestApp) {
  return {
    list: (cookie: string, boardId: string) => app.request('GET', `/api/boards/${boardId}/labels`, { cookie }),
    create: (cookie: string, boardId: string, body: unknown) => app.request('POST', `/api/boards/${boardId}/labels`, { cookie, body }),
    update: (cookie: string, boardId: string, labelId: string, body: unknown) => app.request('PATCH', `/api/boards/${boardId}/labels/${labelId}`, { cookie, body }),
    remove: (cookie: string, boardId: string, labelId: string) => app.request('DELETE', `/api/boards/${boardId}/labels/${labelId}`, { cookie }),
  };
}
const api = labelsApi(t);

const team = () => labelsTeam(t);

async function created(cookie: string, boardId: string, name: string, color = 'blue'): Promise<Label> {
  const res = await api.create(cookie, boardId, { name, color });
  expect(res.status, res.body).toBe(201);
  return labelOf(res);
}

describe('GET/POST /api/boards/:id/labels', () => {
  it('creates labels (trimmed) and lists them by name ignoring case, to every member', async () => {
    const { admin, member, viewer, board } = await team();
    const res = await api.create(admin.cookie, board.id, { name: '  urgent ', color: 'red' });
    expect(res.status, res.body).toBe(201);
    expect(res.json).toEqual({ status: 'success', message: 'The label was created.', data: { label: { _id: expect.any(String) as string, name: 'urgent', color: 'red' } } });
    await created(member.cookie, board.id, 'Bug', 'orange');
    await created(admin.cookie, board.id, 'design', 'teal');
    for (const who of [admin, member, viewer]) {
      const list = await api.list(who.cookie, board.id);
      expect(list.status).toBe(200);
      expect(labelsOf(list).map((l) => l.name)).toEqual(['Bug', 'design', 'urgent']);
    }
  });

  it('answers 404 to someone not on the board (or for a board that does not exist) and 403 to a viewer', async () => {
    const { viewer, outsider, board } = await team();
    expect((await api.list(outsider.cookie, board.id)).status).toBe(404);
    expect((await api.create(outsider.cookie, board.id, { name: 'x', color: 'red' })).status).toBe(404);
    expect((await api.list(outsider.cookie, newId())).status).toBe(404);
    expect((await api.list(outsider.cookie, 'not-an-id')).status).toBe(404);
    const res = await api.create(viewer.cookie, board.id, { name: 'x', color: 'red' });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('FORBIDDEN');
    expect(labelsOf(await api.list(viewer.cookie, board.id))).toEqual([]);
  });

  it('gives a personal board labels too: its owner is its admin', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const label = await created(cookie, user.id, 'Home', 'green');
    expect(labelsOf(await api.list(cookie, user.id))).toEqual([label]);
  });

  it('rejects an empty or too long name and an unknown color with field errors', async () => {
    const { admin, board } = await team();
    const empty = await api.create(admin.cookie, board.id, { name: '   ', color: 'red' });
    expect(empty.status).toBe(400);
    expect(empty.json.errors).toEqual([{ field: 'name', message: 'Label name is required.' }]);
    const long = await api.create(admin.cookie, board.id, { name: 'x'.repeat(LIMITS.labelNameMax + 1), color: 'red' });
    expect(long.status).toBe(400);
    expect(long.json.errors).toEqual([{ field: 'name', message: `Label name must be at most ${LIMITS.labelNameMax} characters.` }]);
    expect((await api.create(admin.cookie, board.id, { name: 'x'.repeat(LIMITS.labelNameMax), color: 'red' })).status).toBe(201);
    const color = await api.create(admin.cookie, board.id, { name: 'ok', color: 'black' });
    expect(color.status).toBe(400);
    expect(color.json.errors.map((e) => e.field)).toEqual(['color']);
  });

  it('refuses a name the board already has, ignoring case (409 LABEL_EXISTS); another board may have it', async () => {
    const { admin, board } = await team();
    await created(admin.cookie, board.id, 'Straße');
    // "STRASSE" lower-cases to "strasse", not "straße": a different name.
    expect((await api.create(admin.cookie, board.id, { name: 'STRASSE', color: 'red' })).status).toBe(201);
    const dup = await api.create(admin.cookie, board.id, { name: 'STRAßE', color: 'red' });
    expect(dup.status).toBe(409);
    expect(dup.json.code).toBe('LABEL_EXISTS');
    const other = await insertBoard(t, admin.user);
    expect((await api.create(admin.cookie, other.id, { name: 'straße', color: 'red' })).status).toBe(201);
  });

  it(`allows at most ${LIMITS.labelsPerBoard} labels per board (409 LIMIT_REACHED)`, async () => {
    const { admin, board } = await team();
    await insertLabels(t, board.id, ...Array.from({ length: LIMITS.labelsPerBoard - 1 }, (_, i) => `L${i}`));
    await created(admin.cookie, board.id, 'The last one');
    const res = await api.create(admin.cookie, board.id, { name: 'One too many', color: 'red' });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('LIMIT_REACHED');
    expect(labelsOf(await api.list(admin.cookie, board.id))).toHaveLength(LIMITS.labelsPerBoard);
  });
});

describe('PATCH/DELETE /api/boards/:id/labels/:labelId', () => {
  it('renames and recolors a label; the tasks carrying it show the change', async () => {
    const { admin, member, board } = await team();
    const label = await created(admin.cookie, board.id, 'Bug', 'red');
    const task = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [label._id] });
    const res = await api.update(member.cookie, board.id, label._id, { name: ' Defect ', color: 'purple' });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({ status: 'success', message: 'The label was saved.', data: { label: { _id: label._id, name: 'Defect', color: 'purple' } } });
    const read = await t.request('GET', `/api/tasks/${task._id}`, { cookie: admin.cookie });
    expect(read.json.data.task.labels).toEqual([{ _id: label._id, name: 'Defect', color: 'purple' }]);
    // A label's change is not a change of its tasks.
    expect(read.json.data.task.version).toBe(task.version);
    const color = await api.update(member.cookie, board.id, label._id, { color: 'green' });
    expect(labelOf(color)).toEqual({ _id: label._id, name: 'Defect', color: 'green' });
    // Only the case changes: the same label, renamed.
    expect(labelOf(await api.update(member.cookie, board.id, label._id, { name: 'DEFECT' })).name).toBe('DEFECT');
  });

  it('refuses a rename to a name another label has (409), and a bad name (400)', async () => {
    const { admin, board } = await team();
    await created(admin.cookie, board.id, 'Bug');
    const other = await created(admin.cookie, board.id, 'Idea');
    const res = await api.update(admin.cookie, board.id, other._id, { name: 'bug' });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('LABEL_EXISTS');
    const bad = await api.update(admin.cookie, board.id, other._id, { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e) => e.field)).toEqual(['name']);
    expect(labelsOf(await api.list(admin.cookie, board.id)).map((l) => l.name)).toEqual(['Bug', 'Idea']);
  });

  it('answers 404 for a label of another board or none, 403 to a viewer, 404 to an outsider', async () => {
    const { admin, viewer, outsider, board } = await team();
    const label = await created(admin.cookie, board.id, 'Bug');
    const other = await insertBoard(t, admin.user);
    expect((await api.update(admin.cookie, other.id, label._id, { color: 'red' })).status).toBe(404);
    expect((await api.remove(admin.cookie, other.id, label._id)).status).toBe(404);
    expect((await api.update(admin.cookie, board.id, newId(), { color: 'red' })).status).toBe(404);
    expect((await api.remove(admin.cookie, board.id, 'nope')).status).toBe(404);
    expect((await api.update(viewer.cookie, board.id, label._id, { color: 'red' })).status).toBe(403);
    expect((await api.remove(viewer.cookie, board.id, label._id)).status).toBe(403);
    expect((await api.update(outsider.cookie, board.id, label._id, { color: 'red' })).status).toBe(404);
    expect((await api.remove(outsider.cookie, board.id, label._id)).status).toBe(404);
    expect(labelsOf(await api.list(admin.cookie, board.id))).toEqual([label]);
  });

  it('deletes a label (204): it leaves every task carrying it, whose versions stay', async () => {
    const { admin, member, board } = await team();
    const bug = await created(admin.cookie, board.id, 'Bug');
    const idea = await created(admin.cookie, board.id, 'Idea');
    const one = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [bug._id, idea._id] });
    const two = await createTask(t, admin.cookie, { boardId: board.id, labelIds: [bug._id] });
    const res = await api.remove(member.cookie, board.id, bug._id);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const tasks = (await t.request('GET', `/api/tasks?board=${board.id}`, { cookie: admin.cookie })).json.data.tasks;
    const byId = new Map(tasks.map((task) => [task._id, [task.labels.map((l) => l.name), task.version]]));
    expect(byId.get(one._id)).toEqual([['Idea'], 1]);
    expect(byId.get(two._id)).toEqual([[], 1]);
    expect(await t.app.db.selectFrom('taskLabels').selectAll().where('labelId', '=', bug._id).execute()).toEqual([]);
    expect(labelsOf(await api.list(admin.cookie, board.id))).toEqual([idea]);
  });
});

describe('a deleted board', () => {
  it('takes its labels and their task rows with it', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const res = await t.request('POST', '/api/boards', { cookie, body: { name: 'Short-lived' } });
    const boardId = (res.json.data as unknown as { board: { _id: string } }).board._id;
    const label = await created(cookie, boardId, 'Bug');
    await createTask(t, cookie, { boardId, labelIds: [label._id] });
    expect((await t.request('DELETE', `/api/boards/${boardId}`, { cookie })).status).toBe(204);
    expect(await t.app.db.selectFrom('labels').select('id').where('boardId', '=', boardId).execute()).toEqual([]);
    expect(await t.app.db.selectFrom('taskLabels').select('taskId').where('labelId', '=', label._id).execute()).toEqual([]);
    expect(labelsOf(await api.list(cookie, user.id))).toEqual([]);
  });
});

describe('the labels API in the OpenAPI document', () => {
  it('lists and describes its calls', async () => {
    const paths = (await t.request('GET', '/api/openapi.json')).json.paths;
    const calls = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(calls).toEqual(
      expect.arrayContaining([
        'GET /api/boards/{id}/labels',
        'POST /api/boards/{id}/labels',
        'PATCH /api/boards/{id}/labels/{labelId}',
        'DELETE /api/boards/{id}/labels/{labelId}',
      ]),
    );
  });
});

describe('label changes reach the board', () => {
  it('sends board.updated to every active member, one event per role, for each change', async () => {
    const { admin, member, viewer, outsider, board } = await team();
    let after = await lastEventId(t);
    const label = await created(member.cookie, board.id, 'Bug');
    const expectUpdated = async () => {
      const events = await boardEventsOf(t, board.id, after);
      expect(events.map((e) => [e.type, e.audience, e.data.board.role])).toEqual([
        ['board.updated', [admin.user.email], 'admin'],
        ['board.updated', [member.user.email], 'member'],
        ['board.updated', [viewer.user.email], 'viewer'],
      ]);
      expect(events.every((e) => !e.audience.includes(outsider.user.email))).toBe(true);
      after = await lastEventId(t);
    };
    await expectUpdated();
    await api.update(admin.cookie, board.id, label._id, { name: 'Defect' });
    await expectUpdated();
    // No change, no event.
    await api.update(admin.cookie, board.id, label._id, { name: 'Defect' });
    expect(await boardEventsOf(t, board.id, after)).toEqual([]);
    await api.remove(admin.cookie, board.id, label._id);
    await expectUpdated();
    // A refused change sends nothing.
    await api.create(viewer.cookie, board.id, { name: 'x', color: 'red' });
    expect(await boardEventsOf(t, board.id, after)).toEqual([]);
  });

  it('reaches an open stream of another member live', async () => {
    const { admin, member, board } = await team();
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const stream = await openStream(`http://127.0.0.1:${port}`, member.cookie);
    expect(stream.status).toBe(200);
    await stream.position();
    try {
      await created(admin.cookie, board.id, 'Live');
      const event = await stream.nextOf('board.updated');
      expect((event.json as { board: { _id: string; role: string } }).board).toMatchObject({ _id: board.id, role: 'member' });
    } finally {
      stream.close();
    }
  });
});

describe.runIf(isPostgres)('label races (PostgreSQL)', () => {
  it('two concurrent creations of one name: one 201, one 409', async () => {
    const { admin, member, board } = await team();
    for (let round = 0; round < 5; round++) {
      const name = `Same ${round}`;
      const answers = await Promise.all([api.create(admin.cookie, board.id, { name, color: 'red' }), api.create(member.cookie, board.id, { name: name.toUpperCase(), color: 'blue' })]);
      expect(answers.map((r) => r.status).toSorted()).toEqual([201, 409]);
    }
    expect(labelsOf(await api.list(admin.cookie, board.id))).toHaveLength(5);
  });

  it('concurrent creations stop at the limit', async () => {
    const { admin, member, board } = await team();
    await insertLabels(t, board.id, ...Array.from({ length: LIMITS.labelsPerBoard - 2 }, (_, i) => `L${i}`));
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api.create(i % 2 === 0 ? admin.cookie : member.cookie, board.id, { name: `Racer ${i}`, color: 'red' })),
    );
    expect(answers.map((r) => r.status).toSorted()).toEqual([201, 201, 409, 409, 409, 409]);
    expect(labelsOf(await api.list(admin.cookie, board.id))).toHaveLength(LIMITS.labelsPerBoard);
  });
});

