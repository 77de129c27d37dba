/** The live board's limits and timings, in one place. */

/** Open streams per user, across all instances (the next one answers 429). */
export const MAX_STREAMS_PER_USER = 20;
/** A comment line goes to every stream this often (at most 30 s apart, so proxies keep them open). */
export const HEARTBEAT_MS = 25_000;
/** A stream's lease outlives a missed heartbeat or two; an instance that died frees it after this. */
export const LEASE_MS = 90_000;
/** Events stay in the log at least this long, so a client reconnecting within it misses nothing. */
export const EVENT_RETENTION_MS = 10 * 60_000;
/** How often the log is read even without a notification: a safety net, never the main path. */
export const POLL_MS = { sqlite: 1000, postgres: 5000 } as const;
/**
 * How often an instance checks that the sessions of its open streams still exist and have not
 * expired (a stream must end within 5 s of its session, also when another instance ended it).
 */
export const SESSION_CHECK_MS = 1000;
/** Rows read from the log at a time. */
export const LOG_PAGE = 500;
/** A client that does not read is cut off (it reconnects with Last-Event-ID) rather than buffered without end. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** The browser's reconnect delay after a dropped stream. */
export const RETRY_MS = 2000;
/** Back-off bounds of the PostgreSQL listening connection's reconnects. */
export const RECONNECT_MIN_MS = 100;
export const RECONNECT_MAX_MS = 5000;
