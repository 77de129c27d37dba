import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createFileStore } from '../files/create-file-store.ts';
import { runCommand } from './commands.ts';
import { createSignedInUser, signIn, uniqueEmail } from './factories.ts';
import { insertAttachment } from './files-support.ts';
import { useTestApp } from './helpers.ts';
import { startS3Server } from './s3-server.ts';

/** `npm run admin` against the database the (in-process) app uses. */
const t = useTestApp();
const env = () => ({
  DATABASE_URL: t.config.database.kind === 'sqlite' ? `file:${t.config.database.file}` : t.config.database.url,
  // The app's own files directory (the tests give each app one; never ./data/files of the checkout).
  ...(t.config.files.kind === 'disk' ? { FILES_DIR: t.config.files.dir } : {}),
});
const admin = (args: string[], stdin?: string, extra: Record<string, string> = {}) =>
  runCommand('admin', args, { env: { ...env(), ...extra }, cwd: process.cwd(), ...(stdin === undefined ? {} : { stdin }) });
const me = (cookie: string) => t.request('GET', '/api/users/me', { cookie });

// Each test runs the command as a process of its own (up to six, one after another): a hang guard
// that a busy two-core machine stays well inside, as for the other suites that start processes.
describe('npm run admin', { timeout: 60_000 }, () => {
  it('users:create prints a one-time password that signs in, or takes one from standard input', async () => {
    const generated = uniqueEmail('admin');
    const created = await admin(['users:create', '--email', generated.toUpperCase(), '--name', ' Ada Admin ']);
    expect(created.code, created.stderr).toBe(0);
    const password = /one-time password: (\S+) /.exec(created.stdout)?.[1] ?? '';
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    const cookie = await signIn(t, { email: generated, password });
    expect((await me(cookie)).json.data.user).toEqual({ email: generated, fullName: 'Ada Admin' });

    const chosen = uniqueEmail('admin');
    const withStdin = await admin(['users:create', '--email', chosen, '--name', 'Bo', '--password-stdin'], 'a chosen password\n');
    expect(withStdin).toEqual({ code: 0, stdout: `Created ${chosen}.\n`, stderr: '' });
    await signIn(t, { email: chosen, password: 'a chosen password' });
    // No browser made it: English, and English's week and clock.
    const row = await t.app.db.selectFrom('users').select(['language', 'weekStart', 'hourCycle']).where('email', '=', chosen).executeTakeFirstOrThrow();
    expect(row).toEqual({ language: 'en', weekStart: 'sunday', hourCycle: 'h12' });
  });

  it('users:create refuses a taken e-mail, a bad one, a short password, and changes nothing', async () => {
    const email = uniqueEmail('admin');
    expect((await admin(['users:create', '--email', email, '--name', 'First'])).code).toBe(0);
    const cases: [string[], string | undefined, RegExp][] = [
      [['users:create', '--email', email, '--name', 'Second'], undefined, /already exists/],
      [['users:create', '--email', 'not-an-email', '--name', 'X'], undefined, /^--email: /],
      [['users:create', '--email', uniqueEmail('x'), '--name', '   '], undefined, /^--name: /],
      [['users:create', '--email', uniqueEmail('x'), '--name', 'X', '--password-stdin'], 'short\n', /^Password: /],
    ];
    for (const [args, stdin, message] of cases) {
      const res = await admin(args, stdin);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
    const list = await admin(['users:list']);
    expect(list.stdout).not.toContain('not-an-email');
    expect(list.stdout).toContain(`${email}\tFirst\t`);
    expect(list.stdout).not.toContain('Second');
  });

  it('users:list prints one line per account: e-mail, full name, created date', async () => {
    const email = uniqueEmail('listed');
    await admin(['users:create', '--email', email, '--name', 'Listed Person']);
    const res = await admin(['users:list']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^${email.replace(/[.+]/g, '\\$&')}\tListed Person\t\\d{4}-\\d{2}-\\d{2}$`, 'm'));
  });

  it('users:list leaves deleted accounts out', async () => {
    const { user, cookie } = await createSignedInUser(t);
    expect((await admin(['users:list'])).stdout).toContain(user.email);
    expect((await t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } })).status).toBe(204);
    const res = await admin(['users:list']);
    expect(res.stdout).not.toContain(user.email);
    expect(res.stdout).not.toContain('@deleted.invalid');
  });

  it('users:reset-password sets a new password and ends every session of the user', async () => {
    const email = uniqueEmail('reset');
    await admin(['users:create', '--email', email, '--name', 'Reset Me', '--password-stdin'], 'the old password');
    const cookies = [await signIn(t, { email, password: 'the old password' }), await signIn(t, { email, password: 'the old password' })];

    const res = await admin(['users:reset-password', '--email', email]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/; 2 session\(s\) ended\.\n$/);
    for (const cookie of cookies) expect((await me(cookie)).status).toBe(401);
    const old = await t.request('POST', '/api/users/login', { body: { email, password: 'the old password' } });
    expect(old.status).toBe(401);
    await signIn(t, { email, password: /New password for \S+: (\S+);/.exec(res.stdout)?.[1] ?? '' });

    const chosen = await admin(['users:reset-password', '--email', email, '--password-stdin'], 'another password\n');
    expect(chosen.stdout).toBe(`New password for ${email}; 1 session(s) ended.\n`);
    await signIn(t, { email, password: 'another password' });
  });

  it('sessions:revoke ends every session of that user only', async () => {
    const [email, other] = [uniqueEmail('revoke'), uniqueEmail('keep')];
    for (const address of [email, other]) await admin(['users:create', '--email', address, '--name', 'R', '--password-stdin'], 'revoke password');
    const mine = await signIn(t, { email, password: 'revoke password' });
    const theirs = await signIn(t, { email: other, password: 'revoke password' });

    const res = await admin(['sessions:revoke', '--email', email]);
    expect(res).toEqual({ code: 0, stdout: `Ended 1 session(s) of ${email}.\n`, stderr: '' });
    expect((await me(mine)).status).toBe(401);
    expect((await me(theirs)).status).toBe(200);
  });

  it('users:reset-2fa turns two-step sign-in off: the password alone signs in again', async () => {
    const email = uniqueEmail('reset2fa');
    await admin(['users:create', '--email', email, '--name', 'T', '--password-stdin'], 'two-step password');
    const cookie = await signIn(t, { email, password: 'two-step password' });
    const { secret } = (await t.request('POST', '/api/account/two-step/setup', { cookie })).json.data as unknown as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
    expect((await t.request('POST', '/api/account/two-step/confirm', { cookie, body: { code } })).status).toBe(200);
    const asked = await t.request('POST', '/api/users/login', { body: { email, password: 'two-step password' } });
    expect(asked.sessionCookie).toBeUndefined();

    const res = await admin(['users:reset-2fa', '--email', email]);
    expect(res).toEqual({ code: 0, stdout: `Two-step sign-in is off for ${email}; they sign in with the password alone and may set it up again.\n`, stderr: '' });
    await signIn(t, { email, password: 'two-step password' });
    // The sign-in that was waiting for a code is gone with it.
    const pending = (asked.json.data as unknown as { secondStep: { token: string } }).secondStep.token;
    expect((await t.request('POST', '/api/users/login/second-step', { body: { token: pending, code } })).status).toBe(400);
    expect((await admin(['users:reset-2fa', '--email', email])).stdout).toBe(`Two-step sign-in was not set up for ${email}; nothing changed.\n`);
  });

  it('files:check exits 0 when rows and files agree, else 1 listing rows without a file and files without a row', async () => {
    const dir = t.config.files.kind === 'disk' ? t.config.files.dir : '';
    const store = (key: string) => {
      mkdirSync(dirname(join(dir, key)), { recursive: true });
      writeFileSync(join(dir, key), key);
    };
    await insertAttachment(t, 'attachments/whole', 'thumbnails/whole.webp');
    store('attachments/whole');
    store('thumbnails/whole.webp');
    // An upload in flight: its file is stored, its row not yet written, its sweep row says so.
    store('attachments/in-flight');
    await t.app.db.insertInto('fileSweeps').values({ storageKey: 'attachments/in-flight', dueAt: '2999-01-01T00:00:00.000Z' }).execute();
    expect(await admin(['files:check'])).toEqual({ code: 0, stdout: expect.stringMatching(/^Files and attachments agree: .+\n$/) as string, stderr: '' });

    await insertAttachment(t, 'attachments/lost', null);
    store('attachments/stray');
    store('thumbnails/stray.webp');
    const res = await admin(['files:check']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('');
    expect(res.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^1 stored file\(s\) that attachments point at are missing \(those attachments cannot be downloaded/) as string,
      '  attachments/lost',
      expect.stringMatching(/^2 stored file\(s\) belong to no attachment \(/) as string,
      '  attachments/stray',
      '  thumbnails/stray.webp',
    ]);
  });

  it('files:check reads the S3 bucket when S3_URL names one', async () => {
    const s3 = await startS3Server();
    try {
      await insertAttachment(t, 'attachments/s3-kept', null);
      await insertAttachment(t, 'attachments/s3-lost', null);
      const bucket = createFileStore(s3.config);
      for (const key of ['attachments/s3-kept', 'attachments/s3-stray']) await bucket.put(key, Readable.from([Buffer.from(key)]));
      await bucket.close();
      const res = await admin(['files:check'], undefined, { S3_URL: `s3://S3RVER:S3RVER@${new URL(s3.config.endpoint).host}/${s3.config.bucket}?forcePathStyle=true` });
      expect(res.code).toBe(1);
      const [missing = '', unnamed = ''] = res.stdout.split(/^\d+ stored file\(s\) belong to no attachment .*$/m);
      expect(missing).toMatch(/ are missing /);
      expect(missing).toContain('\n  attachments/s3-lost\n');
      expect(unnamed).toBe('\n  attachments/s3-stray\n');
      expect(res.stdout).not.toContain('s3-kept');
    } finally {
      await s3.stop();
    }
  });

  it('says what is wrong in one line, exit 1, for an unknown account, command or option', async () => {
    for (const args of [['sessions:revoke', '--email', uniqueEmail('nobody')], ['users:delete'], ['users:list', '--all'], []]) {
      const res = await admin(args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/There is no account|Usage: npm run admin/);
    }
  });
});
