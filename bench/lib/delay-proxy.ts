/**
 * A TCP proxy that delays every chunk by `delayMs` in each direction, in order: a database on
 * "another host" for benchmarks (5 ms each way = a 10 ms round trip). It also counts round
 * trips: a chunk from the client after the server last spoke starts a new one (node-postgres
 * does not pipeline, so each statement is one trip; BEGIN and COMMIT are trips too).
 */
import { createServer, connect, type Socket } from 'node:net';

export interface DelayProxy {
  port: number;
  /** Round trips seen so far, over all connections. */
  trips(): number;
  close(): Promise<void>;
}

export async function startDelayProxy(target: { host: string; port: number }, delayMs: number): Promise<DelayProxy> {
  let trips = 0;
  const sockets = new Set<Socket>();
  // Timers of one duration fire in the order they were set, so each direction stays in order.
  const forward = (from: Socket, to: Socket, onChunk: () => void) => {
    from.on('data', (chunk) => {
      onChunk();
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, delayMs);
    });
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), delayMs));
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    let serverSpokeLast = true;
    forward(client, upstream, () => {
      if (serverSpokeLast) trips += 1;
      serverSpokeLast = false;
    });
    forward(upstream, client, () => {
      serverSpokeLast = true;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy: no port');
  return {
    port: address.port,
    trips: () => trips,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => { resolve(); });
      }),
  };
}
