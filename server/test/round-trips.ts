import { startDelayProxy } from '../../bench/lib/delay-proxy.ts';
import type { TestApp } from './helpers.ts';

/**
 * Runs `body` with the app rebuilt to reach PostgreSQL through a proxy that counts round trips
 * (bench/lib/delay-proxy.ts, no delay): `trips()` is the count so far. The app is rebuilt as it
 * was afterwards. PostgreSQL only.
 */
export async function withRoundTrips(t: TestApp, body: (trips: () => number) => Promise<void>): Promise<void> {
  const { database } = t.config;
  if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
  const url = new URL(database.url);
  const proxy = await startDelayProxy({ host: url.hostname, port: Number(url.port || 5432) }, 0);
  try {
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    await t.rebuild({ DATABASE_URL: url.toString() });
    await body(() => proxy.trips());
  } finally {
    await t.rebuild();
    await proxy.close();
  }
}
