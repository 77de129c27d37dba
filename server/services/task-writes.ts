import fp from 'fastify-plugin';
import { BOARD_MESSAGES } from '#shared/board-messages.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { canChangeTask, canEditTasks } from '#shared/rights.ts';
import type { Label } from '#shared/schemas/labels.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import { isForeignKeyViolation } from '../db/errors.ts';
import { AppError, conflict, validationFailed } from '../errors.ts';
import type { OnceOnly } from './idempotency.ts';
import type { NewActivity } from '../repositories/activity-repository.ts';
import type { EventTransaction } from '../repositories/events-repository.ts';
import { createTaskWriteStatements, type WriteParts, type WriteResult, type WriteTarget } from '../repositories/task-write-statements.ts';
import type { NewTask, Spot, TaskForWrite } from '../repositories/tasks-repository.ts';
import type { TasksTable } from '../db/schema.ts';
import type { Actor } from './actor.ts';
import { senderMailCap } from './mail-cap.ts';
import { boardNotFound, taskNotFound } from './not-found.ts';
import { taskWriteNotifications } from './notifications.ts';
import { activityFor } from './task-activity.ts';
import { eventsFor, type TaskChange, type TaskWriteHook } from './task-change.ts';
import { columnNamesOf, createTopHints, overLimitWarning, placeChangedTask, placeNewTask, TOP_HINTS, withDistinctKeys, type Placed } from './task-places.ts';
import { createOccurrences, repeatOf } from './task-repeat.ts';
import { respacedKeys } from './order-keys.ts';
import { asMessage, message, type Translatable } from '#shared/i18n.ts';

/** 403 for a change of a task the person sees but may not change. */
export const viewerCannotChange = () => new AppError(403, 'FORBIDDEN', SERVER_MESSAGES.viewerCannotChangeTasks);

/** A board's role allows creating and changing its tasks: otherwise 404 for a non-member, 403 for a viewer. */
function needEditingRole(role: string | null | undefined): void {
  if (role === null || role === undefined) throw boardNotFound();
  if (!canEditTasks(role)) throw viewerCannotChange();
}
/**
 * A refusal of one task of a change of many: the same answer naming the task (by title when the
 * actor sees it, else by id) in its message and its id in `data.taskId`.
 */
export function aboutTask(error: AppError, taskId: string, title: string | undefined): AppError {
  const problem = asMessage(error.text);
  const about = title === undefined ? message('Task {taskId}: {problem}', { taskId, problem }) : message('Task “{title}”: {problem}', { title, problem });
  const named = new AppError(error.status, error.code, about, error.errors, error.headers);
  named.data = { ...error.data, taskId };
  return named;
}
/** 409 CONFLICT for a write based on another version of the task, with its current copy. */
export const taskConflict = (current: Task) => conflict(SERVER_MESSAGES.taskConflict, { task: current });
const labelIdsInvalid = () => validationFailed([{ field: 'labelIds', message: BOARD_MESSAGES.labelsNotOnBoard }]);

/** The same labels (as ids), whatever their order. */
const sameLabels = (a: readonly Label[], b: readonly Label[]) => a.length === b.length && a.every((label) => b.some((other) => other._id === label._id));

export type EditableFields = Partial<
  Pick<TasksTable, 'taskTitle' | 'assigneeEmail' | 'workTitle' | 'deadline' | 'startAt' | 'priority' | 'status' | 'description' | 'boardId' | 'repeatEvery' | 'repeatUnit' | 'columnId' | 'position'>
>;

/** A write's answer: the task, and how many of the mails it caused were held back by the sender's cap. */
export interface Written {
  task: Task;
  mailsHeld: number;
  /** A create or a change of column that left the task's column over its WIP limit: the warning; else undefined. */
  warning?: Translatable | undefined;
}

/**
 * What a write of an existing task is, planned from the task as read: an answer without a write
 * (nothing changes); or the task row's write (`target`), everything stored with it (`parts`)
 * and the answer once written; or `needsLock`: the write has to run in a transaction holding
 * the task row's lock (it writes more than the one statement of the unlocked path, e.g. the
 * next occurrence of a repeating task).
 */
export type TaskWriteStep<T> = { answer: T } | { target: WriteTarget; parts: WriteParts; answer: (result: WriteResult) => T } | { needsLock: true };

