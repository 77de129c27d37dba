/**
 * Uploads (POST /api/tasks/:id/attachments) against the real server, on disk storage in the
 * run's scratch directory, on SQLite and on PostgreSQL:
 *
 * 1. Memory: one 500 MB file, made on the fly and sent as a streaming multipart body. The
 *    server's RSS (/proc/<pid>/status, every 100 ms) is compared with its idle RSS (after one
 *    small upload, so the upload code is loaded): the peak growth must stay under 64 MB.
 * 2. Reads beside uploads: GET /api/tasks (a page of 50 of a board of 400 tasks) at a steady rate
 *    for 10 s alone and for 10 s while 20 uploads of 10 MB run (a new one starting as each
 *    finishes, from a worker thread), in two alternating pairs of 5 s windows: p99 during the
 *    uploads at most 2× p99 alone.
 *
 * 3. The bare reference: the reads and uploads of 2. against the bare baseline (bench/baseline-server.ts,
 *    which streams the file part to disk and stores its row, nothing more) on the same data: what
 *    the same load does to the leanest server on the same machine. Reported beside 2., no target.
 *
 * `--quick` sends 50 MB, 4 uploads at a time, one pair of 2 s windows, and never fails on a number.
 * A full run adds the same measurements on SQLite with a small young generation (a diagnosis).
 */
import { mkdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import type { BenchOptions, BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { seedBoardDataset } from '../lib/datasets.ts';
import { BENCH_PASSWORD, dbLabel, makeTarget, sectionsPerDatabase, type DbKind } from '../lib/db.ts';
import { int, loadAverage, mb, median, ms, table } from '../lib/env.ts';
import { Samples, signIn } from '../lib/load.ts';
import { cpuTimeOf, rssOf, startBaseline, startTaskwise, threadCpuOf, type RunningServer } from '../lib/servers.ts';
import { startUploadLoad, uploadFile, type UploadLoadResult, type UploadLoadSpec } from '../lib/uploads.ts';

const RSS_GROWTH_MAX = 64 * 1024 * 1024;
const P99_RATIO_MAX = 2;
const BOARD_TASKS = 400;

/**
 * Every body chunk the HTTP parser hands over is a new buffer, garbage once it is on disk. With
 * V8's default young generation those buffers outlive many chunks and are only freed by full
 * collections that external-memory pressure starts; a small young generation frees them in
 * frequent scavenges. The same measurements with it show how much of the figures that is.
 */
const SMALL_YOUNG_GENERATION: Variant = {
  flags: ['--max-semi-space-size=2'],
  why:
    'Diagnosis, not a target: the same measurements with the server started as `node --max-semi-space-size=2 server/server.ts` (a 2 MB young-generation ' +
    "semi-space). The HTTP parser copies every body chunk into a new buffer; with V8's default young generation those buffers wait for full collections " +
    'started by external-memory pressure, which is where the idle-to-peak RSS and much of the CPU per MB go.',
};

function settings(quick: boolean) {
  return quick
    ? { bigSize: 50_000_000, concurrency: 4, loadSize: 10_000_000, seconds: 2, rounds: 1, rate: 20, rampUp: 0.5 }
    : { bigSize: 500_000_000, concurrency: 20, loadSize: 10_000_000, seconds: 10, rounds: 2, rate: 40, rampUp: 1 };
}

const megabytesPerSecond = (bytes: number, seconds: number) => (bytes / 1_000_000 / seconds).toFixed(1);

/** RSS of `pid` every 100 ms until stopped: the samples, bytes. */
function sampleEvery100ms(pid: number): { stop(): number[] } {
  const samples = [rssOf(pid)];
  const timer = setInterval(() => samples.push(rssOf(pid)), 100);
  return {
    stop() {
      clearInterval(timer);
      samples.push(rssOf(pid));
      return samples;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * GET `path` at `rate` requests a second for `seconds`, each sent on time whatever the ones
 * before it do (open loop, up to 16 at once); each latency is counted from when its request was
 * due, so a stalled server shows as the wait it causes.
 */
async function latencyAtRate(baseUrl: string, path: string, cookie: string, rate: number, seconds: number): Promise<{ samples: Samples; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const samples = new Samples();
  let errors = 0;
  const one = (due: number) =>
    new Promise<void>((resolve) => {
      const req = request(new URL(path, baseUrl), { agent, headers: { cookie } }, (res) => {
        res.on('data', () => undefined);
        res.once('end', () => {
          if (res.statusCode === 200) samples.push(performance.now() - due);
          else errors++;
          resolve();
        });
      });
      req.once('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const count = Math.round(rate * seconds);
  try {
    for (let i = 0; i < count; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(one(due));
    }
    await Promise.all(pending);
  } finally {
    agent.destroy();
  }
  return { samples, errors };
}

/** Upload results of several windows as one. */
function mergeLoads(all: readonly UploadLoadResult[]): UploadLoadResult {
  const failed: Record<string, number> = {};
  for (const r of all) for (const [k, n] of Object.entries(r.failed)) failed[k] = (failed[k] ?? 0) + n;
  return {
    done: all.reduce((n, r) => n + r.done, 0),
    bytes: all.reduce((n, r) => n + r.bytes, 0),
    failed,
    seconds: all.reduce((n, r) => n + r.seconds, 0),
    durations: all.flatMap((r) => r.durations),
  };
}

/**
 * GET `page` at the steady rate alone, then beside the uploads (measured once they have all
 * started), in `rounds` alternating pairs of windows that add up to `seconds` each, so a change in
 * the machine's other work falls on both. Server CPU is given in cores (its CPU time per second).
 */
async function readsBesideUploads(server: RunningServer, page: string, spec: UploadLoadSpec, s: ReturnType<typeof settings>, readCookie = spec.cookie) {
  const { baseUrl, pid } = server;
  const window = s.seconds / s.rounds;
  const alone = { samples: [] as Samples[], errors: 0, cpu: 0, ms: 0 };
  const beside = { samples: [] as Samples[], errors: 0, cpu: 0, ms: 0 };
  const timed = async (into: typeof alone) => {
    const cpu = cpuTimeOf(pid);
    const t0 = performance.now();
    const r = await latencyAtRate(baseUrl, page, readCookie, s.rate, window);
    into.cpu += cpuTimeOf(pid) - cpu;
    into.ms += performance.now() - t0;
    into.samples.push(r.samples);
    into.errors += r.errors;
  };
  const loads: UploadLoadResult[] = [];
  let loadCpuMs = 0;
  let loadPeakRss = 0;
  const threads = new Map<string, number>();
  for (let round = 0; round < s.rounds; round++) {
    await timed(alone);
    const rss = sampleEvery100ms(pid);
    const cpu = cpuTimeOf(pid);
    const threadsBefore = threadCpuOf(pid);
    const uploads = startUploadLoad(spec);
    await sleep(s.rampUp * 1000);
    await timed(beside);
    loads.push(await uploads.stop());
    loadCpuMs += cpuTimeOf(pid) - cpu;
    for (const [name, ms] of threadCpuOf(pid)) threads.set(name, (threads.get(name) ?? 0) + ms - (threadsBefore.get(name) ?? 0));
    loadPeakRss = Math.max(loadPeakRss, ...rss.stop());
  }
  return {
    alone: { samples: Samples.merge(alone.samples), errors: alone.errors },
    beside: { samples: Samples.merge(beside.samples), errors: beside.errors },
    cpu: { alone: alone.cpu / alone.ms, during: beside.cpu / beside.ms },
    load: mergeLoads(loads),
    loadCpuMs,
    loadThreadsMs: threads,
    loadPeakRss,
  };
}

interface Figures {
  idleRss: number;
  peakRss: number;
  bigSeconds: number;
  bigStatus: number;
  bigSize: number | undefined;
  alone: ReadPoint;
  during: ReadPoint;
  /** Server CPU (all its threads) per second of wall time, as a share of one core: reads alone, beside the uploads. */
  cpu: { alone: number; during: number };
  /** Server CPU time from the first upload's start to the last one's answer (reads included), ms. */
  loadCpuMs: number;
  /** The same by thread name. */
  loadThreadsMs: Map<string, number>;
  load: UploadLoadResult;
  loadPeakRss: number;
  /** The same reads beside the same uploads, served by the bare baseline (no target). */
  bare?: { alone: ReadPoint; during: ReadPoint; load: UploadLoadResult } | undefined;
}
interface ReadPoint {
  p50: number;
  p99: number;
  n: number;
  errors: number;
}

/** A server started with extra node flags, measured the same way to show what they change (no targets). */
interface Variant {
  flags: string[];
  why: string;
}

async function runDatabase(kind: DbKind, opts: BenchOptions, variant?: Variant): Promise<{ section: BenchSection; targets: TargetResult[] }> {
  const s = settings(opts.quick);
  const label = variant === undefined ? dbLabel(kind) : `${dbLabel(kind)}, node ${variant.flags.join(' ')}`;
  const target = await makeTarget(kind, opts, 'uploads');
  const filesDir = join(opts.tmpDir, `uploads-files-${kind}`);
  mkdirSync(filesDir, { recursive: true });
  let server: RunningServer | undefined;
  try {
    // `reader` sees 50 tasks: the bare baseline's page (it answers a person's tasks whole, unpaged).
    const data = await seedBoardDataset(target, { otherUsers: 20, otherTasks: 1_000, viewers: [{ label: 'reader', visible: 50 }], writerTasks: BOARD_TASKS });
    server = await startTaskwise({
      databaseUrl: target.url,
      dir: opts.tmpDir,
      name: `uploads-${kind}${variant === undefined ? '' : '-variant'}`,
      ...(variant === undefined ? {} : { nodeFlags: variant.flags }),
      env: { FILES_DIR: filesDir, ATTACHMENT_MAX_MB: String(Math.ceil(s.bigSize / 1_000_000)), BOARD_STORAGE_MB: '1000000' },
    });
    const { baseUrl, pid } = server;
    const cookie = await signIn(baseUrl, data.writer.email, BENCH_PASSWORD);
    const [bigTask, ...loadTasks] = data.writerTaskIds;
    // The writer's tasks are on their personal board, whose id is theirs.
    const page = `/api/tasks?board=${data.writer.id}&limit=50`;

    // 1. Memory. One small upload first loads the upload code; then the idle RSS over a second.
    const warm = await uploadFile({ baseUrl, cookie, taskId: bigTask!, size: 1_000_000, name: 'warm-up.bin' });
    if (warm.status !== 201) throw new Error(`the warm-up upload answered ${warm.status}: ${JSON.stringify(warm.body)}`);
    // The idle RSS is the median of a 1.5 s window of samples (a measuring window, not a wait:
    // the median also skips what the warm-up upload leaves settling at its start).
    const idle = sampleEvery100ms(pid);
    await sleep(1500);
    const idleRss = median(idle.stop());
    const during = sampleEvery100ms(pid);
    const big = await uploadFile({ baseUrl, cookie, taskId: bigTask!, size: s.bigSize, name: 'big.bin' });
    const bigSamples = during.stop();
    const bigSize = (big.body as { data?: { attachment?: { size?: number } } } | undefined)?.data?.attachment?.size;
    const peakRss = Math.max(...bigSamples);
    opts.log(
      `uploads/${label}: ${int(s.bigSize)} bytes in ${big.seconds.toFixed(1)} s (${megabytesPerSecond(s.bigSize, big.seconds)} MB/s), HTTP ${big.status}, size ${String(bigSize)}; ` +
        `RSS idle ${mb(idleRss)} MiB, peak ${mb(peakRss)} MiB (+${mb(peakRss - idleRss)}); load ${loadAverage()}`,
    );

    // 2. Reads alone, then beside the uploads (after they have all started).
    await latencyAtRate(baseUrl, page, cookie, s.rate, 1);
    const { alone, beside, load, loadPeakRss, cpu, loadCpuMs, loadThreadsMs } = await readsBesideUploads(server, page, { baseUrl, cookie, taskIds: loadTasks, concurrency: s.concurrency, size: s.loadSize }, s);
    const point = (r: { samples: Samples; errors: number }): ReadPoint => ({ p50: r.samples.percentile(50), p99: r.samples.percentile(99), n: r.samples.length, errors: r.errors });
    const f: Figures = {
      idleRss,
      peakRss,
      bigSeconds: big.seconds,
      bigStatus: big.status,
      bigSize,
      alone: point(alone),
      during: point(beside),
      load,
      loadPeakRss,
      cpu,
      loadCpuMs,
      loadThreadsMs,
    };
    opts.log(
      `uploads/${label}: GET page p50/p99 alone ${ms(f.alone.p50)}/${ms(f.alone.p99)} ms, beside ${s.concurrency} uploads ${ms(f.during.p50)}/${ms(f.during.p99)} ms; ` +
        `${load.done} uploads, ${megabytesPerSecond(load.bytes, load.seconds)} MB/s; server CPU ${f.cpu.alone.toFixed(2)} → ${f.cpu.during.toFixed(2)} cores; load ${loadAverage()}`,
    );
    if (variant === undefined) {
      // 3. The bare reference: the same reads and uploads on the bare baseline, the same data.
      await server.stop();
      server = undefined;
      const bare = await startBaseline({ databaseUrl: target.url, dir: opts.tmpDir, name: `uploads-bare-${kind}`, env: { FILES_DIR: filesDir, ATTACHMENT_MAX_MB: String(Math.ceil(s.loadSize / 1_000_000)) } });
      server = bare;
      const reader = await signIn(bare.baseUrl, data.viewers.get('reader')!.email, BENCH_PASSWORD);
      const writer = await signIn(bare.baseUrl, data.writer.email, BENCH_PASSWORD);
      await latencyAtRate(bare.baseUrl, '/api/tasks', reader, s.rate, 1);
      const r = await readsBesideUploads(bare, '/api/tasks', { baseUrl: bare.baseUrl, cookie: writer, taskIds: loadTasks, concurrency: s.concurrency, size: s.loadSize }, s, reader);
      f.bare = { alone: point(r.alone), during: point(r.beside), load: r.load };
      opts.log(
        `uploads/${label}, bare baseline: GET p50/p99 alone ${ms(f.bare.alone.p50)}/${ms(f.bare.alone.p99)} ms, beside ${s.concurrency} uploads ` +
          `${ms(f.bare.during.p50)}/${ms(f.bare.during.p99)} ms; ${r.load.done} uploads, ${megabytesPerSecond(r.load.bytes, r.load.seconds)} MB/s; load ${loadAverage()}`,
      );
    }
    const measured = report(label, s, f, opts.quick);
    if (variant === undefined) return measured;
    return { section: { ...measured.section, markdown: `${variant.why}\n\n${measured.section.markdown}` }, targets: [] };
  } finally {
    await server?.stop();
    await target.drop();
  }
}

function report(label: string, s: ReturnType<typeof settings>, f: Figures, quick: boolean): { section: BenchSection; targets: TargetResult[] } {
  const growth = f.peakRss - f.idleRss;
  const bigOk = f.bigStatus === 201 && f.bigSize === s.bigSize;
  const ratio = f.during.p99 / f.alone.p99;
  const bareRatio = f.bare === undefined ? undefined : f.bare.during.p99 / f.bare.alone.p99;
  const failed = Object.entries(f.load.failed);
  const targets: TargetResult[] = [
    {
      name: `${label}: server RSS growth during one ${int(s.bigSize / 1_000_000)} MB upload (peak over idle)`,
      target: `< ${mb(RSS_GROWTH_MAX)} MiB`,
      figure: `${mb(growth)} MiB (idle ${mb(f.idleRss)}, peak ${mb(f.peakRss)} MiB; ${megabytesPerSecond(s.bigSize, f.bigSeconds)} MB/s)`,
      met: quick ? null : growth < RSS_GROWTH_MAX && bigOk,
    },
    {
      name: `${label}: GET /api/tasks (page of 50) p99 beside ${s.concurrency} uploads of ${int(s.loadSize / 1_000_000)} MB / p99 alone`,
      target: `<= ${P99_RATIO_MAX}×`,
      figure: `${ratio.toFixed(2)}× (${ms(f.alone.p99)} → ${ms(f.during.p99)} ms)${bareRatio === undefined ? '' : `; the bare baseline ${bareRatio.toFixed(2)}×`}`,
      met: quick ? null : ratio <= P99_RATIO_MAX && f.during.errors === 0 && failed.length === 0,
    },
  ];
  const durations = [...f.load.durations].sort((a, b) => a - b);
  const markdown = [
    `Database: ${label}; files on disk (FILES_DIR in the run's scratch directory). Load average after: ${loadAverage()}.`,
    '',
    `**One ${int(s.bigSize)}-byte upload**: one MiB of random bytes sent again and again as the file (multipart over node:http, ` +
      `content-length given). Server RSS sampled every 100 ms; idle is the median of one second after a 1 MB warm-up upload.`,
    '',
    table(
      ['answer', 'size stored', 'time', 'throughput', 'RSS idle', 'RSS peak', 'growth'],
      [[String(f.bigStatus), f.bigSize === undefined ? '–' : int(f.bigSize), `${f.bigSeconds.toFixed(1)} s`, `${megabytesPerSecond(s.bigSize, f.bigSeconds)} MB/s`, `${mb(f.idleRss)} MiB`, `${mb(f.peakRss)} MiB`, `${mb(growth)} MiB`]],
    ),
    '',
    `**Reads beside uploads**: GET /api/tasks?board=…&limit=50 (a board of ${BOARD_TASKS} tasks) at ${s.rate} requests a second, each timed from when it was due ` +
      `(open loop), for ${s.seconds} s alone and for ${s.seconds} s while ${s.concurrency} uploads of ${int(s.loadSize)} bytes run from a worker thread ` +
      `(a new one starting as each finishes; measured from ${s.rampUp} s after they started), in ${s.rounds} alternating pair${s.rounds === 1 ? '' : 's'} of windows ` +
      `so that the machine's other work falls on both. Server CPU: all its threads' CPU time per second, in cores.`,
    '',
    table(
      ['reads', 'requests', 'p50', 'p99', 'errors', 'server CPU (cores)'],
      [
        ['alone', f.alone.n, `${ms(f.alone.p50)} ms`, `${ms(f.alone.p99)} ms`, f.alone.errors, f.cpu.alone.toFixed(2)],
        [`beside ${s.concurrency} uploads`, f.during.n, `${ms(f.during.p50)} ms`, `${ms(f.during.p99)} ms`, f.during.errors, f.cpu.during.toFixed(2)],
        ...(f.bare === undefined
          ? []
          : [
              ['bare baseline, alone', f.bare.alone.n, `${ms(f.bare.alone.p50)} ms`, `${ms(f.bare.alone.p99)} ms`, f.bare.alone.errors, '–'],
              [`bare baseline, beside ${s.concurrency} uploads`, f.bare.during.n, `${ms(f.bare.during.p50)} ms`, `${ms(f.bare.during.p99)} ms`, f.bare.during.errors, '–'],
            ]),
      ],
    ),
    '',
    ...(f.bare === undefined
      ? []
      : [
          `The bare baseline (bench/baseline-server.ts) is the same measurement on the same data against a plain node:http server that streams each ` +
            `upload's file part to a file with @fastify/busboy and stores its row, without the app's pacing of uploads (files/upload-pacing.ts) or any ` +
            `of its other work; its reads are GET /api/tasks of a person who sees 50 tasks (it has no paging). Its uploads ran at ` +
            `${megabytesPerSecond(f.bare.load.bytes, f.bare.load.seconds)} MB/s (${f.bare.load.done} done` +
            `${Object.keys(f.bare.load.failed).length === 0 ? '' : `, failed: ${JSON.stringify(f.bare.load.failed)}`}). p99 beside the uploads / alone: ` +
            `${(bareRatio ?? 0).toFixed(2)}×, against Taskwise's ${ratio.toFixed(2)}×.`,
          '',
        ]),
    table(
      ['uploads', 'done (201)', 'failed', 'throughput', 'server CPU per MB', 'of which main thread / GC helpers (V8Worker) / file system pool (libuv-worker)', 'upload time p50 / max', 'server RSS peak'],
      [
        [
          `${s.concurrency} at a time, ${int(s.loadSize)} bytes each`,
          f.load.done,
          failed.length === 0 ? '0' : failed.map(([k, n]) => `${n}× ${k}`).join(', '),
          `${megabytesPerSecond(f.load.bytes, f.load.seconds)} MB/s`,
          `${(f.loadCpuMs / (f.load.bytes / 1_000_000)).toFixed(2)} ms`,
          ['MainThread', 'V8Worker', 'libuv-worker'].map((name) => ((f.loadThreadsMs.get(name) ?? 0) / (f.load.bytes / 1_000_000)).toFixed(2)).join(' / ') + ' ms',
          `${(median(durations) || 0).toFixed(2)} / ${(durations.at(-1) ?? 0).toFixed(2)} s`,
          `${mb(f.loadPeakRss)} MiB`,
        ],
      ],
    ),
  ].join('\n');
  return { section: { title: `Uploads: memory and reads beside them, ${label}`, markdown }, targets };
}

export const suite: BenchSuite = {
  name: 'uploads',
  async run(opts) {
    const sections = await sectionsPerDatabase(opts, (kind) => runDatabase(kind, opts));
    if (opts.postgresUrl === undefined) sections.push({ title: 'Uploads, PostgreSQL', markdown: 'Skipped: TEST_DATABASE_URL is not set.' });
    if (!opts.quick) sections.push((await runDatabase('sqlite', opts, SMALL_YOUNG_GENERATION)).section);
    return sections;
  },
};
