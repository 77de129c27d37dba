/**
 * The table view in Chromium (Debian's, through Playwright): a shared board of 5,000 tasks, each
 * with three labels and a checklist, opened at `?view=table` at 1280 × 800. Measured in the page:
 *
 * - shown: from navigation start until the table says it holds every task (`aria-rowcount`)
 *   and its first row is drawn;
 * - once a second has passed with no long task (what the load does after the first row is
 *   drawn is reported apart), two scrolls, one step a frame: a fling (300 px a frame, 120
 *   frames) and a jump (to the bottom in 60 frames, back in 20: every frame all new rows); the
 *   longest main-thread task (PerformanceObserver, `longtask`) during each, and how many rows
 *   were in the page at most (only those in view are rendered).
 *
 * `--quick`: 1,000 tasks and one run; never fails on a number.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchUser, migrate, newId, openSeeder, otherUsers, sqliteTarget, TaskFactory } from '../lib/db.ts';
import { chromeArgs, int, loadAverage, median, ms, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';

const TARGETS = { longTaskMs: 50, firstScreenMs: 1_000 };

const settings = (quick: boolean) => (quick ? { board: 1_000, runs: 1 } : { board: 5_000, runs: 3 });

/** In the page from its start: every long task's start and duration. */
export const LONG_TASKS = String.raw`
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });
`;

/**
 * In the page: performance.now() at the first frame in which the table draws its first row
 * (`n` undefined: whatever it holds so far, its first screen) or holds `n` rows and draws the first.
 */
const shownScript = (n?: number) => String.raw`new Promise((resolve, reject) => {
  const limit = performance.now() + 60000;
  const tick = () => {
    const grid = document.querySelector('table[aria-label="Tasks"]');
    if (grid && (${n === undefined ? 'true' : `grid.getAttribute('aria-rowcount') === '${String(n + 1)}'`}) && grid.querySelector('tbody tr[aria-rowindex="2"]')) resolve(performance.now());
    else if (performance.now() > limit) reject(new Error('the table never showed'));
    else requestAnimationFrame(tick);
  };
  tick();
})`;

/**
 * In the page: scrolls the table by the given steps, one per frame (`fling`: 300 px a frame, a
 * fast wheel or flick; `jump`: the bottom in 60 frames and the top in 20, every frame all new
 * rows); the longest task meanwhile, and the most rows in the page.
 */
const scrollScript = (kind: 'fling' | 'jump') => String.raw`new Promise((resolve) => {
  const box = document.querySelector('.table-view__scroll');
  box.scrollTop = 0;
  requestAnimationFrame(() => {
    const start = performance.now();
    window.__longTasks = [];
    const steps = [];
    const bottom = box.scrollHeight - box.clientHeight;
    if ('${kind}' === 'fling') for (let i = 1; i <= 120; i++) steps.push(Math.min(bottom, 300 * i));
    else {
      for (let i = 1; i <= 60; i++) steps.push((bottom * i) / 60);
      for (let i = 19; i >= 0; i--) steps.push((bottom * i) / 20);
    }
    let most = 0;
    const tick = () => {
      most = Math.max(most, box.querySelectorAll('tbody tr[aria-rowindex]').length);
      const next = steps.shift();
      if (next === undefined) {
        // One more frame, so the last scroll's work is done and observed.
        requestAnimationFrame(() => {
          const during = window.__longTasks.filter((t) => t.start + t.duration >= start);
          resolve({ ms: performance.now() - start, longest: Math.max(0, ...during.map((t) => t.duration)), count: during.length, rows: most });
        });
        return;
      }
      box.scrollTop = next;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
})`;

interface Scroll {
  ms: number;
  longest: number;
  count: number;
  rows: number;
}

