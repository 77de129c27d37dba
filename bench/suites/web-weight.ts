/**
 * Web weight: the JS and CSS that /login and /tasks actually load in Chromium (recorded network
 * responses: bytes as served, and their gzip size), and Lighthouse 13 (node API, Debian's
 * Chromium, headless, default mobile settings with simulated throttling) for /login and
 * /sign-up: performance, accessibility and best practices.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { LANGUAGES } from '#shared/languages.ts';
import { BENCH_PASSWORD, benchUser, migrate, openSeeder, otherUsers, sqliteTarget, TaskFactory, visibleTasks } from '../lib/db.ts';
import { chromeArgs, kb, loadAverage, median, table } from '../lib/env.ts';
import { signIn } from '../lib/load.ts';
import { freePort, startTaskwise, type RunningServer } from '../lib/servers.ts';

const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100 } as const;
/**
 * The JavaScript /login loads, compressed as the server sends it (brotli to every browser that
 * accepts it), every script response until the network is idle, in KB. gzip -9 is shown beside it.
 */
const LOGIN_JS_KB = 100;
type Category = keyof typeof TARGETS;
const CATEGORIES = Object.keys(TARGETS) as Category[];

interface Asset {
  path: string;
  type: 'script' | 'stylesheet';
  served: number;
  gzip: number;
  encoding: string;
}

async function recordAssets(browser: Browser, server: RunningServer, path: string, cookie: string | null, locale = 'en-US'): Promise<Asset[]> {
  const context = await browser.newContext({
    locale,
    storageState:
      cookie === null
        ? { cookies: [], origins: [] }
        : {
            cookies: [{ name: cookie.split('=')[0]!, value: cookie.split('=')[1]!, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
            origins: [{ origin: server.baseUrl, localStorage: [{ name: LOGGED_IN_FLAG, value: 'true' }] }],
          },
  });
  try {
    const page = await context.newPage();
    const pending: Promise<Asset | null>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      pending.push(
        (async (): Promise<Asset> => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return {
            path: new URL(response.url()).pathname,
            type,
            served: sizes.responseBodySize,
            gzip: gzipSync(body, { level: 9 }).length,
            encoding: (await response.headerValue('content-encoding')) ?? 'none',
          };
        })().catch(() => null),
      );
    });
    await page.goto(`${server.baseUrl}${path}`, { waitUntil: 'networkidle' });
    const assets = (await Promise.all(pending)).filter((a): a is Asset => a !== null);
    return assets.sort((a, b) => b.gzip - a.gzip);
  } finally {
    await context.close();
  }
}

interface LighthouseRun {
  scores: Record<Category, number>;
  metrics: Record<string, string>;
  /** Audits that cost points: id → title (display value). */
  failing: string[];
}

/**
 * Lighthouse sometimes loses the trace of a page load and answers NO_NAVSTART, asking to be run
 * again; that one error gets a second run (a measurement that failed to record, not a result).
 */
async function runLighthouse(chromePath: string, url: string, desktop: boolean): Promise<LighthouseRun> {
  try {
    return await runLighthouseOnce(chromePath, url, desktop);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes('NO_NAVSTART')) throw error;
    return runLighthouseOnce(chromePath, url, desktop);
  }
}

