import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import webpush from 'web-push';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { build } from '../app.ts';
import type { Clock } from '../clock.ts';
import type { FieldError } from '#shared/schemas/common.ts';
import type { Task } from '#shared/schemas/tasks.ts';
import { loadConfig, type Config } from '../config.ts';
import { startMailCatcher, type MailCatcher } from './mail-catcher.ts';

/** TEST_DB is set by vitest.config.ts: `sqlite`, or a postgres:// URL. */
const TEST_DB = process.env.TEST_DB ?? 'sqlite';
export const isPostgres = TEST_DB.startsWith('postgres');

/** A clock tests move by hand; it starts at a fixed instant and only goes forward. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start = '2031-03-10T09:00:00.000Z') {
    this.#ms = Date.parse(start);
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    if (ms < 0) throw new Error('ManualClock only moves forward');
    this.#ms += ms;
  }
}

/** Matches any string inside toEqual(). */
export const anyString = expect.any(String) as string;

export { DAY, HOUR, MINUTE, SECOND } from '../clock.ts';

/** An isolated database for one test file: a temp SQLite file, or a fresh PostgreSQL schema. */
interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function createTestDatabase(): Promise<TestDatabase> {
  if (!isPostgres) {
    const dir = mkdtempSync(join(tmpdir(), 'taskwise-test-'));
    return {
      url: `file:${join(dir, 'test.db')}`,
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DB });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const url = new URL(TEST_DB);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DB });
      await client.connect();
      await client.query(`drop schema "${schema}" cascade`);
      await client.end();
    },
  };
}

export const TEST_ORIGIN = 'http://localhost:3000';

/** One VAPID key pair per test process, given like an operator's, so no test writes ./data/vapid-keys.json. */
const TEST_VAPID = webpush.generateVAPIDKeys();

/** Production configuration, parsed from an environment like an operator's; only values differ. */
function testConfig(databaseUrl: string, smtpPort: number, env: Record<string, string>): Config {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    APP_ORIGIN: TEST_ORIGIN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    VAPID_PUBLIC_KEY: TEST_VAPID.publicKey,
    VAPID_PRIVATE_KEY: TEST_VAPID.privateKey,
    // Each app its own files directory (created when the first file comes).
    FILES_DIR: join(tmpdir(), `taskwise-files-${randomUUID()}`),
    ...env,
  });
  // No built web app unless a test provides one.
  return { ...config, webRoot: join(tmpdir(), 'taskwise-no-web-build') };
}

/**
 * A permissive view of any JSON answer, so tests can reach into it without casts: every field
 * any envelope may carry, typed as if present. Assertions check what is really there.
 */
export interface ApiJson {
  status: string;
  code: string;
  message: string;
  errors: FieldError[];
  results: number;
  data: {
    task: Task;
    tasks: Task[];
    nextCursor: string | null;
    user: { fullName: string; email: string };
    counts: { todo: number; done: number; overdue: number; columns?: Record<string, number> };
    database: string;
  };
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /** The parsed body (undefined at runtime when it was empty or not JSON). */
  json: ApiJson;
  /** `name=value` of a Set-Cookie for the session, or undefined. */
  sessionCookie: string | undefined;
}

export interface RequestOptions {
  body?: unknown;
  cookie?: string | undefined;
  headers?: Record<string, string>;
  /** Source address of the request (per-IP limits). */
  ip?: string;
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly clock: ManualClock;
  readonly mail: MailCatcher;
  readonly config: Config;
  request(method: InjectOptions['method'], url: string, options?: RequestOptions): Promise<Response>;
  /** Rebuilds the app with other configuration values (same database, clock and SMTP). */
  rebuild(env?: Record<string, string>, patch?: Partial<Config>): Promise<void>;
}

/**
 * Registers the hooks of one test file: a database and an SMTP catcher for the file, a fresh
 * app (built by the production `build()`) for every test, everything closed afterwards.
 */
export function useTestApp(
  options: {
    env?: Record<string, string>;
    patch?: Partial<Config>;
    /** Runs once on the file's empty database (its URL: `file:…` or postgres://…) before any app is built, e.g. to fill it through older migrations. */
    before?: (databaseUrl: string) => Promise<void>;
  } = {},
): TestApp {
  let database: TestDatabase | undefined;
  let mail: MailCatcher | undefined;
  let app: FastifyInstance | undefined;
  let config: Config | undefined;
  const clock = new ManualClock();

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready (used outside a test?)`);
    return value;
  };

  const start = async (env: Record<string, string>, patch: Partial<Config>) => {
    if (app !== undefined) await app.close();
    config = { ...testConfig(need(database, 'database').url, need(mail, 'mail').port, env), ...patch };
    app = await build({ config, clock });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    mail = await startMailCatcher();
    await options.before?.(database.url);
  });
  beforeEach(async () => {
    await start(options.env ?? {}, options.patch ?? {});
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(async () => {
    await mail?.close();
    await database?.drop();
  });

  return {
    get app() {
      return need(app, 'app');
    },
    clock,
    get mail() {
      return need(mail, 'mail');
    },
    get config() {
      return need(config, 'config');
    },
    rebuild: (env = {}, patch = {}) => start({ ...(options.env ?? {}), ...env }, { ...(options.patch ?? {}), ...patch }),
    async request(method, url, { body, cookie, headers = {}, ip } = {}) {
      const res = await need(app, 'app').inject({
        method,
        url,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie === undefined ? {} : { cookie }),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
        ...(ip === undefined ? {} : { remoteAddress: ip }),
      });
      const setCookie = ([] as (string | undefined)[]).concat(res.headers['set-cookie']);
      const session = setCookie.find((c) => c?.startsWith('taskwise_session='));
      let json: unknown;
      try {
        json = res.body === '' ? undefined : (JSON.parse(res.body) as unknown);
      } catch {
        json = undefined;
      }
      return {
        status: res.statusCode,
        headers: res.headers,
        body: res.body,
        json: json as ApiJson,
        sessionCookie: session?.split(';')[0],
      };
    },
  };
}

/** Resolves once a statement whose text matches `like` waits for a lock (PostgreSQL), so a test can release it knowing the statement is blocked. */
export async function untilWaitingOnLock(t: TestApp, like: string): Promise<void> {
  // PostgreSQL tells of a wait only when asked: polled (expect.poll), failing after 5 s.
  const waiting = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like ${like}`.execute(t.app.db);
    return rows[0]?.n ?? 0;
  };
  await expect.poll(waiting, { message: `a statement like ${like} waits for a lock`, timeout: 5000, interval: 10 }).toBeGreaterThan(0);
}
