import { sql, type Kysely } from 'kysely';
import type { BoardRole } from '#shared/constants.ts';
import type { Board, BoardNames, Member } from '#shared/schemas/boards.ts';
import type { Column } from '#shared/schemas/columns.ts';
import type { Dialect } from '../db/connect.ts';
import type { Executor } from '../db/prepared.ts';
import type { BoardColumnsTable, BoardMembersTable, BoardsTable, DB } from '../db/schema.ts';

/** A board as everyone on it sees it: Board JSON without the viewer's role. */
export type BoardFacts = Omit<Board, 'role'>;

/** An active member as the event fan-out needs it. */
export interface ActiveMember {
  email: string;
  userId: string;
  role: BoardRole;
}

/** A count as the drivers return it (PostgreSQL's bigint as text); null where nothing was counted. */
type Count = number | string | bigint | null;

interface BoardRowValues extends BoardsTable {
  memberCount: Count;
  todo: Count;
  done: Count;
  overdue: Count;
}

/** A stored column as Board JSON and the columns API show it. */
export const toColumnJson = (row: BoardColumnsTable): Column => ({ _id: row.id, name: row.name, category: row.category, wipLimit: row.wipLimit, position: row.position });

/** The columns of the boards `ids` in order, by board: one statement. */
async function columnsByBoard(ex: Executor, ids: readonly string[]): Promise<Map<string, Column[]>> {
  const byBoard = new Map<string, Column[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byBoard;
  const rows = await ex.selectFrom('boardColumns').selectAll().where('boardId', 'in', ids).orderBy('position').orderBy('id').execute();
  for (const row of rows) byBoard.get(row.boardId)?.push(toColumnJson(row));
  return byBoard;
}

const toFacts = (row: BoardRowValues, columns: Column[]): BoardFacts => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  personal: row.personal === 1,
  memberCount: Number(row.memberCount ?? 0),
  counts: { todo: Number(row.todo ?? 0), done: Number(row.done ?? 0), overdue: Number(row.overdue ?? 0) },
  columns,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/**
 * Boards and their members. Everything a board shows to one person — its member count and the
 * counts of its tasks — is read for all of that person's boards at once: one statement whose two
 * grouped subqueries count members and tasks of exactly the boards in question (the task counts
 * read the (board_id, status, deadline, …) index of migration 0011).
 */
export function createBoardsRepository(db: Kysely<DB>, dialect: Dialect) {
  /**
   * Board rows with member and task counts, for the boards of `scope`: those a user is an active
   * member of, or one board. `now` decides what is overdue (open, deadline before it).
   */
  const withCounts = (ex: Executor, scope: { userId: string } | { boardId: string }, now: string) => {
    const boardIds = (e: Executor) =>
      'userId' in scope
        ? e.selectFrom('boardMembers').select('boardId').where('userId', '=', scope.userId)
        : e.selectFrom('boards').select('id as boardId').where('id', '=', scope.boardId);
    return ex
      .selectFrom('boards as b')
      .leftJoin(
        ex
          .selectFrom('boardMembers')
          .select((eb) => ['boardId', eb.fn.countAll().as('memberCount')])
          .where('boardId', 'in', boardIds(ex))
          .groupBy('boardId')
          .as('mc'),
        'mc.boardId',
        'b.id',
      )
      .leftJoin(
        ex
          .selectFrom('tasks')
          .select((eb) => [
            'boardId',
            eb.fn.countAll().filterWhere('status', '=', sql.lit('todo')).as('todo'),
            eb.fn.countAll().filterWhere('status', '=', sql.lit('done')).as('done'),
            eb.fn
              .countAll()
              .filterWhere((w) => w.and([w('status', '=', sql.lit('todo')), w('deadline', '<', now)]))
              .as('overdue'),
          ])
          .where('boardId', 'in', boardIds(ex))
          .groupBy('boardId')
          .as('tc'),
        'tc.boardId',
        'b.id',
      )
      .select(['b.id', 'b.name', 'b.description', 'b.personal', 'b.createdAt', 'b.updatedAt', 'mc.memberCount', 'tc.todo', 'tc.done', 'tc.overdue']);
  };

  const memberSelect = (ex: Executor) =>
    ex
      .selectFrom('boardMembers as m')
      .leftJoin('users as u', 'u.id', 'm.userId')
      .select(['m.email', 'u.fullName', 'm.userId', 'm.role', 'm.addedAt', 'm.addedByName', 'm.addedByEmail']);

  const toMember = (row: { email: string; fullName: string | null; userId: string | null; role: BoardRole; addedAt: string; addedByName: string; addedByEmail: string }): Member => ({
    email: row.email,
    fullName: row.userId === null ? null : row.fullName,
    role: row.role,
    status: row.userId === null ? 'invited' : 'active',
    addedAt: row.addedAt,
    addedBy: { fullName: row.addedByName, email: row.addedByEmail },
  });

  return {
    /** The boards the user is an active member of, with their role: personal first, then by name (case-insensitive), then id. */
    async listFor(userId: string, now: string, ex: Executor = db): Promise<Board[]> {
      const rows = await withCounts(ex, { userId }, now)
        .innerJoin('boardMembers as me', (j) => j.onRef('me.boardId', '=', 'b.id').on('me.userId', '=', userId))
        .select('me.role')
        .orderBy('b.personal', 'desc')
        .orderBy(sql`lower(b.name)`)
        .orderBy('b.id')
        .execute();
      const columns = await columnsByBoard(ex, rows.map((row) => row.id));
      return rows.map((row) => ({ ...toFacts(row, columns.get(row.id) ?? []), role: row.role }));
    },

    /**
     * The names (the board's and its columns') of each of `boardIds` the viewer sees a task on: an
     * active member, or the assignee of one of its tasks (the rule of task-visibility.ts). Any
     * other id, or one that does not exist, is left out. In the order of `boardIds`, each once.
     */
    async namesFor(viewer: { userId: string; email: string }, boardIds: readonly string[], ex: Executor = db): Promise<BoardNames[]> {
      if (boardIds.length === 0) return [];
      const rows = await ex
        .selectFrom('boards as b')
        .select(['b.id', 'b.name'])
        .where('b.id', 'in', boardIds)
        .where((eb) =>
          eb.or([
            eb.exists(eb.selectFrom('boardMembers as m').select('m.boardId').whereRef('m.boardId', '=', 'b.id').where('m.userId', '=', viewer.userId)),
            eb.exists(eb.selectFrom('tasks as t').select('t.id').whereRef('t.boardId', '=', 'b.id').where('t.assigneeEmail', '=', viewer.email)),
          ]),
        )
        .execute();
      const columns = await columnsByBoard(ex, rows.map((row) => row.id));
      const byId = new Map(rows.map((row) => [row.id, row]));
      return [...new Set(boardIds)].flatMap((id) => {
        const row = byId.get(id);
        return row === undefined ? [] : [{ _id: row.id, name: row.name, columns: (columns.get(id) ?? []).map(({ _id, name, category }) => ({ _id, name, category })) }];
      });
    },

    /** One board as everyone on it sees it (no role), or undefined when it does not exist. */
    async facts(boardId: string, now: string, ex: Executor = db): Promise<BoardFacts | undefined> {
      const row = await withCounts(ex, { boardId }, now)
        .where('b.id', '=', boardId)
        .executeTakeFirst();
      return row === undefined ? undefined : toFacts(row, (await columnsByBoard(ex, [boardId])).get(boardId) ?? []);
    },

    /**
     * The board row and the user's role on it when the user is an active member (else undefined).
     * `lock`: on PostgreSQL the board row stays locked (`for update`) until the caller's
     * transaction ends, so membership changes of one board run one after the other and each sees
     * the last one's result (SQLite: a write transaction has the database to itself already).
     */
    async membershipOf(boardId: string, userId: string, ex: Executor = db, lock = false) {
      let board = ex.selectFrom('boards').select(['id', 'name', 'personal']).where('id', '=', boardId);
      if (lock && dialect === 'postgres') board = board.forUpdate();
      const row = await board.executeTakeFirst();
      if (row === undefined) return undefined;
      const member = await ex
        .selectFrom('boardMembers')
        .select('role')
        .where('boardId', '=', boardId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      return member === undefined ? undefined : { id: row.id, name: row.name, personal: row.personal === 1, role: member.role };
    },

    /** Locks the board row until the transaction ends (PostgreSQL; see membershipOf). */
    async lock(boardId: string, ex: Executor): Promise<void> {
      if (dialect === 'postgres') await ex.selectFrom('boards').select('id').where('id', '=', boardId).forUpdate().execute();
    },

    /** The board's name (undefined: no such board). */
    async nameOf(boardId: string, ex: Executor = db): Promise<string | undefined> {
      const row = await ex.selectFrom('boards').select('name').where('id', '=', boardId).executeTakeFirst();
      return row?.name;
    },

    /** Active and invited members, longest-standing first (then by address). */
    async members(boardId: string, ex: Executor = db): Promise<Member[]> {
      const rows = await memberSelect(ex).where('m.boardId', '=', boardId).orderBy('m.addedAt').orderBy('m.email').execute();
      return rows.map(toMember);
    },

    async member(boardId: string, email: string, ex: Executor = db): Promise<(Member & { userId: string | null }) | undefined> {
      const row = await memberSelect(ex).where('m.boardId', '=', boardId).where('m.email', '=', email).executeTakeFirst();
      return row === undefined ? undefined : { ...toMember(row), userId: row.userId };
    },

    /** The active members (the audience of the board's events). */
    async activeMembers(boardId: string, ex: Executor = db): Promise<ActiveMember[]> {
      const rows = await ex
        .selectFrom('boardMembers')
        .select(['email', 'userId', 'role'])
        .where('boardId', '=', boardId)
        .where('userId', 'is not', null)
        .orderBy('addedAt')
        .orderBy('email')
        .execute();
      return rows.map((r) => ({ email: r.email, userId: r.userId ?? '', role: r.role }));
    },

    async countMembers(boardId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('boardMembers')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
        .where('boardId', '=', boardId)
        .executeTakeFirstOrThrow();
      return row.n;
    },

    /** Shared boards the address is on, active or invited. */
    async countSharedBoardsOf(email: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('boardMembers as m')
        .innerJoin('boards as b', 'b.id', 'm.boardId')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
        .where('m.email', '=', email)
        .where('b.personal', '=', 0)
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async insertBoard(board: { id: string; name: string; description: string; createdAt: string }, ex: Executor = db): Promise<void> {
      await ex
        .insertInto('boards')
        .values({ id: board.id, name: board.name, description: board.description, personal: 0, createdAt: board.createdAt, updatedAt: board.createdAt })
        .execute();
    },

    async updateBoard(boardId: string, changes: { name?: string; description?: string; updatedAt: string }, ex: Executor = db): Promise<void> {
      await ex.updateTable('boards').set(changes).where('id', '=', boardId).execute();
    },

    /** Marks the board changed (its members changed): `updatedAt` only. */
    async touch(boardId: string, updatedAt: string, ex: Executor = db): Promise<void> {
      await ex.updateTable('boards').set({ updatedAt }).where('id', '=', boardId).execute();
    },

    /**
     * Deletes the board with its tasks (their comments and activity cascade from the tasks), its
     * memberships and the events about it. Tasks have no foreign key to boards, hence the
     * explicit delete.
     */
    async deleteBoard(boardId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('tasks').where('boardId', '=', boardId).execute();
      await ex.deleteFrom('events').where('boardId', '=', boardId).execute();
      await ex.deleteFrom('boardMembers').where('boardId', '=', boardId).execute();
      await ex.deleteFrom('boards').where('id', '=', boardId).execute();
    },

    async insertMember(row: BoardMembersTable, ex: Executor = db): Promise<void> {
      await ex.insertInto('boardMembers').values(row).execute();
    },

    async setRole(boardId: string, email: string, role: BoardRole, ex: Executor = db): Promise<void> {
      await ex.updateTable('boardMembers').set({ role }).where('boardId', '=', boardId).where('email', '=', email).execute();
    },

    async deleteMember(boardId: string, email: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('boardMembers').where('boardId', '=', boardId).where('email', '=', email).execute();
    },

    /** Whether `email` (lower-cased) is invited to a board it has no account for yet. */
    async isInvited(email: string, ex: Executor = db): Promise<boolean> {
      const row = await ex.selectFrom('boardMembers').select('boardId').where('email', '=', email).where('userId', 'is', null).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Makes the address's invitations active for the account `userId` (it was just registered
     * with that address); the boards it now sees.
     */
    async activate(email: string, userId: string, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .updateTable('boardMembers')
        .set({ userId })
        .where('email', '=', email)
        .where('userId', 'is', null)
        .returning('boardId')
        .execute();
      return rows.map((r) => r.boardId);
    },

    /** Every board the user is an active member of: id, name, whether personal, and their role. */
    async membershipsOf(userId: string, ex: Executor = db) {
      const rows = await ex
        .selectFrom('boardMembers as m')
        .innerJoin('boards as b', 'b.id', 'm.boardId')
        .select(['b.id', 'b.name', 'b.personal', 'm.email', 'm.role'])
        .where('m.userId', '=', userId)
        .orderBy('b.personal', 'desc')
        .orderBy(sql`lower(b.name)`)
        .orderBy('b.id')
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, personal: r.personal === 1, email: r.email, role: r.role }));
    },

    /** Deletes the tasks on `boardId` assigned to `email`; how many. */
    async deleteTasksAssignedTo(boardId: string, email: string, ex: Executor = db): Promise<number> {
      const result = await ex.deleteFrom('tasks').where('boardId', '=', boardId).where('assigneeEmail', '=', email).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async hasTasks(boardId: string, ex: Executor = db): Promise<boolean> {
      const row = await ex.selectFrom('tasks').select('id').where('boardId', '=', boardId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Tasks on the board whose assignee is not one of its active members: they see those tasks
     * through the assignment alone, so they are told when the board (and with it the task) goes.
     */
    async tasksOfOutsiders(boardId: string, ex: Executor = db) {
      return ex
        .selectFrom('tasks as t')
        .select(['t.id', 't.version', 't.assigneeEmail'])
        .where('t.boardId', '=', boardId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('boardMembers as m')
                .select('m.email')
                .whereRef('m.boardId', '=', 't.boardId')
                .whereRef('m.email', '=', 't.assigneeEmail')
                .where('m.userId', 'is not', null),
            ),
          ),
        )
        .execute();
    },
  };
}

export type BoardsRepository = ReturnType<typeof createBoardsRepository>;