async function runLighthouseOnce(chromePath: string, url: string, desktop: boolean): Promise<LighthouseRun> {
  const port = await freePort();
  // Lighthouse drives the browser over the DevTools port; Playwright only starts and stops it.
  const browser = await chromium.launch({ executablePath: chromePath, args: [...chromeArgs, `--remote-debugging-port=${port}`], headless: true });
  try {
    const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES };
    const result = await lighthouse(url, flags, desktop ? desktopConfig : undefined);
    if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr: Result = result.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message} (${lhr.runtimeError.code})`);
    const scores = {} as Record<Category, number>;
    const failing: string[] = [];
    for (const category of CATEGORIES) {
      const c = lhr.categories[category];
      scores[category] = Math.round((c?.score ?? 0) * 100);
      for (const ref of c?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (audit === undefined || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
        if (audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'manual' || audit.scoreDisplayMode === 'informative') continue;
        failing.push(`${category}: ${audit.id} (${audit.score.toFixed(2)}${audit.displayValue ? `, ${audit.displayValue}` : ''})`);
      }
    }
    const metric = (id: string) => lhr.audits[id]?.displayValue ?? '–';
    return {
      scores,
      metrics: { FCP: metric('first-contentful-paint'), LCP: metric('largest-contentful-paint'), TBT: metric('total-blocking-time'), CLS: metric('cumulative-layout-shift'), SI: metric('speed-index') },
      failing,
    };
  } finally {
    await browser.close();
  }
}

export const suite: BenchSuite = {
  name: 'web-weight',
  async run(opts: BenchOptions): Promise<BenchSection[]> {
    if (opts.chromePath === undefined) {
      return [{ title: 'Web weight and Lighthouse', markdown: 'Skipped: Chromium was not found (CHROME_PATH or /usr/bin/chromium).', targets: [] }];
    }
    const chromePath = opts.chromePath;
    const runs = opts.quick ? 1 : 3;
    const target = sqliteTarget(opts.tmpDir, 'web-weight');
    let server: RunningServer | undefined;
    let browser: Browser | undefined;
    try {
      migrate(target);
      const seeder = await openSeeder(target);
      const viewer = await benchUser('weight');
      const others = otherUsers(5, 'peer');
      await seeder.insertUsers([viewer, ...others]);
      await seeder.insertTasks(20, visibleTasks(new TaskFactory(3), viewer, others, 20));
      await seeder.close();
      server = await startTaskwise({ databaseUrl: target.url, dir: opts.tmpDir, name: 'web-weight' });
      const cookie = await signIn(server.baseUrl, viewer.email, BENCH_PASSWORD);

      browser = await chromium.launch({ executablePath: chromePath, args: chromeArgs, headless: true });
      const pages = [
        { path: '/login', assets: await recordAssets(browser, server, '/login', null) },
        { path: '/tasks', assets: await recordAssets(browser, server, '/tasks', cookie) },
      ];
      // Signed out, the page speaks the browser's language and downloads its catalog alone.
      const byLanguage: { language: string; js: number }[] = [];
      for (const language of LANGUAGES) {
        const assets = await recordAssets(browser, server, '/login', null, language);
        byLanguage.push({ language, js: assets.filter((a) => a.type === 'script').reduce((n, a) => n + a.served, 0) });
      }
      await browser.close();
      browser = undefined;
      const sum = (assets: Asset[], type: Asset['type'], key: 'served' | 'gzip') => assets.filter((a) => a.type === type).reduce((n, a) => n + a[key], 0);
      for (const p of pages) opts.log(`web-weight: ${p.path}: JS ${kb(sum(p.assets, 'script', 'gzip'))} KB gzip, CSS ${kb(sum(p.assets, 'stylesheet', 'gzip'))} KB gzip`);

      const lighthouseRows: string[][] = [];
      const loginJs = sum(pages[0]!.assets, 'script', 'served');
      const loginGzip = sum(pages[0]!.assets, 'script', 'gzip');
      const targets: TargetResult[] = [
        {
          name: '/login: JS as served (all scripts until the network is idle; gzip -9 in brackets)',
          target: `<= ${LOGIN_JS_KB} KB`,
          figure: `${kb(loginJs)} KB (${kb(loginGzip)} KB)`,
          met: loginJs <= LOGIN_JS_KB * 1024,
        },
      ];
      const heaviest = byLanguage.reduce((max, l) => (l.js > max.js ? l : max));
      targets.push({
        name: `/login: JS as served in each of the ${LANGUAGES.length} languages (the heaviest: ${heaviest.language})`,
        target: `<= ${LOGIN_JS_KB} KB`,
        figure: `${kb(heaviest.js)} KB`,
        met: heaviest.js <= LOGIN_JS_KB * 1024,
      });
      opts.log(`web-weight: /login JS per language: ${byLanguage.map((l) => `${l.language} ${kb(l.js)} KB`).join(', ')}`);
      const notes: string[] = [];
      for (const path of ['/login', '/sign-up']) {
        const results: LighthouseRun[] = [];
        for (let i = 0; i < runs; i++) results.push(await runLighthouse(chromePath, `${server.baseUrl}${path}`, false));
        const desktop = opts.quick ? undefined : await runLighthouse(chromePath, `${server.baseUrl}${path}`, true);
        const med = Object.fromEntries(CATEGORIES.map((c) => [c, median(results.map((r) => r.scores[c]))])) as Record<Category, number>;
        opts.log(`web-weight: Lighthouse ${path}: ${CATEGORIES.map((c) => `${c} ${med[c]}`).join(', ')}`);
        const last = results.at(-1)!;
        lighthouseRows.push([
          path,
          ...CATEGORIES.map((c) => `${med[c]} (${results.map((r) => r.scores[c]).join(', ')})`),
          Object.entries(last.metrics).map(([k, v]) => `${k} ${v}`).join(', '),
          desktop === undefined ? '–' : CATEGORIES.map((c) => desktop.scores[c]).join(' / '),
        ]);
        const failing = [...new Set(results.flatMap((r) => r.failing))];
        if (failing.length > 0) notes.push(`- ${path}: audits below 0.9 in some run: ${failing.join('; ')}`);
        for (const c of CATEGORIES) {
          targets.push({
            name: `Lighthouse ${path}: ${c} (mobile, median of ${runs})`,
            target: `>= ${TARGETS[c]}`,
            figure: String(med[c]),
            met: med[c] >= TARGETS[c],
          });
        }
      }

      const assetTable = (assets: Asset[]) =>
        table(
          ['file', 'type', 'served KB', 'content-encoding', 'gzip -9 KB'],
          [
            ...assets.map((a) => [a.path, a.type === 'script' ? 'JS' : 'CSS', kb(a.served), a.encoding, kb(a.gzip)]),
            ['**total JS**', '', kb(sum(assets, 'script', 'served')), '', `**${kb(sum(assets, 'script', 'gzip'))}**`],
            ['**total CSS**', '', kb(sum(assets, 'stylesheet', 'served')), '', `**${kb(sum(assets, 'stylesheet', 'gzip'))}**`],
          ],
        );
      const markdown = [
        `Recorded network responses of a fresh Chromium context (empty cache) until the network was idle; "served" is the body as it went over the wire. Load average after: ${loadAverage()}.`,
        '',
        ...pages.flatMap((p) => [`**${p.path}**${p.path === '/tasks' ? ' (signed in, 20 tasks)' : ' (signed out)'}`, '', assetTable(p.assets), '']),
        '**/login in each language** (the browser asks for it; JS as served)',
        '',
        table(['language', 'JS KB'], byLanguage.map((l) => [l.language, kb(l.js)])),
        '',
        `**Lighthouse 13** (${runs} run${runs === 1 ? '' : 's'} each with the default mobile settings: simulated slow 4G and 4× CPU slow-down; median, all runs in brackets; desktop preset once for comparison)`,
        '',
        table(['page', ...CATEGORIES.map((c) => `${c} (mobile)`), 'metrics (last mobile run)', 'desktop perf / a11y / best practices'], lighthouseRows),
        '',
        ...(notes.length > 0 ? ['Audits that cost points:', '', ...notes] : ['No audit scored below 0.9.']),
      ].join('\n');
      return [{ title: 'Web weight and Lighthouse', markdown, targets }];
    } finally {
      if (browser !== undefined) await browser.close();
      if (server !== undefined) await server.stop();
      await target.drop();
    }
  },
};