export async function newContext(browser: Browser, server: RunningServer, cookie: string): Promise<BrowserContext> {
  const [name, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    storageState: {
      cookies: [{ name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
      origins: [{ origin: server.baseUrl, localStorage: [{ name: LOGGED_IN_FLAG, value: 'true' }] }],
    },
  });
  await context.addInitScript({ content: LONG_TASKS });
  return context;
}

/** In the page: waits until a second has passed with no long task (the load's own work done); the longest task meanwhile. */
export const SETTLE = String.raw`new Promise((resolve) => {
  const start = performance.now();
  const tick = () => {
    const now = performance.now();
    const last = window.__longTasks.reduce((end, t) => Math.max(end, t.start + t.duration), 0);
    if (now - Math.max(last, start) >= 1000 || now - start > 20000) {
      const after = window.__longTasks.filter((t) => t.start + t.duration >= start);
      resolve(Math.max(0, ...after.map((t) => t.duration)));
    } else setTimeout(tick, 100);
  };
  tick();
})`;

interface Run {
  first: number;
  shown: number;
  settle: number;
  fling: Scroll;
  jump: Scroll;
}

async function run(page: Page, url: string, n: number): Promise<Run> {
  await page.goto(url, { waitUntil: 'commit' });
  const first = await page.evaluate<number>(shownScript());
  const shown = await page.evaluate<number>(shownScript(n));
  const settle = await page.evaluate<number>(SETTLE);
  const fling = await page.evaluate<Scroll>(scrollScript('fling'));
  const jump = await page.evaluate<Scroll>(scrollScript('jump'));
  return { first, shown, settle, fling, jump };
}

export const suite: BenchSuite = {
  name: 'browser-table',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    if (opts.chromePath === undefined) {
      return [{ title: 'The table view in Chromium', markdown: 'Skipped: Chromium was not found (CHROME_PATH or /usr/bin/chromium).', targets: [] }];
    }
    const s = settings(opts.quick);
    const target = sqliteTarget(opts.tmpDir, 'browser-table');
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    try {
      migrate(target);
      const seeder = await openSeeder(target);
      const lead = await benchUser('browser-table');
      const team = [lead, ...otherUsers(4, 'browser-table-fellow-')];
      await seeder.insertUsers(team);
      const boardId = newId();
      await seeder.insertBoard(boardId, 'Table board', team);
      const factory = new TaskFactory(29);
      await seeder.insertTasks(s.board, (i) => factory.task({ createdBy: team[i % team.length]!.id, assigneeEmail: team[(i * 3 + 1) % team.length]!.email, boardId }));
      await seeder.addTaskDetails([boardId], { labels: 3, checklist: { done: 2, total: 5 } });
      await seeder.close();

      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: 'browser-table' });
      const cookie = await signIn(server.baseUrl, lead.email, lead.password);
      browser = await chromium.launch({ executablePath: opts.chromePath, args: chromeArgs, headless: true });
      const url = `${server.baseUrl}/boards/${boardId}?view=table`;

      const runs: Run[] = [];
      for (let i = 0; i < s.runs; i++) {
        const context = await newContext(browser, server, cookie);
        runs.push(await run(await context.newPage(), url, s.board));
        await context.close();
      }
      opts.log(`browser-table: first screen ${runs.map((r) => ms(r.first)).join(', ')} ms; shown ${runs.map((r) => ms(r.shown)).join(', ')} ms; longest task: fling ${runs.map((r) => ms(r.fling.longest)).join(', ')} ms, jump ${runs.map((r) => ms(r.jump.longest)).join(', ')} ms`);

      const longest = (kind: 'fling' | 'jump') => Math.max(...runs.map((r) => r[kind].longest));
      const figure = (value: number) => (value === 0 ? 'no task over 50 ms' : `${ms(value)} ms`);
      const firstScreen = median(runs.map((r) => r.first));
      const targets: TargetResult[] = [
        {
          name: `Chromium: the table view of ${int(s.board)} tasks, navigation start → its first screen of rows drawn (median of ${String(s.runs)})`,
          target: `<= ${int(TARGETS.firstScreenMs)} ms`,
          figure: `${ms(firstScreen)} ms`,
          met: firstScreen <= TARGETS.firstScreenMs,
        },
        {
          name: `Chromium: the table view of ${int(s.board)} tasks scrolled 300 px a frame for 120 frames: the longest main-thread task (worst of ${s.runs})`,
          target: `<= ${TARGETS.longTaskMs} ms`,
          figure: figure(longest('fling')),
          met: longest('fling') <= TARGETS.longTaskMs,
        },
        {
          name: `Chromium: the same table jumped to the bottom in 60 frames and back in 20 (every frame all new rows): the longest main-thread task (worst of ${s.runs})`,
          target: `<= ${TARGETS.longTaskMs} ms`,
          figure: figure(longest('jump')),
          met: longest('jump') <= TARGETS.longTaskMs,
        },
      ];
      const markdown = [
        `A shared board of ${int(s.board)} tasks (5 members), each with three labels and a checklist, SQLite, \`?view=table\` at 1280 × 800 in headless Chromium ` +
          `(a cold context per run). Load average after: ${loadAverage()}.`,
        '',
        table(
          ['measure', 'figure'],
          [
            ['first screen (navigation start → the first page of rows drawn; the rest still coming)', `${runs.map((r) => ms(r.first)).join(', ')} ms (median ${ms(firstScreen)} ms)`],
            ['shown (navigation start → the table holds every task and draws its first row)', `${runs.map((r) => ms(r.shown)).join(', ')} ms (median ${ms(median(runs.map((r) => r.shown)))} ms)`],
            ['the longest main-thread task after it shows, until a second passes with none (the load finishing)', `${runs.map((r) => ms(r.settle)).join(', ')} ms`],
            ['fling: 120 frames of 300 px (time; longest task, and tasks over 50 ms)', runs.map((r) => `${ms(r.fling.ms)} ms; ${ms(r.fling.longest)} ms (${r.fling.count})`).join(', ')],
            ['jump: the bottom in 60 frames, the top in 20 (time; longest task, and tasks over 50 ms)', runs.map((r) => `${ms(r.jump.ms)} ms; ${ms(r.jump.longest)} ms (${r.jump.count})`).join(', ')],
            ['the most rows in the page at once', runs.map((r) => String(Math.max(r.fling.rows, r.jump.rows))).join(', ')],
          ],
        ),
      ].join('\n');
      return [{ title: `The table view of ${int(s.board)} tasks in Chromium: shown, and scrolled`, markdown, targets }];
    } finally {
      if (browser !== undefined) await browser.close();
      if (server !== undefined) await server.stop();
      await target.drop();
    }
  },
};
