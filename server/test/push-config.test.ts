import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { ConfigError, loadConfig } from '../config.ts';

const SECRET = 'a-session-secret-that-is-long-enough-123';
const dirs: string[] = [];
const tempCwd = () => {
  const dir = mkdtempSync(join(tmpdir(), 'taskwise-push-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const failure = (env: Record<string, string>, cwd = tempCwd()): ConfigError => {
  try {
    loadConfig({ SESSION_SECRET: SECRET, ...env }, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

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
    const keys = webpush.generateVAPIDKeys();
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
    expect(failure({}, cwd).variable).toBe('VAPID_PRIVATE_KEY');
  });

  const keys = webpush.generateVAPIDKeys();
  const other = webpush.generateVAPIDKeys();
  it.each([
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
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('\n');
  });
});
