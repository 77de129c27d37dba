/**
 * The calendar view in Chromium (Debian's, through Playwright): a shared board whose 2,000
 * tasks are all due this month, each with three labels and a checklist, opened at
 * `?view=calendar` (a month) at 1280 × 800. Measured in the page:
 *
 * - shown: from navigation start until the month's grid holds every task (a day with more than
 *   four shows three chips and "N more");
 * - render: with every task read, "Next" (an empty month) and then "Previous": from the click on
 *   "Previous" to the frame after the grid holds every task again — drawing the month, without
 *   the network — and the longest main-thread task meanwhile.
 *
 * `--quick`: 500 tasks and one run; never fails on a number.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { benchUser, migrate, newId, openSeeder, otherUsers, sqliteTarget, TaskFactory } from '../lib/db.ts';
import { chromeArgs, int, loadAverage, median, ms, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { startTaskwise, type RunningServer } from '../lib/servers.ts';
import { newContext, SETTLE } from './browser-table.ts';

const TARGETS = { renderMs: 300 };

const settings = (quick: boolean) => (quick ? { tasks: 500, runs: 1 } : { tasks: 2_000, runs: 3 });

/**
 * The tasks the days of the month shown hold (not the days of the months before and after that
 * fill its weeks): their chips, and those behind a day's "N more".
 */
const CHIPS = String.raw`(() => {
  const days = '.calendar__grid .calendar__day:not(.calendar__day--outside)';
  let n = document.querySelectorAll(days + ' .calendar-chip').length;
  for (const more of document.querySelectorAll(days + ' .calendar__more')) n += Number(more.dataset.more);
  return n;
})()`;

/** In the page: performance.now() at the first frame whose month holds `n` tasks. */
const shownScript = (n: number) => String.raw`new Promise((resolve, reject) => {
  const limit = performance.now() + 60000;
  const tick = () => {
    if (${CHIPS} === ${String(n)}) resolve(performance.now());
    else if (performance.now() > limit) reject(new Error('the month never held every task'));
    else requestAnimationFrame(tick);
  };
  tick();
})`;

/**
 * In the page: "Next" (to an empty month), two frames, then "Previous": the time from that click
 * to the frame after the month holds `n` tasks again, and the longest task meanwhile.
 */
const renderScript = (n: number) => String.raw`new Promise((resolve, reject) => {
  const buttons = [...document.querySelectorAll('.calendar__steps button')];
  const previous = buttons[0];
  const next = buttons[buttons.length - 1];
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  (async () => {
    next.click();
    await frame();
    await frame();
    if (${CHIPS} !== 0) throw new Error('the next month is not empty');
    window.__longTasks = [];
    const start = performance.now();
    previous.click();
    const limit = start + 30000;
    while (${CHIPS} !== ${String(n)}) {
      if (performance.now() > limit) throw new Error('the month never came back');
      await frame();
    }
    await frame();
    const ms = performance.now() - start;
    resolve({ ms, longest: Math.max(0, ...window.__longTasks.map((t) => t.duration)) });
  })().catch(reject);
})`;

interface Run {
  shown: number;
  renders: { ms: number; longest: number }[];
}

async function run(page: Page, url: string, n: number): Promise<Run> {
  await page.goto(url, { waitUntil: 'commit' });
  const shown = await page.evaluate<number>(shownScript(n));
  // The load's own work finished (a second with no long task) before the month is drawn again.
  await page.evaluate<number>(SETTLE);
  const renders = [];
  for (let i = 0; i < 3; i++) renders.push(await page.evaluate<{ ms: number; longest: number }>(renderScript(n)));
  return { shown, renders };
}

export const suite: BenchSuite = {
  name: 'browser-calendar',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    if (opts.chromePath === undefined) {
      return [{ title: 'The calendar view in Chromium', markdown: 'Skipped: Chromium was not found (CHROME_PATH or /usr/bin/chromium).', targets: [] }];
    }
    const s = settings(opts.quick);
    const target = sqliteTarget(opts.tmpDir, 'browser-calendar');
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    try {
      migrate(target);
      const seeder = await openSeeder(target);
      const lead = await benchUser('browser-calendar');
      const team = [lead, ...otherUsers(4, 'browser-calendar-fellow-')];
      await seeder.insertUsers(team);
      const boardId = newId();
      await seeder.insertBoard(boardId, 'Calendar board', team);
      // Every task due this month (UTC, the browser's zone here): spread over its days and hours.
      const now = new Date();
      const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
      const dueOn = (i: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1 + (i % days), 8 + (i % 10), (i * 7) % 60)).toISOString();
      const factory = new TaskFactory(31);
      await seeder.insertTasks(s.tasks, (i) => ({ ...factory.task({ createdBy: team[i % team.length]!.id, assigneeEmail: team[(i * 3 + 1) % team.length]!.email, boardId }), deadline: dueOn(i) }));
      await seeder.addTaskDetails([boardId], { labels: 3, checklist: { done: 2, total: 5 } });
      await seeder.close();

      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: 'browser-calendar' });
      const cookie = await signIn(server.baseUrl, lead.email, lead.password);
      browser = await chromium.launch({ executablePath: opts.chromePath, args: chromeArgs, headless: true });
      const url = `${server.baseUrl}/boards/${boardId}?view=calendar`;

      const runs: Run[] = [];
      for (let i = 0; i < s.runs; i++) {
        const context = await newContext(browser, server, cookie);
        runs.push(await run(await context.newPage(), url, s.tasks));
        await context.close();
      }
      const renders = runs.flatMap((r) => r.renders);
      const renderMedian = median(renders.map((r) => r.ms));
      opts.log(`browser-calendar: shown ${runs.map((r) => ms(r.shown)).join(', ')} ms; render ${renders.map((r) => ms(r.ms)).join(', ')} ms`);

      const targets: TargetResult[] = [
        {
          name: `Chromium: the calendar draws a month of ${int(s.tasks)} tasks, every task read (median of ${String(renders.length)})`,
          target: `<= ${String(TARGETS.renderMs)} ms`,
          figure: `${ms(renderMedian)} ms`,
          met: renderMedian <= TARGETS.renderMs,
        },
      ];
      const markdown = [
        `A shared board of ${int(s.tasks)} tasks (5 members) all due this month, each with three labels and a checklist, SQLite, ` +
          `\`?view=calendar\` (a month) at 1280 × 800 in headless Chromium (a cold context per run). Load average after: ${loadAverage()}.`,
        '',
        table(
          ['measure', 'figure'],
          [
            ['shown (navigation start → the month holds every task)', `${runs.map((r) => ms(r.shown)).join(', ')} ms (median ${ms(median(runs.map((r) => r.shown)))} ms)`],
            ['render ("Previous" back from an empty month → the frame after the month holds every task)', `${renders.map((r) => ms(r.ms)).join(', ')} ms (median ${ms(renderMedian)} ms)`],
            ['the longest main-thread task during each render', `${renders.map((r) => ms(r.longest)).join(', ')} ms`],
          ],
        ),
      ].join('\n');
      return [{ title: `The calendar view of a month of ${int(s.tasks)} tasks in Chromium: shown, and drawn again`, markdown, targets }];
    } finally {
      if (browser !== undefined) await browser.close();
      if (server !== undefined) await server.stop();
      await target.drop();
    }
  },
};
