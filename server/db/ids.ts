import { randomBytes } from 'node:crypto';

const ID_BYTES = 16;
/** Ids drawn per refill: one call into the CSPRNG for 256 ids instead of one per id. */
const POOL_BYTES = ID_BYTES * 256;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * 128 random bits as 22 base64url characters: unguessable, URL-safe, the same text on both
 * databases. The bits come from a pool filled by the CSPRNG, as Node's own `randomUUID()` does:
 * `randomBytes(16)` per id cost about 2 µs (a system call each), a pooled id about 0.2 µs
 * (docs/performance.md). Each byte of the pool is handed out once.
 */
export function newId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}

/** Ids are base64url (ours) or UUIDs: anything else cannot exist. */
export const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
