/**
 * Shared boards for the board benchmarks: one user on one big board, one user on many boards of
 * a thousand tasks each, and other users' tasks (on their personal boards) filling the table.
 * Seeded in steps so a suite can measure at a small table and then grow it.
 */
import { benchUser, newId, otherUsers, othersTasks, type BenchUser, type BoardSeed, type Seeder, type TaskFactory, type UserSeed } from './db.ts';

export interface BoardsShape {
  /** Tasks on the big board. */
  bigBoard: number;
  /** Boards the "many boards" user is on, and tasks on each. */
  boards: number;
  perBoard: number;
  /** Tasks assigned to the "many boards" user on boards they are not on (their assignee part). */
  assignedElsewhere: number;
}

export interface BoardsDataset {
  /** A member of the big board and of the labelled board (plus their personal board, empty). */
  bigUser: BenchUser;
  bigBoardId: string;
  /**
   * A board like the big one (as many tasks, made the same way) where every task carries
   * LABELS_PER_TASK labels and a checklist: a page of it against a page of the big board is what
   * task details cost.
   */
  labelledBoardId: string;
  /** The labelled board's labels (every task of it carries all of them). */
  labelIds: string[];
  /** A member of `shape.boards` boards (plus their personal board, empty). */
  manyUser: BenchUser;
  /** Tasks seeded so far, all kinds. */
  tasks: number;
}

/** Fellow members of every shared board: the boards' tasks are created by and assigned to them. */
const FELLOWS = 20;
/** The most labels a task may carry (LIMITS.labelsPerTask): the labelled board's worst case. */
export const LABELS_PER_TASK = 10;
export const CHECKLIST = { done: 2, total: 5 };

/**
 * Seeds the two users, their boards and tasks. Tasks on the shared boards are created by the
 * boards' other members; one in ten is assigned to the benchmark user, the rest to fellow
 * members; 30 % are done. Each board's tasks are spread over the seeding's time line (boards
 * filled in turns of 50 tasks), so "all my tasks" draws its newest from many boards.
 */
export async function seedBoards(seeder: Seeder, shape: BoardsShape, label: string, factory: TaskFactory): Promise<BoardsDataset> {
  const bigUser = await benchUser(`big-board-${label}`);
  const manyUser = await benchUser(`many-boards-${label}`);
  const fellows = otherUsers(FELLOWS, `fellow-${label}-`);
  const strangers = otherUsers(10, `stranger-${label}-`);
  await seeder.insertUsers([bigUser, manyUser, ...fellows, ...strangers]);
  const bigBoard: BoardSeed = { id: newId(), name: 'Big board', members: [bigUser, ...fellows] };
  const labelledBoard: BoardSeed = { id: newId(), name: 'Labelled board', members: [bigUser, ...fellows] };
  const boards: BoardSeed[] = Array.from({ length: shape.boards }, (_, i) => ({ id: newId(), name: `Board ${i + 1}`, members: [manyUser, ...fellows] }));
  await seeder.insertBoards([bigBoard, labelledBoard, ...boards]);

  const onBoard = (board: BoardSeed, me: UserSeed, i: number) =>
    factory.task({ createdBy: fellows[i % FELLOWS]!.id, assigneeEmail: i % 10 === 0 ? me.email : fellows[(i * 7 + 3) % FELLOWS]!.email, boardId: board.id });
  // Assigned to the user by strangers, on the strangers' personal boards (older than the boards' tasks).
  await seeder.insertTasks(shape.assignedElsewhere, (i) => factory.task({ createdBy: strangers[i % strangers.length]!.id, assigneeEmail: manyUser.email }));
  await seeder.insertTasks(shape.bigBoard, (i) => onBoard(bigBoard, bigUser, i));
  await seeder.insertTasks(shape.bigBoard, (i) => onBoard(labelledBoard, bigUser, i));
  const labelIds = await seeder.addTaskDetails([labelledBoard.id], { labels: LABELS_PER_TASK, checklist: CHECKLIST });
  const turn = 50;
  await seeder.insertTasks(shape.boards * shape.perBoard, (i) => {
    const round = Math.floor(i / (turn * shape.boards));
    const board = boards[Math.floor(i / turn) % shape.boards]!;
    return onBoard(board, manyUser, round * turn + (i % turn));
  });
  return {
    bigUser,
    bigBoardId: bigBoard.id,
    labelledBoardId: labelledBoard.id,
    labelIds,
    manyUser,
    tasks: 2 * shape.bigBoard + shape.boards * shape.perBoard + shape.assignedElsewhere,
  };
}

/** Adds `count` tasks among new other users (about 100 each, on their personal boards), invisible to both benchmark users. */
export async function seedOthers(seeder: Seeder, count: number, prefix: string, factory: TaskFactory): Promise<void> {
  if (count <= 0) return;
  const others = otherUsers(Math.ceil(count / 100), prefix);
  await seeder.insertUsers(others);
  await seeder.insertTasks(count, othersTasks(factory, others));
}
