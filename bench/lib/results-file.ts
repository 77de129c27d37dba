/**
 * bench/RESULTS.md as a set of per-suite blocks, so `npm run bench -- --only=a,b` can rewrite the
 * blocks of the suites it ran and keep every other suite's block (figures, date, commit, load) as
 * it was. Each block starts with a comment that carries its run facts as JSON:
 *
 *   <!-- bench-suite api-throughput {"name":…,"date":…,"targets":[…]} -->
 *   ## API over HTTP: …
 *   …
 *   <!-- /bench-suite api-throughput -->
 *
 * The Targets and Suites tables at the top are derived from those comments on every write, so
 * they never need a hand merge: after a git conflict there, keep both sides' blocks and rerun any
 * `--only` run (or fix the two tables by hand; the blocks are the source).
 */
import type { BenchSection, TargetResult } from '../suite.ts';
import { mark, table } from './env.ts';

export interface SuiteRecord {
  /** Suite file name without `.ts`: the block's key. */
  key: string;
  name: string;
  file: string;
  date: string;
  commit: string;
  command: string;
  seconds: number;
  loadBefore: string;
  loadAfter: string;
  error: string | null;
  targets: TargetResult[];
}

export interface SuiteBlock {
  record: SuiteRecord;
  /** Markdown between the opening and closing comments. */
  body: string;
}

const BLOCK = /<!-- bench-suite ([\w.-]+) (\{.*\}) -->\n([\s\S]*?)<!-- \/bench-suite \1 -->/g;

/** The blocks found in an existing results file (none for a file in another layout). */
export function parseBlocks(text: string): SuiteBlock[] {
  const blocks: SuiteBlock[] = [];
  for (const match of text.matchAll(BLOCK)) {
    try {
      const record = JSON.parse(match[2]!) as SuiteRecord;
      blocks.push({ record: { ...record, key: match[1]! }, body: match[3]!.trim() });
    } catch {
      // A hand-damaged comment: drop that block; the suite's next run writes it again.
    }
  }
  return blocks;
}

export function suiteBody(record: SuiteRecord, sections: BenchSection[]): string {
  const parts: string[] = [];
  if (record.error !== null) parts.push(`## ${record.name}: could not run`, '', '```', record.error, '```', '');
  for (const section of sections) parts.push(`## ${section.title}`, '', section.markdown.trim(), '');
  if (parts.length === 0) parts.push(`## ${record.name}`, '', 'No results.', '');
  return parts.join('\n').trim();
}

function renderBlock(block: SuiteBlock): string {
  // `>` escaped inside the JSON so no string can close the HTML comment early.
  const json = JSON.stringify(block.record).replaceAll('>', '\\u003e');
  return [`<!-- bench-suite ${block.record.key} ${json} -->`, block.body, `<!-- /bench-suite ${block.record.key} -->`].join('\n');
}

/**
 * The whole results file: `fresh` blocks replace those with the same key, kept blocks of suites
 * that still exist (`existingKeys`) stay, and all are ordered by key (file-name order).
 */
export function renderResults(opts: { title: string; header: string; previous: string; fresh: SuiteBlock[]; existingKeys: readonly string[] }): string {
  const byKey = new Map<string, SuiteBlock>();
  for (const block of parseBlocks(opts.previous)) {
    if (opts.existingKeys.includes(block.record.key)) byKey.set(block.record.key, block);
  }
  for (const block of opts.fresh) byKey.set(block.record.key, block);
  const blocks = [...byKey.values()].sort((a, b) => (a.record.key < b.record.key ? -1 : a.record.key > b.record.key ? 1 : 0));
  const targets = blocks.flatMap((b) => b.record.targets.map((t) => [b.record.key, t.name, t.target, t.figure, mark(t.met)]));
  const lines = [
    opts.title,
    '',
    opts.header.trim(),
    '',
    '## Targets',
    '',
    targets.length === 0 ? 'No targets were checked.' : table(['suite', 'target', 'wanted', 'measured', 'result'], targets),
    '',
    '## Suites',
    '',
    'Each suite keeps the figures of its own last run: `npm run bench -- --only=NAME` rewrites only that suite\'s part of this file.',
    '',
    table(
      ['suite', 'file', 'result', 'run at', 'commit', 'time', 'load average before → after', 'reproduce'],
      blocks.map(({ record: r }) => [r.key, r.file, r.error === null ? 'ran' : '**could not run**', r.date, r.commit, `${r.seconds.toFixed(0)} s`, `${r.loadBefore} → ${r.loadAfter}`, `\`${r.command}\``]),
    ),
    '',
    ...blocks.flatMap((b) => [renderBlock(b), '']),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
