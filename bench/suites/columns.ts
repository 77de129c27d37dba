/**
 * Workflow columns over HTTP with the real server: a board of 5,000 tasks in 10 columns, its
 * column pages in their own order (`column=…&sort=position&limit=50`, first and second page) with
 * only this board's tasks in the table and again at 1,000,000 rows (other people's tasks on their
 * personal boards): p50 ≤ 5 ms and flat as the table grows. Then two people, each on their own
 * connection, make 500 moves between them into the same column at the same time (half to the top,
 * half directly below one task, so they often drop into the same spot at once; a 409 CONFLICT is
 * sent again with the current version, as a client does): every move must end in 200, and the
 * column must list afterwards with no two tasks on the same key, in one byte-wise order. (A
 * move's round trips to PostgreSQL are counted by the remote-db suite.) `--quick` uses a small
 * board and table (measured once, at its full size) and 60 moves, and never fails on a number.
 */
import { Agent, request } from 'node:http';
import type { TaskStatus } from '#shared/constants.ts';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchUser, dbLabel, makeTarget, migrate, newId, openSeeder, otherUsers, othersTasks, TaskFactory, type DbKind } from '../lib/db.ts';
import { int, loadAverage, median, ms, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { pageLatency, pageTargets, type Point } from '../lib/page-latency.ts';
import { moveRace, outOfOrder, type MoveAnswer, type Mover } from '../lib/move-race.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

const PAGE_TARGET_MS = 5;
/** The board's columns beyond the two every board starts with: 10 in all, 8 of them todo. */
export const EXTRA_COLUMNS: { name: string; category: TaskStatus }[] = [
  ...['Backlog', 'Ready', 'In progress', 'Blocked', 'Review', 'Testing', 'Staging'].map((name) => ({ name, category: 'todo' as const })),
  { name: 'Shipped', category: 'done' },
];

function settings(quick: boolean) {
  return quick
    ? { board: 1_000, tableSize: 5_000, count: 30, seconds: 0.5, warmup: 5, moves: 60 }
    : { board: 5_000, tableSize: 1_000_000, count: 300, seconds: 3, warmup: 30, moves: 500 };
}

interface PageCall {
  key: string;
  label: string;
  second: boolean;
}
const CALLS: PageCall[] = [
  { key: 'first', label: 'a column: ?column=…&sort=position&limit=50', second: false },
  { key: 'second', label: 'a column: ?column=…&sort=position&limit=50, second page (cursor)', second: true },
];

/** One request on a keep-alive agent: status and JSON body. */
function call(agent: Agent, baseUrl: string, method: string, path: string, cookie: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { cookie, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) };
    const req = request(new URL(path, baseUrl), { agent, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, json: text === '' ? undefined : (JSON.parse(text) as unknown) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

interface PageTask {
  _id: string;
  version: number;
  position: string;
}
interface Page {
  data: { tasks: PageTask[]; nextCursor: string | null };
}

/** Every task of a column in its order, page by page (100 a page). */
async function wholeColumn(agent: Agent, baseUrl: string, cookie: string, column: string): Promise<PageTask[]> {
  const out: PageTask[] = [];
  let cursor: string | null = null;
  do {
    const res = await call(agent, baseUrl, 'GET', `/api/tasks?column=${column}&sort=position&limit=100${cursor === null ? '' : `&cursor=${cursor}`}`, cookie);
    if (res.status !== 200) throw new Error(`column page: HTTP ${res.status}`);
    const { data } = res.json as Page;
    out.push(...data.tasks);
    cursor = data.nextCursor;
  } while (cursor !== null);
  return out;
}

async function pages(server: RunningServer, cookie: string, column: string, s: ReturnType<typeof settings>): Promise<Map<string, Point>> {
  const out = new Map<string, Point>();
  for (const c of CALLS) {
    let path = `/api/tasks?column=${column}&sort=position&limit=50`;
    if (c.second) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const first = await call(agent, server.baseUrl, 'GET', path, cookie);
      agent.destroy();
      path = `${path}&cursor=${(first.json as Page).data.nextCursor ?? ''}`;
    }
    out.set(c.key, await pageLatency(server.baseUrl, path, cookie, s));
  }
  return out;
}

async function runDatabase(kind: DbKind, opts: BenchOptions): Promise<BenchSection> {
  const s = settings(opts.quick);
  const label = dbLabel(kind);
  const target = await makeTarget(kind, opts, 'columns');
  let server: RunningServer | undefined;
  try {
    migrate(target);
    const seeder = await openSeeder(target);
    const factory = new TaskFactory(17);
    const alice = await benchUser(`columns-alice-${kind}`);
    const bob = await benchUser(`columns-bob-${kind}`);
    const fellows = otherUsers(8, `columns-fellow-${kind}-`);
    await seeder.insertUsers([alice, bob, ...fellows]);
    const boardId = newId();
    await seeder.insertBoard(boardId, 'Workflow board', [alice, bob, ...fellows]);
    const team = [alice, bob, ...fellows];
    await seeder.insertTasks(s.board, (i) => factory.task({ createdBy: team[i % team.length]!.id, assigneeEmail: team[(i * 3 + 1) % team.length]!.email, boardId }));
    const columns = await seeder.spreadOverColumns(boardId, EXTRA_COLUMNS);
    const todo = columns.filter((c) => c.category === 'todo');
    // The page measured: the fullest todo column; the race's target: another todo column; the movers' tasks come from a third.
    const paged = todo.reduce((a, b) => (b.tasks > a.tasks ? b : a));
    const [raceColumn, sourceColumn] = todo.filter((c) => c.id !== paged.id);
    if (raceColumn === undefined || sourceColumn === undefined) throw new Error('too few columns');

    const results = new Map<number, Map<string, Point>>();
    let race: Awaited<ReturnType<typeof moveRace>> | undefined;
    let after: PageTask[] = [];
    let before = 0;
    // --quick measures at the grown table only (one server start per database instead of two).
    for (const grow of opts.quick ? [true] : [false, true]) {
      if (grow) {
        const others = otherUsers(Math.ceil((s.tableSize - s.board) / 100), `columns-other-${kind}-`);
        await seeder.insertUsers(others);
        await seeder.insertTasks(s.tableSize - s.board, othersTasks(factory, others));
      }
      await seeder.analyze();
      const rows = await seeder.countTasks();
      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: `columns-${kind}-${rows}` });
      const cookie = await signIn(server.baseUrl, alice.email, alice.password);
      const points = await pages(server, cookie, paged.id, s);
      opts.log(`columns/${label}: ${int(rows)} rows: ${CALLS.map((c) => `${c.key} ${ms(points.get(c.key)!.p50)}`).join(', ')} ms`);
      results.set(rows, points);
      if (grow) {
        // The race, at the full table: each person moves 10 tasks of their own column's top in turn.
        const cookies = [cookie, await signIn(server.baseUrl, bob.email, bob.password)];
        const agents = cookies.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
        const baseUrl = server.baseUrl;
        const source = await wholeColumn(agents[0]!, baseUrl, cookie, sourceColumn.id);
        const inTarget = await wholeColumn(agents[0]!, baseUrl, cookie, raceColumn.id);
        before = inTarget.length;
        const anchor = inTarget[Math.floor(inTarget.length / 2)];
        if (anchor === undefined || source.length < 20) throw new Error('the race needs a task in its column and 20 to move');
        const mover = (i: number): Mover => async (taskId, columnId, afterId, version): Promise<MoveAnswer> => {
          const res = await call(agents[i]!, baseUrl, 'POST', `/api/tasks/${taskId}/move`, cookies[i]!, { columnId, afterId, version });
          const json = res.json as { code?: string; data?: { task?: PageTask } };
          return { status: res.status, task: json.data?.task, code: json.code };
        };
        race = await moveRace({
          people: [0, 1].map((i) => ({ move: mover(i), tasks: source.slice(i * 10, i * 10 + 10) })),
          columnId: raceColumn.id,
          anchorId: anchor._id,
          perPerson: s.moves / 2,
        });
        after = await wholeColumn(agents[0]!, baseUrl, cookie, raceColumn.id);
        for (const agent of agents) agent.destroy();
        opts.log(`columns/${label}: ${s.moves} moves: ${race.ok} ok, ${race.retried} CONFLICT retried, ${race.failed.length} failed; move p50 ${ms(median(race.times))} ms`);
      }
      await server.stop();
      server = undefined;
    }
    await seeder.close();
    if (race === undefined) throw new Error('unreachable');

    const sizes = [...results.keys()];
    const smallest = sizes[0]!;
    const biggest = sizes.at(-1)!;
    const at = (size: number, key: string) => results.get(size)!.get(key)!;
    const disorder = outOfOrder(after.map((task) => task.position));
    const expected = before + 20;
    const targets: TargetResult[] = [];
    for (const c of CALLS) {
      // Flatness only when two table sizes were measured (not with --quick).
      targets.push(...pageTargets(`${label}: ${c.label}`, PAGE_TARGET_MS, { rows: smallest, p50: at(smallest, c.key).p50 }, { rows: biggest, p50: at(biggest, c.key).p50 }).slice(0, sizes.length > 1 ? 2 : 1));
    }
    targets.push({
      name: `${label}: ${s.moves} moves by two people into one column at once, each answered 200 (a CONFLICT sent again)`,
      target: `${s.moves} × 200`,
      figure: `${race.ok} × 200, ${race.retried} retried, ${race.failed.length} failed${race.failed.length > 0 ? ` (${race.failed.slice(0, 3).map((f) => `${f.status} ${f.code ?? ''}`).join(', ')})` : ''}`,
      met: race.ok === s.moves,
    });
    targets.push({
      name: `${label}: the column after the race: every task once, no two on the same key, one byte-wise order`,
      target: `${expected} tasks, 0 out of order`,
      figure: `${after.length} tasks, ${disorder.length} out of order`,
      met: after.length === expected && disorder.length === 0 && new Set(after.map((t) => t._id)).size === after.length,
    });
    const markdown = [
      `Database: ${label}. A shared board of ${int(s.board)} tasks (10 members) in 10 columns (8 todo, 2 done; each category's tasks dealt out over its columns in turn); ` +
        `the page measured is its fullest column (${int(paged.tasks)} tasks). Each figure: p50 / p99 in ms of single requests one after the other on one keep-alive connection ` +
        `(${s.count} requests or ${s.seconds} s, whichever ends first, after ${s.warmup} warm-up requests). The smallest table holds the board's tasks only; the table then grows ` +
        `with other people's tasks on their personal boards. Load average after: ${loadAverage()}.`,
      '',
      table(
        ['call', ...sizes.map((n) => `${int(n)} rows in table`)],
        CALLS.map((c) => [c.label, ...sizes.map((size) => `${ms(at(size, c.key).p50)} / ${ms(at(size, c.key).p99)}`)]),
      ),
      '',
      `The race, at ${int(biggest)} rows: two people, each on their own keep-alive connection, ${s.moves / 2} moves each at the same time into a column of ${before} tasks ` +
        `(10 tasks each, taken from another column, moved in turn: to the top, then directly below the same task of the column). ` +
        `${race.ok} answered 200, ${race.retried} 409 CONFLICT sent again with the current version, ${race.failed.length} failed; ` +
        `a move took ${ms(median(race.times))} ms (p50, retries included) while the other person's moves ran. Afterwards the column lists ${after.length} tasks, ` +
        `${disorder.length} keys out of byte-wise order or repeated.`,
    ].join('\n');
    return { title: `Columns: a board of ${int(s.board)} tasks in 10 columns, column pages and two people moving into one column, ${label}`, markdown, targets };
  } finally {
    if (server !== undefined) await server.stop();
    await target.drop();
  }
}

export const suite: BenchSuite = {
  name: 'columns',
  async run(opts) {
    const kinds: DbKind[] = opts.postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    const sections: BenchSection[] = [];
    for (const kind of kinds) sections.push(await runDatabase(kind, opts));
    return sections;
  },
};
