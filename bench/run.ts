/**
 * `npm run bench` (full run, writes bench/RESULTS.md) and `npm run bench -- --quick` (a few
 * seconds per case, writes bench/.tmp/RESULTS.quick.md; proves the benchmarks still run and
 * never fails on a number).
 *
 * Builds the web app when dist/web is missing or was built from other sources, then runs every
 * `bench/suites/*.ts` in file-name order (each exports `suite: BenchSuite`, see suite.ts).
 * PostgreSQL cases run when TEST_DATABASE_URL is set; browser cases when Chromium is found
 * (CHROME_PATH or /usr/bin/chromium). Exit code: 1 when a suite could not run, else 0 —
 * targets that are not met are marked in the results, not turned into a failure.
 *
 * Options: --quick; --only=name[,name] runs only the suites whose file names start so and
 * rewrites only their blocks of the results file (other suites' figures stay, see
 * lib/results-file.ts); --keep
 * keeps the scratch directory (databases, server logs) in bench/.tmp/run-<pid>/.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ensureWebBuild } from '../scripts/lib/web-build.ts';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from './suite.ts';
import { benchRoot, commandLine, cpuCount, cpuModel, gitRevision, loadAverage, repoRoot, table } from './lib/env.ts';
import { killAllServersNow, stopAllServers } from './lib/servers.ts';
import { renderResults, suiteBody } from './lib/results-file.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const keep = args.includes('--keep');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',').filter((s) => s !== '');
const unknown = args.filter((a) => a !== '--quick' && a !== '--keep' && !a.startsWith('--only='));
if (unknown.length > 0) {
  console.error(`Unknown option(s): ${unknown.join(' ')}. Usage: node bench/run.ts [--quick] [--only=suite[,suite]] [--keep]`);
  process.exit(2);
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const startedAt = new Date();
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// ---------------------------------------------------------------------------------------------
// The web app build: the same freshness check as `npm start` (scripts/lib/web-build.ts)

function webBuild(): string {
  const state = ensureWebBuild((found) => {
    say(found === 'missing' ? '[bench] dist/web is missing: building the web app…' : '[bench] dist/web was built from other sources: rebuilding…');
  });
  return state === 'fresh' ? 'dist/web is up to date' : 'dist/web was (re)built for this run';
}

// ---------------------------------------------------------------------------------------------
// Suites

interface SuiteRun {
  file: string;
  name: string;
  sections: BenchSection[];
  error: string | null;
  seconds: number;
  loadBefore: string;
  loadAfter: string;
}

function suiteFiles(): string[] {
  return readdirSync(join(benchRoot, 'suites'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
}

async function loadSuites(): Promise<{ file: string; suite: BenchSuite }[]> {
  const dir = join(benchRoot, 'suites');
  const files = suiteFiles().filter((f) => only === undefined || only.some((o) => f.startsWith(o)));
  const suites: { file: string; suite: BenchSuite }[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as { suite?: BenchSuite };
    if (module.suite === undefined || typeof module.suite.run !== 'function') throw new Error(`bench/suites/${file} does not export \`suite: BenchSuite\``);
    suites.push({ file, suite: module.suite });
  }
  return suites;
}

async function postgresVersion(url: string | undefined): Promise<string> {
  if (url === undefined) return 'not used (TEST_DATABASE_URL unset)';
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>("select current_setting('server_version') as v");
    return `PostgreSQL ${rows[0]?.v ?? '?'}`;
  } catch (error) {
    return `unreachable (${String(error)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------

const tmpDir = join(benchRoot, '.tmp', `run-${process.pid}`);
let interrupted = false;
process.on('exit', killAllServersNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    say(`\n[bench] ${signal}: stopping the servers this run started…`);
    void stopAllServers().finally(() => {
      rmSync(tmpDir, { recursive: true, force: true });
      process.exit(130);
    });
  });
}

async function main(): Promise<number> {
  mkdirSync(tmpDir, { recursive: true });
  const chromeCandidate = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const chromePath = existsSync(chromeCandidate) ? chromeCandidate : undefined;
  const rawPostgresUrl = process.env.TEST_DATABASE_URL;
  const postgresUrl = rawPostgresUrl === undefined || rawPostgresUrl === '' ? undefined : rawPostgresUrl;
  const loadStart = loadAverage();
  say(`[bench] ${quick ? 'quick' : 'full'} run; load average ${loadStart}; PostgreSQL: ${postgresUrl === undefined ? 'skipped (TEST_DATABASE_URL unset)' : 'yes'}; Chromium: ${chromePath ?? 'not found, browser cases skipped'}`);
  const buildNote = webBuild();
  const suites = await loadSuites();
  const opts: BenchOptions = {
    quick,
    postgresUrl,
    chromePath,
    tmpDir,
    log: (line) => {
      say(`[bench ${elapsed()}] ${line}`);
    },
  };

  const runs: SuiteRun[] = [];
  for (const { file, suite } of suites) {
    const loadBefore = loadAverage();
    const t0 = performance.now();
    say(`[bench ${elapsed()}] ▶ ${suite.name} (bench/suites/${file})`);
    let sections: BenchSection[] = [];
    let error: string | null = null;
    try {
      sections = await suite.run(opts);
    } catch (e) {
      error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      say(`[bench] ✖ ${suite.name} could not run:\n${error}`);
    } finally {
      await stopAllServers();
    }
    const seconds = (performance.now() - t0) / 1000;
    runs.push({ file, name: suite.name, sections, error, seconds, loadBefore, loadAfter: loadAverage() });
    say(`[bench ${elapsed()}] ■ ${suite.name}: ${error === null ? 'done' : 'FAILED'} in ${seconds.toFixed(0)} s`);
  }

  const targets: TargetResult[] = runs.flatMap((r) => r.sections.flatMap((s) => s.targets ?? []));
  const chromium = chromePath === undefined ? 'not found' : (commandLine(chromePath, ['--version']) ?? chromePath);
  const flags = [...(quick ? ['--quick'] : []), ...(only === undefined ? [] : [`--only=${only.join(',')}`])];
  const pgPrefix = postgresUrl === undefined ? '' : 'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test ';
  const command = `${pgPrefix}npm run bench${flags.length > 0 ? ` -- ${flags.join(' ')}` : ''}`;
  const commit = gitRevision();
  const header = table(
    ['latest run', ''],
    [
      ['date', startedAt.toISOString()],
      ['reproduce', `\`${command}\``],
      ['commit', commit],
      ['CPU', `${cpuModel()} × ${cpuCount()} (shared with other work: see the load averages)`],
      ['Node.js', process.version],
      ['Chromium', chromium.replace(/\s+/g, ' ')],
      ['PostgreSQL', await postgresVersion(postgresUrl)],
      ['load average (1 / 5 / 15 min)', `${loadStart} at the start, ${loadAverage()} at the end`],
      ['web build', buildNote],
      ['total time', elapsed()],
    ],
  );
  const fresh = runs.map((r) => {
    const record = {
      key: r.file.replace(/\.ts$/, ''),
      name: r.name,
      file: `bench/suites/${r.file}`,
      date: startedAt.toISOString(),
      commit,
      command: `${pgPrefix}npm run bench -- ${quick ? '--quick ' : ''}--only=${r.file.replace(/\.ts$/, '')}`,
      seconds: r.seconds,
      loadBefore: r.loadBefore,
      loadAfter: r.loadAfter,
      error: r.error,
      targets: r.sections.flatMap((s) => s.targets ?? []),
    };
    return { record, body: suiteBody(record, r.sections) };
  });
  const out = quick ? join(benchRoot, '.tmp', 'RESULTS.quick.md') : join(benchRoot, 'RESULTS.md');
  mkdirSync(join(benchRoot, '.tmp'), { recursive: true });
  const text = renderResults({
    title: `# Taskwise benchmark results${quick ? ' (quick run: proves the benchmarks run; the numbers are not meant to be read)' : ''}`,
    header,
    previous: existsSync(out) ? readFileSync(out, 'utf8') : '',
    fresh,
    existingKeys: suiteFiles().map((f) => f.replace(/\.ts$/, '')),
  });
  writeFileSync(out, text);

  const failed = runs.filter((r) => r.error !== null);
  const unmet = targets.filter((t) => t.met === false);
  say(`\n[bench] wrote ${relative(repoRoot, out)} in ${elapsed()}`);
  for (const t of unmet) say(`[bench] target not met: ${t.name}: ${t.figure} (wanted ${t.target})`);
  if (failed.length > 0) say(`[bench] ${failed.length} suite(s) could not run: ${failed.map((r) => r.name).join(', ')}`);
  return failed.length > 0 ? 1 : 0;
}

let code: number;
try {
  code = await main();
} catch (error) {
  say(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  code = 1;
} finally {
  await stopAllServers();
  if (keep) say(`[bench] kept ${relative(repoRoot, tmpDir)}`);
  else rmSync(tmpDir, { recursive: true, force: true });
}
process.exit(code);
