import fp from 'fastify-plugin';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { newId } from '../db/ids.ts';
import type { Executor } from '../db/prepared.ts';
import type { TasksTable } from '../db/schema.ts';
import { AppError, conflict } from '../errors.ts';
import { appendEvent, taskAudience, type EventTransaction, type NewEvent } from '../repositories/events-repository.ts';
import type { Viewer } from '../repositories/tasks-repository.ts';

/** The signed-in person making a change (`by` of the events). */
export interface Actor extends Viewer {
  fullName: string;
}

/** What a write did, handed to every write hook inside the write's transaction. */
export interface TaskChange {
  kind: 'created' | 'updated' | 'deleted';
  /** The task before the write (undefined on create). */
  before: Task | undefined;
  /** The task after the write (undefined on delete). */
  after: Task | undefined;
  actor: Actor;
  now: Date;
}

/**
 * Runs inside the write's transaction, after the task row was written and before the events are
 * appended: a hook's rows (an activity entry, an outbox mail) commit with the change or not at
 * all. A hook that throws rolls the whole write back.
 */
export type TaskWriteHook = (trx: Executor, change: TaskChange) => Promise<void>;

export type EditableFields = Partial<Pick<TasksTable, 'taskTitle' | 'assigneeEmail' | 'workTitle' | 'deadline' | 'priority' | 'status' | 'description'>>;

export interface TaskWrites {
  create(actor: Actor, fields: Omit<TasksTable, 'id' | 'createdBy' | 'createdAt' | 'updatedAt' | 'version'>): Promise<Task>;
  /**
   * `changesFor(current)` returns the fields that really change (it may throw a 4xx). With
   * `expectedVersion`, a task at another version answers 409 CONFLICT and nothing changes.
   */
  update(actor: Actor, id: string, expectedVersion: number | undefined, changesFor: (current: Task) => EditableFields): Promise<Task>;
  remove(actor: Actor, id: string, expectedVersion: number | undefined): Promise<void>;
  /**
   * Registers a hook that runs in every task write's transaction (see TaskWriteHook), and
   * optionally `afterCommit`, run once the write has committed (e.g. to wake a worker).
   */
  addHook(hook: TaskWriteHook, afterCommit?: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    taskWrites: TaskWrites;
  }
}

const taskNotFound = () => new AppError(404, 'NOT_FOUND', SERVER_MESSAGES.taskNotFound);
const taskConflict = (current: Task) => conflict(SERVER_MESSAGES.taskConflict, { task: current });

/**
 * The events a change sends, by who could see the task before and after it: `task.created` to
 * whoever starts seeing it, `task.updated` to whoever still sees it, `task.deleted` to whoever no
 * longer sees it. The actor is in the audience like anyone else (their other tabs update).
 * A `task.deleted` carries the version the change produced (a deletion counts as a change).
 */
export function eventsFor(change: TaskChange): NewEvent[] {
  const { before, after, actor } = change;
  const by = { fullName: actor.fullName, email: actor.email };
  const at = change.now.toISOString();
  const was = new Set(before === undefined ? [] : taskAudience(before));
  const is = new Set(after === undefined ? [] : taskAudience(after));
  const events: NewEvent[] = [];
  const task = after ?? before;
  if (task === undefined) return events;
  const push = (type: NewEvent['type'], audience: string[], data: Record<string, unknown>) => {
    if (audience.length > 0) events.push({ type, taskId: task._id, audience, data, at });
  };
  if (after !== undefined) {
    push('task.created', [...is].filter((e) => !was.has(e)), { task: after, by });
    push('task.updated', [...is].filter((e) => was.has(e)), { task: after, by });
  }
  const version = after?.version ?? task.version + 1;
  push('task.deleted', [...was].filter((e) => !is.has(e)), { task: { _id: task._id, version }, by });
  return events;
}

/**
 * Every task write goes through here: one transaction holding the task row, the write hooks'
 * rows and the event log rows (appended last, see appendEvent), run through
 * `fastify.events.transaction` so this instance's streams are woken right after the commit.
 * Other features add their rows to the same transaction with `fastify.taskWrites.addHook`.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock } = fastify;
    const repo = fastify.tasksRepository;
    const hooks: TaskWriteHook[] = [];
    const afterCommits: (() => void)[] = [];
    /** Runs `fn` in one transaction (events.transaction wakes the streams), then the after-commit hooks. */
    const write = async <T>(fn: (trx: EventTransaction) => Promise<T>): Promise<T> => {
      const result = await fastify.events.transaction(fn);
      for (const after of afterCommits) after();
      return result;
    };

    const finish = async (trx: EventTransaction, change: TaskChange) => {
      for (const hook of hooks) await hook(trx, change);
      for (const event of eventsFor(change)) await appendEvent(trx, event);
    };

    fastify.decorate('taskWrites', {
      addHook(hook, afterCommit) {
        hooks.push(hook);
        if (afterCommit !== undefined) afterCommits.push(afterCommit);
      },

      async create(actor, fields) {
        const now = clock.now();
        const nowIso = now.toISOString();
        const id = newId();
        return write(async (trx) => {
          const after = await repo.insert({ ...fields, id, createdBy: actor.userId, createdAt: nowIso, updatedAt: nowIso }, actor, trx);
          await finish(trx, { kind: 'created', before: undefined, after, actor, now });
          return after;
        });
      },

      async update(actor, id, expectedVersion, changesFor) {
        const now = clock.now();
        return write(async (trx) => {
          const before = await repo.findVisibleForWrite(id, actor, trx);
          if (before === undefined) throw taskNotFound();
          if (expectedVersion !== undefined && expectedVersion !== before.version) throw taskConflict(before);
          const changes = changesFor(before);
          if (Object.keys(changes).length === 0) return before;
          // The row is locked (PostgreSQL) or the writer is alone (SQLite), so this cannot miss;
          // the version condition keeps the write atomic even if that ever stops being true.
          const after = await repo.update(before, { ...changes, updatedAt: now.toISOString() }, trx);
          if (after === undefined) throw taskConflict((await repo.findById(id, trx)) ?? before);
          await finish(trx, { kind: 'updated', before, after, actor, now });
          return after;
        });
      },

      async remove(actor, id, expectedVersion) {
        const now = clock.now();
        await write(async (trx) => {
          const before = await repo.findVisibleForWrite(id, actor, trx);
          if (before === undefined) throw taskNotFound();
          if (expectedVersion !== undefined && expectedVersion !== before.version) throw taskConflict(before);
          if (!(await repo.delete(id, before.version, trx))) throw taskNotFound();
          await finish(trx, { kind: 'deleted', before, after: undefined, actor, now });
        });
      },
    } satisfies TaskWrites);
    done();
  },
  { name: 'task-writes', dependencies: ['repositories', 'events'] },
);
