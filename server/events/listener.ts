import type { FastifyBaseLogger } from 'fastify';
import { listen } from '../repositories/events-repository.ts';
import { RECONNECT_MAX_MS, RECONNECT_MIN_MS } from './policy.ts';

/**
 * PostgreSQL: the instance's one LISTEN connection, re-opened with jittered exponential back-off
 * whenever it drops. Each (re)connect calls `onNotify` once more, for a catch-up read: what was
 * committed while nobody listened is in the log, so a lost notification delays an event but
 * never loses it.
 */
export function createLogListener(options: {
  url: string;
  channel: () => Promise<string>;
  /** `upTo`: the notified commit's last event id (absent for the catch-up read of a (re)connect). */
  onNotify: (upTo?: number) => void;
  /** True while a failed first attempt must fail the start-up instead of retrying. */
  failFast: () => boolean;
  logger: FastifyBaseLogger;
}) {
  const { logger, onNotify } = options;
  let closing = false;
  let connection: { close(): Promise<void> } | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;

  async function connect(attempt: number): Promise<void> {
    if (closing) return;
    try {
      const channel = await options.channel();
      connection = await listen(options.url, channel, {
        onNotify,
        onLost: (error) => {
          connection = undefined;
          if (closing) return;
          logger.warn({ message: error?.message }, 'Event listener connection lost; reconnecting');
          scheduleReconnect(0);
        },
      });
      if (attempt > 0) logger.info({ attempt }, 'Event listener reconnected');
      onNotify();
    } catch (error) {
      if (attempt === 0 && options.failFast()) throw error;
      logger.warn({ message: (error as Error).message, attempt }, 'Event listener could not connect; retrying');
      scheduleReconnect(attempt + 1);
    }
  }

  function scheduleReconnect(attempt: number): void {
    if (closing) return;
    const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
    reconnectTimer = setTimeout(() => void connect(Math.max(1, attempt)), base / 2 + Math.random() * (base / 2));
    reconnectTimer.unref();
  }

  return {
    start: () => connect(0),
    async close() {
      closing = true;
      clearTimeout(reconnectTimer);
      await connection?.close();
    },
  };
}