/** How a write of an existing task runs (TaskWrites.change). */
export interface ChangeOptions<T> {
  /** `see`: anyone who can see the task may write (404 otherwise); `edit`: also 403 for a viewer of its board who is not its assignee. */
  rights: 'edit' | 'see';
  /**
   * Plan inside the transaction that writes, with the task row locked from the first read:
   * for a plan that writes through `ex` itself (checklist items) or whose reads must agree with
   * what commits (who of the people a comment mentions can see the task).
   */
  lockFirst?: boolean;
  /** A create sent with an Idempotency-Key (services/idempotency.ts; needs `lockFirst`): claimed and answered in the write's transaction. */
  once?: OnceOnly<T> | undefined;
}

export interface TaskWrites {
  /**
   * On `fields.boardId`, which needs the admin or member role there (403 for a viewer, 404 for
   * anyone else). `labelIds` (distinct, shared/validation.ts checkLabelIds): labels of that board, else 400.
   * `once` (a create sent with an Idempotency-Key): the write runs in a transaction that claims the
   * key first and stores the answer last (without it: the one statement, nothing more).
   */
  create(
    actor: Actor,
    fields: Omit<NewTask, 'id' | 'createdBy' | 'createdAt' | 'updatedAt' | 'columnId' | 'position'> & { columnId?: string | undefined },
    labelIds?: readonly string[],
    once?: OnceOnly<Written>,
  ): Promise<Written>;
  /**
   * `changesFor(current)` returns the fields that really change (it may throw a 4xx). With
   * `expectedVersion`, a task at another version answers 409 CONFLICT and nothing changes.
   * `moveTo`: the board to move it to (needs the admin or member role there; its own board: no move).
   * The actor needs edit rights on the task (403 for a viewer of its board who is not its assignee).
   * `labelIds` (distinct): the task's whole set of labels, of its board after the write (else
   * 400); a move without them takes the task's labels off (they belong to the board it leaves).
   * A change that completes a repeating task (status to done, `repeat` set) also writes its next
   * occurrence (services/task-repeat.ts) and sets its own `repeat` to null, in the same transaction.
   * A change of `columnId` within the category and the board writes a `column` activity change
   * with the two columns' names. `spot` (a move to a spot of a column, services/task-moves.ts):
   * the spot is read with the task, in the same statement, and handed to `changesFor`; the
   * activity's column names come from it.
   */
  update(
    actor: Actor,
    id: string,
    expectedVersion: number | undefined,
    changesFor: (current: Task, spot: Spot | undefined) => EditableFields,
    moveTo?: string,
    labelIds?: readonly string[],
    spot?: { columnId: string; afterId: string | null },
  ): Promise<Written>;
  remove(actor: Actor, id: string, expectedVersion: number | undefined): Promise<void>;
  /**
   * Gives every task of column `columnId` a new, evenly spread key in its order (a key would pass
   * KEY_MAX otherwise, or a stored key is not one the key library can read); their versions go
   * up and each gets `task.updated`. A task that left the column or the actor's reach meanwhile
   * keeps its key. Answers the ids of the tasks re-spaced.
   */
  respace(actor: Actor, columnId: string): Promise<Set<string>>;
  /**
   * The same change of many tasks, all or nothing, in ONE transaction: each task is read with
   * its row locked and planned as `update` plans it (`each(current)`: its changes and, undefined
   * for none, its whole set of labels after the write), in the order of `ids`; any refusal
   * (404 not seen, 403 not editable, a 4xx of the plan) names the task (`data.taskId`, and the
   * task in `message`) and writes nothing. `mails(parts)` may rewrite the mails of the planned
   * writes (in `ids`' order) before anything is written (one mail for many tasks). Each task
   * gets its version, activity, events, notifications and webhook deliveries as if changed alone.
   * `versions`: the version each task must be at, checked under its row lock after its rights;
   * a task at another version is a 409 CONFLICT (its current copy in `data.task`), as `update`'s.
   */
  updateMany(
    actor: Actor,
    ids: readonly string[],
    each: (current: Task, ex: Executor) => Promise<{ changes: EditableFields; labelIds?: readonly string[] | undefined }>,
    options?: { moveTo?: string | undefined; versions?: ReadonlyMap<string, number> | undefined; mails?: (parts: readonly WriteParts[]) => void },
  ): Promise<{ tasks: Task[]; mailsHeld: number }>;
  /** Deletes many tasks as `remove` does, all or nothing in one transaction (refusals and `versions` as `updateMany`); how many. */
  removeMany(actor: Actor, ids: readonly string[], versions?: ReadonlyMap<string, number>): Promise<number>;
  /**
   * Any other write of task `taskId` (its comments, its checklist: services/comment-writes.ts,
   * checklist-writes.ts), the way `update` and `remove` write: the task is read with the actor's
   * rights on it (404 when they cannot see it; `options.rights`), `plan(found, ex, locked)`
   * plans the step from it (reading through `ex`; writing through it only when `locked`), and
   * the step's target and parts are written together at the version read, the task row locked
   * at that version until the commit (so events go to whoever sees the task as of that version).
   */
  change<T>(
    actor: Actor,
    taskId: string,
    options: ChangeOptions<T>,
    plan: (found: TaskForWrite, ex: Executor, locked: boolean) => Promise<TaskWriteStep<T>> | TaskWriteStep<T>,
  ): Promise<T>;
  /**
   * The parts every change of the task row carries: the hooks' rows (activity, mail,
   * notifications) and its events (eventsFor), for a step that changes the task row itself.
   */
  partsFor(change: TaskChange): WriteParts;
  /**
   * Registers a hook that adds rows to every task write (see TaskWriteHook), and optionally
   * `afterCommit`, run with the write's parts and result once it has committed (e.g. to wake a worker).
   */
  addHook(hook: TaskWriteHook, afterCommit?: AfterCommit): void;
  /** The columns of `boardId` changed (services/columns.ts): the next create reads them before it places a task. */
  columnsChanged(boardId: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    taskWrites: TaskWrites;
  }
}

