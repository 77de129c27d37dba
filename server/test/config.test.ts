import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { ConfigError, loadConfig } from '../config.ts';

const SECRET = 'a-session-secret-that-is-long-enough-123';
const keys = webpush.generateVAPIDKeys();
const other = webpush.generateVAPIDKeys();
const dirs: string[] = [];
const tempCwd = () => {
  const dir = mkdtempSync(join(tmpdir(), 'taskwise-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const failure = (env: Record<string, string>, cwd = tempCwd()): ConfigError => {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('has working defaults and generates the session secret once into ./data/', () => {
    const cwd = tempCwd();
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', file: join(cwd, 'data', 'taskwise.db') },
      smtpUrl: null,
      mailFrom: 'Taskwise <no-reply@localhost>',
      appOrigin: 'http://localhost:3000',
      corsOrigins: [],
      trustProxy: false,
      logLevel: 'info',
      isProduction: false,
      secureCookies: false,
    });
    const file = join(cwd, 'data', 'session-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(config.sessionSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({}, cwd).sessionSecret).toBe(config.sessionSecret);
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://app:pw@db.internal:5432/taskwise',
        SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
        MAIL_FROM: 'Tasks <tasks@example.com>',
        APP_ORIGIN: 'https://tasks.example.com/',
        CORS_ORIGINS: 'https://a.example.com, https://b.example.com:8443',
        SESSION_SECRET: SECRET,
        TRUST_PROXY: '10.0.0.0/8,127.0.0.1',
        LOG_LEVEL: 'WARN',
        NODE_ENV: 'production',
      },
      tempCwd(),
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      database: { kind: 'postgres', url: 'postgres://app:pw@db.internal:5432/taskwise' },
      smtpUrl: 'smtps://user:pass@smtp.example.com:465',
      mailFrom: 'Tasks <tasks@example.com>',
      appOrigin: 'https://tasks.example.com',
      corsOrigins: ['https://a.example.com', 'https://b.example.com:8443'],
      sessionSecret: SECRET,
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      logLevel: 'warn',
      isProduction: true,
      secureCookies: true,
    });
  });

  it.each([
    // One proxy: the right-most X-Forwarded-For entry is the client (client-address.test.ts).
    ['true', 1],
    ['false', false],
    ['2', 2],
    ['0', false],
    [' 10.0.0.0/8 , ::1, 2001:db8::/32 ', ['10.0.0.0/8', '::1', '2001:db8::/32']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value, SESSION_SECRET: SECRET }, tempCwd()).trustProxy).toEqual(expected);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'file:' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
    [{ APP_ORIGIN: 'tasks.example.com' }, 'APP_ORIGIN'],
    [{ APP_ORIGIN: 'https://tasks.example.com/app' }, 'APP_ORIGIN'],
    [{ CORS_ORIGINS: 'https://ok.example.com,ftp://bad' }, 'CORS_ORIGINS'],
    [{ TRUST_PROXY: 'sometimes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'true,10.0.0.1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ VAPID_PUBLIC_KEY: keys.publicKey }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY'],
    [{ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: 'not+base64url' }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: Buffer.alloc(32).toString('base64url') }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: Buffer.alloc(31, 7).toString('base64url') }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY'],
    [{ VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY'],
    [{ VAPID_SUBJECT: 'ops@example.com' }, 'VAPID_SUBJECT'],
    [{ VAPID_SUBJECT: 'http://example.com' }, 'VAPID_SUBJECT'],
    [{ OUTBOUND_ALLOW_PRIVATE: 'yes' }, 'OUTBOUND_ALLOW_PRIVATE'],
  ])('stops on %j with one line naming %s', (env, variable) => {
    const error = failure({ SESSION_SECRET: SECRET, ...env });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('\n');
  });

  it('starts with a short SESSION_SECRET or METRICS_TOKEN, warning of each', () => {
    const config = loadConfig({ SESSION_SECRET: 'secret', METRICS_TOKEN: 'test-token' }, tempCwd());
    expect(config.sessionSecret).toBe('secret');
    expect(config.metricsToken).toBe('test-token');
    expect(config.warnings).toEqual([expect.stringMatching(/^METRICS_TOKEN is shorter than 16 characters/), expect.stringMatching(/^SESSION_SECRET is shorter than 32 characters/)]);
    expect(loadConfig({ SESSION_SECRET: SECRET }, tempCwd()).warnings).toEqual([]);
  });

  it('marks cookies Secure in production whatever APP_ORIGIN says, elsewhere only behind https', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: SECRET, SMTP_URL: 'smtp://mail:25' };
    // HSTS and upgrading requests stay for an https origin: over http they would break the page.
    expect(loadConfig({ ...production, APP_ORIGIN: 'http://localhost:3000' }, tempCwd())).toMatchObject({ secureCookies: true, httpsOrigin: false });
    expect(loadConfig({ SESSION_SECRET: SECRET, APP_ORIGIN: 'http://localhost:3000' }, tempCwd()).secureCookies).toBe(false);
    expect(loadConfig({ SESSION_SECRET: SECRET, APP_ORIGIN: 'https://tasks.example.com' }, tempCwd())).toMatchObject({ secureCookies: true, httpsOrigin: true });
  });

  it('refuses production without SESSION_SECRET, then without SMTP_URL', () => {
    expect(failure({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' }).variable).toBe('SESSION_SECRET');
    expect(failure({ NODE_ENV: 'production', SESSION_SECRET: SECRET }).variable).toBe('SMTP_URL');
  });

  it('logs pretty text on a terminal and JSON lines otherwise, unless LOG_FORMAT says', () => {
    const env = { SESSION_SECRET: SECRET };
    expect(loadConfig(env, tempCwd(), true).logFormat).toBe('pretty');
    expect(loadConfig(env, tempCwd(), false).logFormat).toBe('json');
    expect(loadConfig({ ...env, LOG_FORMAT: 'json' }, tempCwd(), true).logFormat).toBe('json');
    expect(loadConfig({ ...env, LOG_FORMAT: 'Pretty' }, tempCwd(), false).logFormat).toBe('pretty');
    expect(failure({ ...env, LOG_FORMAT: 'xml' }).variable).toBe('LOG_FORMAT');
  });

  it('defaults APP_ORIGIN to http://localhost:PORT', () => {
    expect(loadConfig({ PORT: '4321', SESSION_SECRET: SECRET }, tempCwd()).appOrigin).toBe('http://localhost:4321');
  });
});

describe('the documented settings', () => {
  it('.env.example and the README name every variable the server reads', () => {
    const readNames = new Set<string>();
    const env = new Proxy<Record<string, string>>({}, {
      get(target, name) {
        if (typeof name === 'string') readNames.add(name);
        return undefined;
      },
    });
    loadConfig(env, tempCwd());
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readNames.size).toBeGreaterThan(20);
    for (const name of readNames) {
      if (name === 'NODE_ENV') continue; // Node's own, set by the host, not a Taskwise setting
      expect(example, `.env.example lacks ${name}`).toMatch(new RegExp(`^(# ?)?${name}=`, 'm'));
      expect(readme, `README.md lacks ${name}`).toContain(`\`${name}\``);
    }
  });
});

