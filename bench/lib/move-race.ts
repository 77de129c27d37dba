/**
 * Two people moving cards into the same column at the same time (bench/suites/columns.ts, and
 * server/test/task-moves.test.ts with fewer moves): each moves their own tasks one after the
 * other, alternately to the top of the column and directly below one task that nobody moves,
 * so the two often drop a card into the same spot at the same moment. A 409 CONFLICT is sent
 * again with the task's current version, as a client does after it has read the task anew.
 */

/** What a move answered: its status, the task it answers (200, or 409 CONFLICT's current task) and the error code. */
export interface MoveAnswer {
  status: number;
  task?: { _id: string; version: number } | undefined;
  code?: string | undefined;
}

/** One person's POST /api/tasks/:id/move. */
export type Mover = (taskId: string, columnId: string, afterId: string | null, version: number) => Promise<MoveAnswer>;

export interface RaceResult {
  /** Moves answered 200 (after any retries). */
  ok: number;
  /** 409 CONFLICT answers that were sent again with the current version. */
  retried: number;
  /** Moves that ended in anything but 200: status and code. */
  failed: { status: number; code: string | undefined }[];
  /** Milliseconds of each move that ended in 200, retries included. */
  times: number[];
}

/** Moves `perPerson` times per person, the people at once; each person's moves one after the other, cycling through their tasks. */
export async function moveRace(opts: {
  people: { move: Mover; tasks: { _id: string; version: number }[] }[];
  columnId: string;
  /** A task of the column that nobody moves: half the moves go directly below it. */
  anchorId: string;
  perPerson: number;
}): Promise<RaceResult> {
  const result: RaceResult = { ok: 0, retried: 0, failed: [], times: [] };
  await Promise.all(
    opts.people.map(async ({ move, tasks }) => {
      const versions = new Map(tasks.map((task) => [task._id, task.version]));
      for (let i = 0; i < opts.perPerson; i += 1) {
        const id = tasks[i % tasks.length]?._id ?? '';
        const afterId = i % 2 === 0 ? null : opts.anchorId;
        const started = performance.now();
        for (let attempt = 1; ; attempt += 1) {
          const answer = await move(id, opts.columnId, afterId, versions.get(id) ?? 0);
          if (answer.task !== undefined) versions.set(id, answer.task.version);
          if (answer.status === 409 && answer.code === 'CONFLICT' && attempt < 5) {
            result.retried += 1;
            continue;
          }
          if (answer.status === 200) {
            result.ok += 1;
            result.times.push(performance.now() - started);
          } else {
            result.failed.push({ status: answer.status, code: answer.code });
          }
          break;
        }
      }
    }),
  );
  return result;
}

/** Keys that are not strictly ascending byte-wise in `keys` (a duplicate or an order the two databases disagree on), as `a >= b` pairs. */
export function outOfOrder(keys: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < keys.length; i += 1) {
    const a = keys[i - 1] ?? '';
    const b = keys[i] ?? '';
    if (Buffer.compare(Buffer.from(a), Buffer.from(b)) >= 0) out.push(`${a} >= ${b}`);
  }
  return out;
}
