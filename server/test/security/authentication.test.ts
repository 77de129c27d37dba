import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/constants.ts';
import { registerThroughApi, uniqueEmail } from '../factories.ts';
import { useTestApp } from '../helpers.ts';

/**
 * Password rules and storage (ASVS 2.1.x, 2.4.x, 2.5.4). Length limits and "not the e-mail"
 * are in ../users-register.test.ts; this file proves the properties around them.
 */
const t = useTestApp();

const login = (email: string, password: string) => t.request('POST', '/api/users/login', { body: { email, password } });

describe('passwords', () => {
  it(`accepts ${LIMITS.passwordMax} characters and does not truncate them: one character less does not sign in`, async () => {
    const password = 'long-passphrase '.repeat(8).slice(0, LIMITS.passwordMax);
    expect(password).toHaveLength(LIMITS.passwordMax);
    const user = await registerThroughApi(t, { password });
    expect((await login(user.email, password)).status).toBe(200);
    expect((await login(user.email, password.slice(0, -1))).status).toBe(401);
    expect((await login(user.email, `${password}x`)).status).toBe(401);
  });

  it('accepts any printable Unicode, emoji included, and compares it exactly', async () => {
    const password = 'Пароль 🔐 密码 ñandú';
    const user = await registerThroughApi(t, { password });
    expect((await login(user.email, password)).status).toBe(200);
    // Another normalization form of the same text is a different password (no silent folding).
    expect((await login(user.email, password.normalize('NFD'))).status).toBe(401);
  });

  it('has no composition rules: eight lower-case letters are enough', async () => {
    const user = await registerThroughApi(t, { password: 'abcdefgh' });
    expect((await login(user.email, 'abcdefgh')).status).toBe(200);
  });

  it('stores argon2id hashes (m=19 MiB, t=2, p=1) with a unique salt, never the password', async () => {
    const password = 'the very same password';
    const a = await registerThroughApi(t, { password });
    const b = await registerThroughApi(t, { password });
    const rows = await t.app.db.selectFrom('users').select(['email', 'passwordHash']).where('email', 'in', [a.email, b.email]).execute();
    expect(rows).toHaveLength(2);
    const [first, second] = rows.map((r) => r.passwordHash);
    for (const hash of [first!, second!]) {
      expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22,}\$[A-Za-z0-9+/]{43,}$/);
      expect(hash).not.toContain(password);
    }
    expect(first).not.toBe(second);
    const salt = (hash: string) => hash.split('$')[4]!;
    expect(salt(first!)).not.toBe(salt(second!));
    // At least 128 bits of salt (ASVS asks for 32).
    expect(Buffer.from(salt(first!), 'base64').length).toBeGreaterThanOrEqual(16);
  });
});

describe('accounts', () => {
  it('a freshly migrated database has no accounts, default or otherwise', async () => {
    const rows = await t.app.db.selectFrom('users').select('email').where('email', 'not like', '%@example.test').execute();
    expect(rows).toEqual([]);
    for (const email of ['admin@example.com', 'root@example.org', 'test@test.com', 'administrator@taskwise.local']) {
      expect((await login(email, 'admin')).status).toBe(401);
    }
    expect(uniqueEmail()).toMatch(/@example\.test$/);
  });
});
