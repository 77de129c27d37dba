/**
 * `node bench/profile.ts [--db=sqlite|postgres] [--sees=50] [--seconds=10] [--connections=10] [--path=/api/tasks] [--method=GET|POST|PATCH] [--server=taskwise|baseline]`
 *
 * CPU profile of the Taskwise server under load: seeds the API benchmark's data set, runs the
 * server with `node --cpu-prof`, drives one call with autocannon, stops the server (which
 * writes the profile) and prints where the time went: self time by function and by package.
 * POST creates the API benchmark's task (assigned to another user, so it also queues a mail);
 * PATCH toggles the priority of the writer's own tasks, one task per connection, as the API
 * benchmark does. `--server=baseline` profiles the bare baseline (bench/baseline-server.ts) under the
 * same load, to compare the two function by function. The .cpuprofile file stays in bench/.tmp/profiles/ for Chrome DevTools or speedscope.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BENCH_PASSWORD, makeTarget, type DbKind } from './lib/db.ts';
import { seedBoardDataset } from './lib/datasets.ts';
import { benchRoot, int, loadAverage, ms, repoRoot } from './lib/env.ts';
import { runLoad, signIn } from './lib/load.ts';
import { startBaseline, startTaskwise, stopAllServers } from './lib/servers.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

function where(url: string): string {
  if (url === '') return '(native / V8)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const parts = path.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]!}/${parts[1]!}` : parts[0]!;
  }
  if (path.startsWith('node:')) return 'node core';
  return path.startsWith(repoRoot) ? relative(repoRoot, path) : path;
}

/** Self time by function and by package; only the last `lastSeconds` of the profile if given. */
export function summarize(file: string, top = 25, lastSeconds?: number): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const from = lastSeconds === undefined ? -Infinity : profile.endTime - lastSeconds * 1e6;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += micros;
    const place = where(url);
    const key = `${functionName || '(anonymous)'}  ${place}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    const group = functionName === '(garbage collector)' ? '(garbage collector)' : place.includes('/') && !place.startsWith('@') ? place.split('/').slice(0, 2).join('/') : place;
    byPlace.set(group, (byPlace.get(group) ?? 0) + micros);
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
  const lines = [`busy CPU time: ${ms(total / 1000)} ms`, '', 'by package / source folder:'];
  for (const [k, v] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`  ${pct(v).padStart(6)}  ${k}`);
  lines.push('', 'self time by function:');
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(v).padStart(6)}  ${k}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const kind = arg('db', 'sqlite') as DbKind;
  const sees = Number(arg('sees', '50'));
  const seconds = Number(arg('seconds', '10'));
  const connections = Number(arg('connections', '10'));
  const path = arg('path', '/api/tasks');
  const method = arg('method', 'GET').toUpperCase();
  if (!['GET', 'POST', 'PATCH'].includes(method)) throw new Error(`--method: GET, POST or PATCH, not ${method}`);
  const serverKind = arg('server', 'taskwise');
  if (serverKind !== 'taskwise' && serverKind !== 'baseline') throw new Error(`--server: taskwise or baseline, not ${serverKind}`);
  const tmpDir = join(benchRoot, '.tmp', `profile-${process.pid}`);
  const profileDir = join(benchRoot, '.tmp', 'profiles');
  mkdirSync(tmpDir, { recursive: true });
  mkdirSync(profileDir, { recursive: true });
  const postgresUrl = process.env.TEST_DATABASE_URL;
  const target = await makeTarget(kind, { tmpDir, postgresUrl }, 'profile');
  try {
    const data = await seedBoardDataset(target, { otherUsers: 1000, otherTasks: 100_000, viewers: [{ label: 'viewer', visible: sees }], writerTasks: 10 });
    const before = new Set(readdirSync(profileDir));
    const server = await (serverKind === 'baseline' ? startBaseline : startTaskwise)({ databaseUrl: target.url, dir: tmpDir, name: 'profiled', nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
    const user = method === 'GET' ? data.viewers.get('viewer')! : data.writer;
    const cookie = await signIn(server.baseUrl, user.email, BENCH_PASSWORD);
    const headers = { cookie };
    const newTask = JSON.stringify({ taskTitle: 'Benchmark task', assignee: data.others[1]!.email, priority: 'high', workTitle: 'Bench' });
    const requestsFor = (c: number) =>
      method === 'GET'
        ? [{ path, headers }]
        : method === 'POST'
          ? [{ method, path: '/api/tasks', headers, body: newTask }]
          : ['high', 'low'].map((priority) => ({ method, path: `/api/tasks/${data.writerTaskIds[c % data.writerTaskIds.length]!}`, headers, body: JSON.stringify({ priority }) }));
    const load = (duration: number) => runLoad({ baseUrl: server.baseUrl, connections, duration, requests: requestsFor(0), requestsFor, pid: server.pid });
    await load(2);
    const result = await load(seconds);
    await server.stop();
    const file = readdirSync(profileDir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
    process.stdout.write(`${serverKind}: ${method} ${method === 'GET' ? path : '/api/tasks'} (sees ${sees}, ${kind}, ${connections} conn.): ${int(result.rps)} req/s, p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms; load average ${loadAverage()}\n`);
    if (file === undefined) throw new Error('the server wrote no CPU profile');
    // The measured load ended just before the stop; start-up, sign-in and warm-up are left out.
    process.stdout.write(`profile: ${relative(repoRoot, join(profileDir, file))} (summary: the last ${seconds} s, the measured load)\n\n${summarize(join(profileDir, file), 25, seconds)}\n`);
  } finally {
    await stopAllServers();
    await target.drop();
    rmSync(tmpDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