describe('push configuration', () => {
  it('generates a VAPID key pair once into ./data/vapid-keys.json (owner-only) and keeps it', () => {
    const cwd = tempCwd();
    const { vapid, outboundAllowPrivate } = loadConfig({ SESSION_SECRET: SECRET, MAIL_FROM: 'Tasks <tasks@example.com>' }, cwd);
    expect(vapid.subject).toBe('mailto:tasks@example.com');
    expect(outboundAllowPrivate).toBe(false);
    expect(Buffer.from(vapid.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(vapid.privateKey, 'base64url')).toHaveLength(32);
    const file = join(cwd, 'data', 'vapid-keys.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ publicKey: vapid.publicKey, privateKey: vapid.privateKey });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ SESSION_SECRET: SECRET }, cwd).vapid).toMatchObject({ publicKey: vapid.publicKey, privateKey: vapid.privateKey });
    // web-push accepts them.
    expect(() => { webpush.setVapidDetails(vapid.subject, vapid.publicKey, vapid.privateKey); }).not.toThrow();
  });

  it('reads VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT and OUTBOUND_ALLOW_PRIVATE, and writes no file', () => {
    const cwd = tempCwd();
    const config = loadConfig(
      { SESSION_SECRET: SECRET, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'https://tasks.example.com/contact', OUTBOUND_ALLOW_PRIVATE: 'TRUE' },
      cwd,
    );
    expect(config.vapid).toEqual({ ...keys, subject: 'https://tasks.example.com/contact' });
    expect(config.outboundAllowPrivate).toBe(true);
    expect(() => statSync(join(cwd, 'data', 'vapid-keys.json'))).toThrow();
  });

  it('stops on a stored file that is not a key pair', () => {
    const cwd = tempCwd();
    loadConfig({ SESSION_SECRET: SECRET }, cwd);
    writeFileSync(join(cwd, 'data', 'vapid-keys.json'), '{"publicKey":"x","privateKey":"y"}');
    expect(failure({ SESSION_SECRET: SECRET }, cwd).variable).toBe('VAPID_PRIVATE_KEY');
  });
});

describe('node server/server.ts with bad configuration', () => {
  it('exits 1 and prints one line naming the variable', () => {
    const serverFile = fileURLToPath(new URL('../server.ts', import.meta.url));
    const result = spawnSync(process.execPath, [serverFile], {
      cwd: tempCwd(),
      env: { PATH: process.env.PATH ?? '', PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });
});
