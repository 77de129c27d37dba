import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../../../scripts/lib/processes.ts';
import { build } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { newId } from '../../db/ids.ts';
import { hashPassword } from '../../services/passwords.ts';
import { withConventions } from '../../i18n/account-language.ts';

/**
 * The real `node server/server.ts` as a child process (what `npm start` runs after the build),
 * started by the shared helper of scripts/lib/processes.ts, and scratch databases for it.
 */
const SERVER_ENTRY = fileURLToPath(new URL('../../server.ts', import.meta.url));
const TEST_DB = process.env.TEST_DB ?? 'sqlite';
export const onPostgres = TEST_DB.startsWith('postgres');
export const onSqlite = !onPostgres;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: unknown;
}

/** The `_id` of the task in a `{data:{task}}` answer. */
export const taskIdOf = (res: HttpAnswer): string => (res.json as { data: { task: { _id: string } } }).data.task._id;

/** One HTTP request; rejects with the socket error (ECONNRESET, ECONNREFUSED…) if there is one. */
export function http(
  url: string,
  { method = 'GET', body, headers = {}, agent, timeoutMs = 15_000 }: { method?: string; body?: unknown; headers?: Record<string, string>; agent?: Agent; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      url,
      {
        method,
        agent,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }), ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json });
        });
      },
    );
    req.on('timeout', () => {
      req.destroy(Object.assign(new Error(`No answer within ${timeoutMs} ms`), { code: 'TIMEOUT' }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export type ChildServer = ServerProcess;

/** Starts `node server/server.ts` in `cwd` and resolves once /api/health answers 200. */
export function startServer(env: Record<string, string>, cwd: string): Promise<ChildServer> {
  return startServerProcess({
    script: SERVER_ENTRY,
    cwd,
    env: { NODE_ENV: 'test', SESSION_SECRET: 'child-secret-child-secret-child-secret-01', LOG_LEVEL: 'warn', ...env },
    startTimeoutMs: 30_000,
  });
}

export interface ScratchDatabase {
  /** DATABASE_URL for the server. */
  url: string;
  /** PostgreSQL only: the dedicated database's name. */
  name: string;
  dir: string;
  drop(): Promise<void>;
}

/**
 * A database of its own: a SQLite file in a temp directory, or a dedicated PostgreSQL database
 * (not a schema: connections can only be refused per database, which the cut-away test needs).
 */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'taskwise-sec-'));
  if (!onPostgres) {
    return {
      url: `file:${join(dir, 'taskwise.db')}`,
      name: '',
      dir,
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const name = `tw_sec_${randomBytes(5).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = new URL(TEST_DB);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    dir,
    async drop() {
      await admin(`alter database ${name} allow_connections true`);
      await admin(`drop database if exists ${name} with (force)`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Migrates a scratch database and adds one user, through the app itself. */
export async function seedUser(database: Pick<ScratchDatabase, 'url' | 'dir'>, user: { email: string; password: string; fullName: string }): Promise<void> {
  const config = loadConfig({ DATABASE_URL: database.url, SESSION_SECRET: 'seed-secret-seed-secret-seed-secret-01', LOG_LEVEL: 'silent' }, database.dir);
  const app = await build({ config });
  try {
    const now = new Date().toISOString();
    await app.usersRepository.insert({ id: newId(), email: user.email, fullName: user.fullName, passwordHash: await hashPassword(user.password), createdAt: now, updatedAt: now, ...withConventions('en') });
  } finally {
    await app.close();
  }
}

/** Runs one statement on the shared cluster's maintenance database (TEST_DB). */
export async function admin(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_DB });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}
