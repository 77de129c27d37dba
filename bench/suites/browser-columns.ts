/**
 * A workflow board in Chromium (Debian's, through Playwright): a shared board of 5,000 tasks in
 * 10 columns, each card with three labels and a checklist, at 1280 × 800. Measured in the page:
 *
 * - interactive: from navigation start until, in one frame, every column in view shows its count
 *   and (when it holds tasks) its first card, and "Create Task" is enabled;
 * - a drag across the board: the first card of the first column dragged with the mouse (down,
 *   30 small moves over every column in view, up) onto the last column in view; the longest
 *   main-thread task (PerformanceObserver, `longtask`) from the press until the card shows in
 *   its new column, and how long that took.
 *
 * `--quick`: 1,000 tasks and one load; never fails on a number.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchUser, migrate, newId, openSeeder, otherUsers, sqliteTarget, TaskFactory } from '../lib/db.ts';
import { chromeArgs, int, loadAverage, median, ms, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';
import { EXTRA_COLUMNS } from './columns.ts';

const TARGETS = { interactiveMs: 1000, longTaskMs: 50 };

const settings = (quick: boolean) => (quick ? { board: 1_000, loads: 1, drags: 1 } : { board: 5_000, loads: 5, drags: 3 });

/** In the page from its start: every long task's start and duration. */
const LONG_TASKS = String.raw`
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: 'longtask', buffered: true });
`;

/** In the page: resolves with performance.now() at the first frame in which the board is usable (see above). */
const INTERACTIVE = String.raw`new Promise((resolve, reject) => {
  const limit = performance.now() + 30000;
  const inView = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.left < window.innerWidth && r.right > 0 && r.top < window.innerHeight && r.bottom > 0;
  };
  const ready = () => {
    const sections = [...document.querySelectorAll('section.column')].filter(inView);
    if (sections.length === 0) return false;
    for (const section of sections) {
      const header = section.querySelector('header');
      const match = /(\d[\d,.\u202f\u00a0]*)/.exec(header ? header.textContent || '' : '');
      if (!match) return false;
      if (Number(match[1].replace(/[^\d]/g, '')) > 0 && !section.querySelector('[role="feed"] article')) return false;
    }
    const create = [...document.querySelectorAll('button')].find((b) => (b.textContent || '').trim() === 'Create Task');
    return !!create && !create.disabled;
  };
  const tick = () => {
    if (ready()) resolve(performance.now());
    else if (performance.now() > limit) reject(new Error('the board never became interactive'));
    else requestAnimationFrame(tick);
  };
  tick();
})`;

async function newContext(browser: Browser, server: RunningServer, cookie: string): Promise<BrowserContext> {
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

async function load(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate<number>(INTERACTIVE);
}

interface Drag {
  /** Press → the card shown in its new column, ms. */
  dropMs: number;
  /** The longest main-thread task in that time, ms (0: none over 50 ms). */
  longestTask: number;
  longTasks: number;
}

/** Drags the first card of the first column onto the last column in view (see above). */
async function dragAcross(page: Page): Promise<Drag> {
  const columns = page.locator('section.column');
  const count = await columns.count();
  let last = 0;
  for (let i = 0; i < count; i++) {
    const box = await columns.nth(i).boundingBox();
    if (box !== null && box.x + box.width <= 1280) last = i;
  }
  const card = columns.first().locator('[role="feed"] article').first();
  const id = await card.getAttribute('data-task-id');
  const from = await card.boundingBox();
  const to = await columns.nth(last).boundingBox();
  if (id === null || from === null || to === null || last === 0) throw new Error('no card or no second column in view');
  const start = await page.evaluate<number>('(window.__longTasks = [], performance.now())');
  await page.mouse.move(from.x + from.width / 2, from.y + 20);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + 30, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + 200, { steps: 30 });
  await page.mouse.up();
  const shown = await page.evaluate<number>(`new Promise((resolve) => {
    const tick = () => {
      const column = document.querySelectorAll('section.column')[${last}];
      if (column && column.querySelector('[data-task-id="${id}"]')) resolve(performance.now());
      else requestAnimationFrame(tick);
    };
    tick();
  })`);
  const tasks = await page.evaluate<{ start: number; duration: number }[]>('window.__longTasks');
  const during = tasks.filter((t) => t.start + t.duration >= start && t.start <= shown);
  return { dropMs: shown - start, longestTask: Math.max(0, ...during.map((t) => t.duration)), longTasks: during.length };
}

