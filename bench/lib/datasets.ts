/**
 * The data set the API benchmarks share: many other users' tasks (invisible to the benchmark
 * users, but in the same table and indexes), benchmark users who each see a known number of
 * tasks, and a "writer" whose own tasks are edited by the PATCH benchmark.
 */
import {
  benchUser,
  migrate,
  openSeeder,
  otherUsers,
  othersTasks,
  TaskFactory,
  visibleTasks,
  type BenchUser,
  type DbTarget,
  type UserSeed,
} from './db.ts';

export interface BoardDatasetSpec {
  /** How many other users own `otherTasks` among themselves. */
  otherUsers: number;
  otherTasks: number;
  /** Benchmark users by label, with how many tasks each sees. */
  viewers: { label: string; visible: number }[];
  /** Tasks created by the writer (targets of PATCH). */
  writerTasks: number;
  /** Users who only sign in (login benchmark: one account per connection). */
  loginUsers?: number;
  seed?: number;
}

export interface BoardDataset {
  viewers: Map<string, BenchUser>;
  writer: BenchUser;
  loginUsers: BenchUser[];
  writerTaskIds: string[];
  others: UserSeed[];
  totalTasks: number;
  seedSeconds: number;
}

/** Migrates `target` and fills it; the caller starts the servers afterwards. */
export async function seedBoardDataset(target: DbTarget, spec: BoardDatasetSpec): Promise<BoardDataset> {
  const started = performance.now();
  migrate(target);
  const seeder = await openSeeder(target);
  try {
    const factory = new TaskFactory(spec.seed ?? 1);
    const others = otherUsers(spec.otherUsers);
    const viewers = new Map<string, BenchUser>();
    for (const v of spec.viewers) viewers.set(v.label, await benchUser(`${v.label}-${target.kind}`));
    const writer = await benchUser(`writer-${target.kind}`);
    const loginUsers: BenchUser[] = [];
    for (let i = 0; i < (spec.loginUsers ?? 0); i++) loginUsers.push(await benchUser(`login${i}-${target.kind}`));
    await seeder.insertUsers([...others, ...viewers.values(), writer, ...loginUsers]);

    // Other users' tasks first (older), then the benchmark users' (newer): the board query must
    // find a user's rows through the indexes wherever they sit.
    await seeder.insertTasks(spec.otherTasks, othersTasks(factory, others));
    for (const v of spec.viewers) {
      await seeder.insertTasks(v.visible, visibleTasks(factory, viewers.get(v.label)!, others, v.visible));
    }
    const writerTaskIds: string[] = [];
    await seeder.insertTasks(spec.writerTasks, (i) => {
      const task = factory.task({ createdBy: writer.id, assigneeEmail: others[i % others.length]!.email, status: 'todo', priority: 'normal' });
      writerTaskIds.push(task.id);
      return task;
    });
    await seeder.analyze();
    const totalTasks = await seeder.countTasks();
    return { viewers, writer, loginUsers, writerTaskIds, others, totalTasks, seedSeconds: (performance.now() - started) / 1000 };
  } finally {
    await seeder.close();
  }
}
