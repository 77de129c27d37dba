/**
 * Child-process and browser helpers shared by the browser tests (e2e/) and the benchmarks
 * (bench/), which both start the real server and Debian's Chromium.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** Flags Chromium needs on this machine's closed network (never a downloaded browser). */
export const chromeArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => {
    resolve();
  }));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

function exited(child: ChildProcess): Promise<void> {
  return running(child)
    ? new Promise((resolve) => child.once('exit', () => {
      resolve();
    }))
    : Promise.resolve();
}

/** SIGTERM (the server drains in-flight requests), then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (!running(child)) return;
  child.kill('SIGTERM');
  await Promise.race([exited(child), delay(graceMs, undefined, { ref: false })]);
  if (running(child)) {
    child.kill('SIGKILL');
    await exited(child);
  }
}