export const suite: BenchSuite = {
  name: 'browser-columns',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    if (opts.chromePath === undefined) {
      return [{ title: 'A workflow board in Chromium', markdown: 'Skipped: Chromium was not found (CHROME_PATH or /usr/bin/chromium).', targets: [] }];
    }
    const s = settings(opts.quick);
    const target = sqliteTarget(opts.tmpDir, 'browser-columns');
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    try {
      migrate(target);
      const seeder = await openSeeder(target);
      const lead = await benchUser('browser-columns');
      const team = [lead, ...otherUsers(4, 'browser-columns-fellow-')];
      await seeder.insertUsers(team);
      const boardId = newId();
      await seeder.insertBoard(boardId, 'Workflow board', team);
      const factory = new TaskFactory(23);
      await seeder.insertTasks(s.board, (i) => factory.task({ createdBy: team[i % team.length]!.id, assigneeEmail: team[(i * 3 + 1) % team.length]!.email, boardId }));
      const columns = await seeder.spreadOverColumns(boardId, EXTRA_COLUMNS);
      await seeder.addTaskDetails([boardId], { labels: 3, checklist: { done: 2, total: 5 } });
      await seeder.close();

      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: 'browser-columns' });
      const cookie = await signIn(server.baseUrl, lead.email, lead.password);
      browser = await chromium.launch({ executablePath: opts.chromePath, args: chromeArgs, headless: true });
      const url = `${server.baseUrl}/boards/${boardId}`;

      const loads: number[] = [];
      for (let i = 0; i < s.loads; i++) {
        const context = await newContext(browser, server, cookie);
        loads.push(await load(await context.newPage(), url));
        await context.close();
      }
      const drags: Drag[] = [];
      for (let i = 0; i < s.drags; i++) {
        const context = await newContext(browser, server, cookie);
        const page = await context.newPage();
        await load(page, url);
        drags.push(await dragAcross(page));
        await context.close();
      }
      opts.log(`browser-columns: interactive ${loads.map(ms).join(', ')} ms; drags ${drags.map((d) => `${ms(d.dropMs)} ms (longest task ${ms(d.longestTask)})`).join(', ')}`);

      const interactive = median(loads);
      const longest = Math.max(...drags.map((d) => d.longestTask));
      const targets: TargetResult[] = [
        {
          name: `Chromium: a workflow board of ${int(s.board)} tasks in 10 columns interactive (median of ${s.loads} cold loads)`,
          target: `<= ${TARGETS.interactiveMs} ms`,
          figure: `${ms(interactive)} ms (worst ${ms(Math.max(...loads))} ms)`,
          met: interactive <= TARGETS.interactiveMs,
        },
        {
          name: `Chromium: a card dragged across that board: the longest main-thread task from the press until it shows in its new column (worst of ${s.drags})`,
          target: `<= ${TARGETS.longTaskMs} ms`,
          figure: longest === 0 ? 'no task over 50 ms' : `${ms(longest)} ms`,
          met: longest <= TARGETS.longTaskMs,
        },
      ];
      const markdown = [
        `A shared board of ${int(s.board)} tasks (5 members) in 10 columns (${columns.map((c) => c.tasks).join(', ')} tasks), each card with three labels and a checklist, ` +
          `SQLite, at 1280 × 800 in headless Chromium (a cold context per load). Load average after: ${loadAverage()}.`,
        '',
        table(
          ['measure', 'figure'],
          [
            ['interactive (navigation start → every column in view shows its count and first card, "Create Task" enabled)', `${loads.map(ms).join(', ')} ms`],
            ['a drag from the first column onto the last one in view: press → card shown there', `${drags.map((d) => ms(d.dropMs)).join(', ')} ms`],
            ['the longest main-thread task during that drag (tasks over 50 ms)', drags.map((d) => `${ms(d.longestTask)} ms (${d.longTasks})`).join(', ')],
          ],
        ),
      ].join('\n');
      return [{ title: `A workflow board of ${int(s.board)} tasks in Chromium: interactive, and a drag across it`, markdown, targets }];
    } finally {
      if (browser !== undefined) await browser.close();
      if (server !== undefined) await server.stop();
      await target.drop();
    }
  },
};
