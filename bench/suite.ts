/**
 * The contract between `bench/run.ts` and each benchmark suite in `bench/suites/*.ts`.
 * A suite module exports `suite: BenchSuite`; the runner calls every suite in file-name order,
 * passes the options, and writes the returned Markdown sections into bench/RESULTS.md (full run)
 * or bench/.tmp/RESULTS.quick.md (`--quick`, which only proves the benchmarks still run).
 */
export interface BenchOptions {
  /** A few seconds per case; never fail on a number. */
  quick: boolean;
  /** PostgreSQL URL when one is available (TEST_DATABASE_URL), else undefined: skip PG cases. */
  postgresUrl: string | undefined;
  /** Chromium executable, or undefined when none is installed: skip browser cases. */
  chromePath: string | undefined;
  /** Scratch directory for databases and logs, created and removed by the runner. */
  tmpDir: string;
  log: (line: string) => void;
}

export interface BenchSection {
  /** Markdown heading text (level 2 is added by the runner). */
  title: string;
  /** Markdown body: tables and short notes. */
  markdown: string;
  /** Optional: targets this section checks; the runner lists them all in one summary table. */
  targets?: TargetResult[];
}

/** One target of the performance issue, checked against a measured figure. */
export interface TargetResult {
  /** What is measured, e.g. "GET /api/tasks, 10 connections, SQLite: Taskwise/baseline". */
  name: string;
  /** The target as a person reads it, e.g. ">= 0.85". */
  target: string;
  /** The measured figure with its unit, e.g. "0.91". */
  figure: string;
  /** null: could not be measured in this run (e.g. no Chromium). */
  met: boolean | null;
}

export interface BenchSuite {
  name: string;
  run: (options: BenchOptions) => Promise<BenchSection[]>;
}
