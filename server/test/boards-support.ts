import type { TaskStatus } from '#shared/constants.ts';
import type { Board, Member } from '#shared/schemas/boards.ts';
import { newId } from '../db/ids.ts';
import { placedAtTop } from '../repositories/columns-repository.ts';
import type { TestUser } from './factories.ts';
import type { Response, TestApp } from './helpers.ts';

/** The `data` of a boards API answer, typed as the boards calls shape it. */
export const dataOf = (res: Response) => (res.json as unknown as { data: { board: Board; boards: Board[]; members: Member[]; member: Member } }).data;

/** The boards calls as a signed-in user makes them. */
export function boardsApi(t: TestApp) {
  return {
    list: (cookie: string) => t.request('GET', '/api/boards', { cookie }),
    create: (cookie: string, body: unknown) => t.request('POST', '/api/boards', { cookie, body }),
    get: (cookie: string, id: string) => t.request('GET', `/api/boards/${id}`, { cookie }),
    update: (cookie: string, id: string, body: unknown) => t.request('PATCH', `/api/boards/${id}`, { cookie, body }),
    remove: (cookie: string, id: string) => t.request('DELETE', `/api/boards/${id}`, { cookie }),
    addMember: (cookie: string, id: string, email: string, role = 'member') => t.request('POST', `/api/boards/${id}/members`, { cookie, body: { email, role } }),
    setRole: (cookie: string, id: string, email: string, role: string) =>
      t.request('PATCH', `/api/boards/${id}/members/${encodeURIComponent(email)}`, { cookie, body: { role } }),
    removeMember: (cookie: string, id: string, email: string) => t.request('DELETE', `/api/boards/${id}/members/${encodeURIComponent(email)}`, { cookie }),
  };
}

/** The board events in the log about `boardId`, oldest first, as the streams would read them. */
export async function boardEventsOf(t: TestApp, boardId: string, after = 0) {
  const rows = await t.app.db
    .selectFrom('events')
    .select(['id', 'type', 'audience', 'payload', 'subjectId', 'boardId'])
    .where('boardId', '=', boardId)
    .where('id', '>', after)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    type: r.type,
    audience: (JSON.parse(r.audience) as string[]).toSorted(),
    data: JSON.parse(r.payload) as { board: Partial<Board> & { _id: string } },
    subjectId: r.subjectId,
  }));
}

/** The newest event id (0 for an empty log): events after it are the ones a step wrote. */
export async function lastEventId(t: TestApp): Promise<number> {
  const row = await t.app.db.selectFrom('events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** A task written straight into the table on `boardId`. */
export async function insertBoardTask(
  t: TestApp,
  boardId: string,
  creator: Pick<TestUser, 'id' | 'email'>,
  overrides: { status?: TaskStatus; deadline?: string | null; assigneeEmail?: string } = {},
): Promise<string> {
  const id = newId();
  const now = t.clock.now().toISOString();
  const [row] = await placedAtTop(t.app.db, [{
      id,
      workTitle: '',
      taskTitle: `Board task ${id}`,
      assigneeEmail: overrides.assigneeEmail ?? creator.email,
      createdBy: creator.id,
      deadline: overrides.deadline ?? null,
      priority: 'normal' as const,
      status: overrides.status ?? 'todo',
      description: '',
      createdAt: now,
      updatedAt: now,
      version: 1,
      boardId,
    }]);
  await t.app.db
    .insertInto('tasks')
    .values(row!)
    .execute();
  return id;
}