/** Runs once a write has committed, with what it wrote. */
type AfterCommit = (parts: WriteParts, result: WriteResult) => void;

const MISSED = Symbol('missed');

/** A create's place drawn from the board's hint no longer held: nothing was written, and the create runs again with a read. */
class HintMissed extends Error {
  constructor() {
    super('The place drawn from the board hint no longer holds');
    this.name = 'HintMissed';
  }
}

/**
 * Every write of a task, of its comments and of its checklist goes through here, and stores the
 * task row, the rows of the write hooks (activity, mail, notifications) and the event log rows
 * together or not at all. Tasks are planned here; comments and checklists by their own services
 * (comment-writes.ts, checklist-writes.ts), as a step that `change` writes.
 *
 * PostgreSQL, where each statement costs a network round trip: a create is ONE statement of
 * data-modifying CTEs (its own transaction; repositories/task-write-statements.ts). A change
 * reads the task (no lock), plans the write from it, and writes in ONE statement that touches
 * the row only if it is still at the version read, locking it until that statement commits. If
 * another write got there first (rare), the change is planned again inside a transaction that
 * reads the row `for update`, so it cannot miss twice. A change that writes more than the task's
 * one statement (completing a repeating task also writes its next occurrence) is planned again
 * there too, and checklist changes start there. SQLite (no network): the same rows in one
 * transaction, which already has the database to itself.
 *
 * Local streams are woken after the commit (the write runs through `events.statement` or
 * `events.transaction`, the only ways to write events); other instances by the NOTIFY the
 * statement sends. Other features add rows with `addHook`.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.tasksRepository;
    const postgres = fastify.dbDialect === 'postgres';
    const labelsRepo = fastify.labelsRepository;
    const statements = createTaskWriteStatements(fastify.dbDialect);
    const hints = createTopHints(TOP_HINTS);
    const occurrences = createOccurrences({ tasks: repo, checklist: fastify.checklistRepository, outbox: fastify.outboxRepository });
    const hooks: TaskWriteHook[] = [];
    const afterCommits: AfterCommit[] = [];

    const partsFor = (change: TaskChange): WriteParts => {
      const parts: WriteParts = { activity: [], mails: [], notifications: [], events: [] };
      for (const hook of hooks) hook(change, parts);
      parts.events.push(...eventsFor(change));
      return parts;
    };
    /** After the commit (the events service has woken this instance's streams): the after-commit hooks. */
    const committed = (parts: WriteParts, result: WriteResult) => {
      for (const after of afterCommits) after(parts, result);
    };

    /**
     * What the plans of a change of many tasks read once for all of them (instead of once per
     * task): the names of columns, and every label of a board (by name), by id.
     */
    interface PlanMemo {
      columnNames: Map<string, string>;
      boardLabels: Map<string, Label[]>;
    }
    /** The board's labels of `ids`, by name: read, or (`memo`) taken from all the board's labels read once. */
    const boardLabelsOf = async (boardId: string, ids: readonly string[], ex: Executor, memo: PlanMemo | undefined): Promise<Label[]> => {
      if (memo === undefined) return labelsRepo.ofBoard(boardId, ids, ex);
      let all = memo.boardLabels.get(boardId);
      if (all === undefined) {
        all = await labelsRepo.list(boardId, ex);
        memo.boardLabels.set(boardId, all);
      }
      return all.filter((label) => ids.includes(label._id));
    };
    /** The labels `ids` of the board, by name: 400 (field `labelIds`) when one is not the board's. */
    const labelsOf = async (boardId: string, ids: readonly string[], ex: Executor, memo?: PlanMemo): Promise<Label[]> => {
      const labels = await boardLabelsOf(boardId, ids, ex, memo);
      if (labels.length !== ids.length) throw labelIdsInvalid();
      return labels;
    };
    /**
     * A write that sets labels checked them before its statement: a label deleted in between fails
     * the statement on the foreign key (nothing is written), which answers as if it had never existed.
     */
    const labelsKept = async <T>(labelsSet: boolean, write: () => Promise<T>): Promise<T> => {
      try {
        return await write();
      } catch (error) {
        if (labelsSet && isForeignKeyViolation(error)) throw labelIdsInvalid();
        throw error;
      }
    };

    /**
     * Runs a change of task `id`: reads it (404 when the actor cannot see it), plans the write
     * with `plan`, and writes it at the version read (see above). `plan` learns whether the row
     * is locked (it may write through `ex` itself only then). `lockFirst`: skip the unlocked
     * attempt and run in a transaction holding the row's lock from the start. `once` (it needs
     * `lockFirst`): the Idempotency-Key is claimed before anything else in that transaction and
     * the answer stored with the write. `moveTo`: the board a move goes to (its role is read with the task).
     */
    async function change<T>(
      actor: Actor,
      id: string,
      { rights, lockFirst = false, once, moveTo, spot }: ChangeOptions<T> & { moveTo?: string | undefined; spot?: { columnId: string; afterId: string | null } | undefined },
      plan: (found: TaskForWrite, ex: Executor, locked: boolean) => Promise<TaskWriteStep<T>> | TaskWriteStep<T>,
    ): Promise<T> {
      const attempt = async (ex: EventTransaction, locked: boolean): Promise<{ value: T; written?: [WriteParts, WriteResult] } | typeof MISSED> => {
        await once?.claim(ex);
        // The task and the actor's rights on it come from one read (task-visibility.ts).
        const found = await repo.findForWrite(id, actor, moveTo, locked, ex, spot);
        if (found === undefined) throw taskNotFound();
        if (rights === 'edit' && !canChangeTask(found.role, found.task.assignee === actor.email)) throw viewerCannotChange();
        const step = await plan(found, ex, locked);
        if ('needsLock' in step) {
          if (locked) throw new Error('A write planned under the row lock asked for it again');
          return MISSED;
        }
        if (!('target' in step)) {
          await once?.remember(step.answer, ex);
          return { value: step.answer };
        }
        const result = await statements.write(step.target, step.parts, senderMailCap(actor.userId, clock.now()), ex);
        if (result.task === undefined) {
          if (locked) throw new Error('A locked task row changed under its lock');
          return MISSED;
        }
        const value = step.answer(result);
        await once?.remember(value, ex);
        return { value, written: [step.parts, result] };
      };
      const inTransaction = () => fastify.events.transaction((trx) => attempt(trx, true));
      if (once !== undefined && !lockFirst) throw new Error('An idempotent write runs in a transaction from the start');
      let done = postgres && !lockFirst ? await fastify.events.statement((ex) => attempt(ex, false)) : await inTransaction();
      if (done === MISSED) done = await inTransaction();
      if (done === MISSED) throw new Error('unreachable');
      if (done.written !== undefined) committed(...done.written);
      return done.value;
    }

    /**
     * A create: `hinted`, the place may be drawn from what this instance last read of the board
     * (`hints`, services/task-places.ts) instead of a read; when it no longer holds, the insert
     * writes nothing and the create runs again with a read.
     */
    const createOnce = async (...[actor, fields, labelIds, once, hinted]: [...Parameters<TaskWrites['create']>, boolean]): Promise<Written> => {
        const withLabels = labelIds !== undefined && labelIds.length > 0;
        // Whether the labels are the board's, and a named column told apart from a missing one,
        // only to someone who may create on the board: the role is read once, with the columns.
        // (Without either, the write statement itself refuses a non-member.)
        const placed: Placed = {};
        const mayCreate = withLabels || fields.columnId !== undefined ? { userId: actor.userId, check: needEditingRole } : undefined;
        const atTop = hinted && mayCreate === undefined ? hints.take(fields.boardId, fields.status, placed) : undefined;
        const place = atTop ?? (await placeNewTask(fastify.db, fields.boardId, fields.status, fields.columnId, placed, mayCreate, hints));
        if (place === undefined) throw boardNotFound();
        const labels: Label[] = withLabels ? await labelsOf(fields.boardId, labelIds, fastify.db) : [];
        const now = clock.now();
        const nowIso = now.toISOString();
        const task = { ...fields, ...place, id: newId(), createdBy: actor.userId, createdAt: nowIso, updatedAt: nowIso };
        // Everything the hooks and events need is known before the insert: the task as it will read.
        const after: Task = {
          _id: task.id,
          workTitle: task.workTitle,
          taskTitle: task.taskTitle,
          assignee: task.assigneeEmail,
          assignor: actor.fullName,
          assignorEmail: actor.email,
          deadline: task.deadline ?? null,
          startAt: task.startAt ?? null,
          priority: task.priority,
          status: task.status,
          description: task.description,
          boardId: task.boardId,
          createdAt: nowIso,
          updatedAt: nowIso,
          version: 1,
          labels,
          checklist: { done: task.checklistDone ?? 0, total: task.checklistTotal ?? 0 },
          repeat: task.repeatEvery == null || task.repeatUnit == null ? null : { every: task.repeatEvery, unit: task.repeatUnit },
          columnId: task.columnId,
          position: task.position,
          attachmentCount: 0,
          cover: null,
        };
        const parts = partsFor({ kind: 'created', before: undefined, after, actor, now });
        const target: WriteTarget = { kind: 'insert', task, creator: actor, ...(labels.length > 0 ? { labels } : {}), ...(atTop === undefined ? {} : { atTop: true }) };
        const cap = senderMailCap(actor.userId, now);
        const write = (ex: EventTransaction) => statements.write(target, parts, cap, ex);
        /** The written task, or (refused) 404 or 403 by the creator's role on the board. */
        const writtenOf = (result: WriteResult): Written => {
          if (result.task !== undefined) return { task: result.task, mailsHeld: result.mailsHeld };
          needEditingRole(result.boardRole);
          if (atTop !== undefined) throw new HintMissed();
          throw new Error('The task insert returned no row');
        };
        // With an Idempotency-Key: the key's row, the task's statement and the answer in one
        // transaction (a refusal throws inside it, so the claim rolls back and the key stays free).
        const idempotent = async (trx: EventTransaction) => {
          if (once === undefined) return write(trx);
          await once.claim(trx);
          const result = await write(trx);
          await once.remember(writtenOf(result), trx);
          return result;
        };
        const result = await labelsKept(labels.length > 0, () =>
          postgres && once === undefined ? fastify.events.statement(write) : fastify.events.transaction(idempotent),
        );
        const written = writtenOf(result);
        committed(parts, result);
        const warning = await overLimitWarning(fastify.db, placed.column);
        return warning === undefined ? written : { ...written, warning };
      };

    /**
     * The plan of a change of one task (`update`, and each task of `updateMany`): `changesFor`
     * and `labelIdsFor` as `update` takes them, read from the task as found; `placed` learns
     * the column the write placed it in. `spotAt`: the spot of a move, read with the task.
     */
    const planUpdate = (
      actor: Actor,
      expectedVersion: number | undefined,
      changesFor: (current: Task, spot: Spot | undefined) => EditableFields,
      moveTo: string | undefined,
      labelIdsFor: (current: Task) => readonly string[] | undefined,
      spotAt: { columnId: string; afterId: string | null } | undefined,
      placed: Placed,
      memo?: PlanMemo,
    ) => async ({ task: before, boardName, target, spot }: TaskForWrite, ex: Executor, locked: boolean): Promise<TaskWriteStep<Written>> => {
          delete placed.column;
          if (expectedVersion !== undefined && expectedVersion !== before.version) throw taskConflict(before);
          const changes: EditableFields = changesFor(before, spot);
          let boards: TaskChange['boards'];
          if (moveTo !== undefined && moveTo !== before.boardId) {
            needEditingRole(target.role);
            changes.boardId = moveTo;
            boards = { from: boardName, to: target.name ?? '' };
          }
          Object.assign(changes, await placeChangedTask(ex, before, changes, placed));
          // A move between two columns of one category (a category change says `completed` / `reopened`).
          let columns: TaskChange['columns'];
          const toColumn = changes.columnId;
          if (toColumn !== undefined && toColumn !== before.columnId && changes.boardId === undefined && (changes.status ?? before.status) === before.status) {
            // A move read both names with its spot.
            const known = new Map<string, string>(memo?.columnNames);
            if (spotAt !== undefined && spot?.column !== undefined) known.set(spotAt.columnId, spot.column.name);
            if (spot?.fromName != null) known.set(before.columnId, spot.fromName);
            const names = await columnNamesOf(ex, [before.columnId, toColumn], known);
            for (const [id, name] of names) memo?.columnNames.set(id, name);
            columns = { from: names.get(before.columnId) ?? '', to: names.get(toColumn) ?? '' };
          }
          // The labels after the write: those given, of the board the task is on then; a move
          // without them leaves the old board's labels behind.
          const labelIds = labelIdsFor(before);
          let labels = labelIds === undefined ? undefined : await labelsOf(changes.boardId ?? before.boardId, labelIds, ex, memo);
          if (labels === undefined && changes.boardId !== undefined) labels = [];
          if (labels !== undefined && sameLabels(labels, before.labels)) labels = undefined;
          if (Object.keys(changes).length === 0 && labels === undefined) return { answer: { task: before, mailsHeld: 0 } };
          const now = clock.now();
          const updatedAt = now.toISOString();
          const after: Task = {
            ...before,
            ...(changes.taskTitle === undefined ? {} : { taskTitle: changes.taskTitle }),
            ...(changes.assigneeEmail === undefined ? {} : { assignee: changes.assigneeEmail }),
            ...(changes.workTitle === undefined ? {} : { workTitle: changes.workTitle }),
            ...(changes.deadline === undefined ? {} : { deadline: changes.deadline }),
            ...(changes.startAt === undefined ? {} : { startAt: changes.startAt }),
            ...(changes.priority === undefined ? {} : { priority: changes.priority }),
            ...(changes.status === undefined ? {} : { status: changes.status }),
            ...(changes.description === undefined ? {} : { description: changes.description }),
            ...(changes.boardId === undefined ? {} : { boardId: changes.boardId }),
            ...(changes.columnId === undefined ? {} : { columnId: changes.columnId }),
            ...(changes.position === undefined ? {} : { position: changes.position }),
            ...(labels === undefined ? {} : { labels }),
            ...(changes.repeatEvery === undefined ? {} : { repeat: repeatOf(changes.repeatEvery, changes.repeatUnit ?? null) }),
            updatedAt,
            version: before.version + 1,
          };
          // Completing a repeating task creates its next occurrence in the same transaction, and
          // the completed one stops repeating (reopening and completing it again makes no second one).
          let occurrence: { task: Task; activity: NewActivity } | undefined;
          const repeat = after.repeat;
          if (before.status !== 'done' && after.status === 'done' && repeat !== null && after.deadline !== null) {
            if (!locked) return { needsLock: true };
            occurrence = await occurrences.create({ ...after, repeat, deadline: after.deadline }, actor, now, ex);
            changes.repeatEvery = null;
            changes.repeatUnit = null;
            after.repeat = null;
          }
          const parts = partsFor({ kind: 'updated', before, after, actor, now, boards, columns });
          if (occurrence !== undefined) {
            parts.activity.push(occurrence.activity);
            parts.events.push(...eventsFor({ kind: 'created', before: undefined, after: occurrence.task, actor, now }));
          }
          return {
            target: { kind: 'update', before, changes: { ...changes, updatedAt }, ...(labels === undefined ? {} : { labels }) },
            parts,
            answer: (result) => ({ task: result.task ?? after, mailsHeld: result.mailsHeld }),
          };
        };

    /**
     * Writes of many tasks in one transaction (updateMany, removeMany): every task read in one
     * statement, its row locked, with the actor's rights on it; each planned in `ids`' order;
     * then `gather` sees every planned write's parts; then all are written (writeMany: on
     * PostgreSQL one statement per shape of task row, whatever the number of tasks). A refusal
     * names its task and rolls everything back. `versions`: each task's expected version, checked
     * on the locked row before it is planned (both databases read through findManyForWrite).
     */
    async function many<T>(
      actor: Actor,
      ids: readonly string[],
      moveTo: string | undefined,
      versions: ReadonlyMap<string, number> | undefined,
      plan: (found: TaskForWrite, ex: Executor) => Promise<TaskWriteStep<T>> | TaskWriteStep<T>,
      gather: (parts: readonly WriteParts[]) => void = () => undefined,
    ): Promise<T[]> {
      const done = await fastify.events.transaction(async (trx) => {
        const steps: Exclude<TaskWriteStep<T>, { needsLock: true }>[] = [];
        // Every task in one read, locked, with the actor's rights on it (`findForWrite`'s read).
        const all = await repo.findManyForWrite(ids, actor, moveTo, trx);
        for (const id of ids) {
          let title: string | undefined;
          try {
            const found = all.get(id);
            if (found === undefined) throw taskNotFound();
            title = found.task.taskTitle;
            if (!canChangeTask(found.role, found.task.assignee === actor.email)) throw viewerCannotChange();
            const expected = versions?.get(id);
            if (expected !== undefined && expected !== found.task.version) throw taskConflict(found.task);
            const step = await plan(found, trx);
            if ('needsLock' in step) throw new Error('A write planned under the row lock asked for it again');
            steps.push(step);
          } catch (error) {
            throw error instanceof AppError ? aboutTask(error, id, title) : error;
          }
        }
        const writes = steps.flatMap((step) => ('target' in step ? [step] : []));
        gather(writes.map((step) => step.parts));
        const { results, written } = await statements.writeMany(writes, senderMailCap(actor.userId, clock.now()), trx);
        const resultOf = new Map(writes.map((step, i) => [step, results[i]]));
        const values = steps.map((step) => {
          if (!('target' in step)) return step.answer;
          const result = resultOf.get(step);
          if (result?.task === undefined) throw new Error('A locked task row changed under its lock');
          return step.answer(result);
        });
        return { values, written };
      });
      for (const [parts, result] of done.written) committed(parts, result);
      return done.values;
    }

    const updateOnce: TaskWrites['update'] = async (actor, id, expectedVersion, changesFor, moveTo, labelIds, spotAt) => {
        // The column the write placed the task in (a status change, a move to another board), for the WIP warning.
        const placed: Placed = {};
        const plan = planUpdate(actor, expectedVersion, changesFor, moveTo, () => labelIds, spotAt, placed);
        const written = await labelsKept(labelIds !== undefined, () => change<Written>(actor, id, { rights: 'edit', moveTo, spot: spotAt }, plan));
        const column = placed.column;
        const warning = written.task.columnId === column?.id ? await overLimitWarning(fastify.db, column) : undefined;
        return warning === undefined ? written : { ...written, warning };
      };

    const respace = async (actor: Actor, columnId: string): Promise<Set<string>> => {
      const tasks = await fastify.columnsRepository.tasksOf(columnId);
      const respaced = new Set<string>();
      const keys = respacedKeys(tasks.length, new Set(tasks.map((t) => t.position)));
      for (const [i, task] of tasks.entries()) {
        const position = keys[i] ?? '';
        try {
          const { task: after } = await updateOnce(actor, task.id, undefined, (current) => (current.columnId === columnId ? { position } : {}));
          if (after.position === position) respaced.add(task.id);
        } catch (error) {
          // A task that left the column or the actor's sight meanwhile keeps its key.
          if (!(error instanceof AppError && error.status < 500)) throw error;
        }
      }
      return respaced;
    };

    const planRemove = (actor: Actor, before: Task): TaskWriteStep<undefined> => ({
      target: { kind: 'delete', before },
      parts: partsFor({ kind: 'deleted', before, after: undefined, actor, now: clock.now() }),
      answer: () => undefined,
    });

    fastify.decorate('taskWrites', {
      addHook(hook, afterCommit) {
        hooks.push(hook);
        if (afterCommit !== undefined) afterCommits.push(afterCommit);
      },

      partsFor,
      change,
      columnsChanged(boardId) {
        hints.forget(boardId);
      },

      create(actor, fields, labelIds, once) {
        const create = async () => {
          try {
            return await createOnce(actor, fields, labelIds, once, true);
          } catch (error) {
            if (!(error instanceof HintMissed)) throw error;
            hints.forget(fields.boardId);
            return createOnce(actor, fields, labelIds, once, false);
          }
        };
        return withDistinctKeys(create, (columnId) => respace(actor, columnId));
      },

      update(actor, id, expectedVersion, changesFor, moveTo, labelIds, spot) {
        return withDistinctKeys(() => updateOnce(actor, id, expectedVersion, changesFor, moveTo, labelIds, spot), (columnId) => respace(actor, columnId));
      },

      respace,

      remove(actor, id, expectedVersion) {
        return change<undefined>(actor, id, { rights: 'edit' }, ({ task: before }) => {
          if (expectedVersion !== undefined && expectedVersion !== before.version) throw taskConflict(before);
          return planRemove(actor, before);
        });
      },

      updateMany(actor, ids, each, { moveTo, versions, mails } = {}) {
        // Each task's changes, read by the one plan `update` uses.
        const planned = new Map<string, { changes: EditableFields; labelIds?: readonly string[] | undefined }>();
        const memo: PlanMemo = { columnNames: new Map(), boardLabels: new Map() };
        const plan = planUpdate(actor, undefined, (current) => planned.get(current._id)?.changes ?? {}, moveTo, (current) => planned.get(current._id)?.labelIds, undefined, {}, memo);
        const planEach = async (found: TaskForWrite, ex: Executor) => {
          planned.set(found.task._id, await each(found.task, ex));
          return plan(found, ex, true);
        };
        // The re-spacing a retry needs bumps the versions of the tasks of that column, these too.
        const expected = versions === undefined ? undefined : new Map(versions);
        return withDistinctKeys(
          () =>
            labelsKept(true, async () => {
              const written = await many<Written>(actor, ids, moveTo, expected, planEach, mails);
              // Mails past the sender's hourly cap, held back: the answer says so.
              return { tasks: written.map((w) => w.task), mailsHeld: written.reduce((sum, w) => sum + w.mailsHeld, 0) };
            }),
          async (columnId) => {
            for (const id of await respace(actor, columnId)) {
              const version = expected?.get(id);
              if (version !== undefined) expected?.set(id, version + 1);
            }
          },
        );
      },

      async removeMany(actor, ids, versions) {
        return (await many<undefined>(actor, ids, undefined, versions, ({ task }) => planRemove(actor, task))).length;
      },
    } satisfies TaskWrites);

    // Every task write carries its activity entries, the mail rules' rows and the in-app
    // notifications (services/notifications.ts); the outbox worker is woken once a write that
    // wrote mail, pushes or webhook deliveries has committed (not for mail the sender's cap held
    // back: then there is nothing new to send).
    fastify.taskWrites.addHook((change, parts) => {
      parts.activity.push(...activityFor(change));
    });
    fastify.taskWrites.addHook(
      (change, parts) => {
        fastify.taskMail.plan(change, parts);
        parts.notifications.push(...taskWriteNotifications(change));
      },
      (parts, result) => {
        if (parts.mails.length > result.mailsHeld || result.pushes > 0 || result.webhooks > 0) fastify.outbox.wake();
      },
    );
    done();
  },
  { name: 'task-writes', dependencies: ['repositories', 'events', 'task-mail', 'outbox'] },
);
