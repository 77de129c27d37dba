import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SESSION_POLICY } from '#shared/constants.ts';
import { SESSION_CHECK_MS } from '../events/policy.ts';
import { runCommand } from './commands.ts';
import { createSignedInUser, createTask, nextIp, signIn } from './factories.ts';
import { DAY, useTestApp } from './helpers.ts';
import { codeFrom } from './mail-catcher.ts';
import { openStream, type SseStream } from './sse-client.ts';

/**
 * An open event stream belongs to the session it was opened with: it ends when that session
 * ends, whatever ends it, and when its user loses the account. A stream only ends by itself
 * here; each test waits for the end, never for a time.
 */
const t = useTestApp();

async function listening(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A stream that has started (it sent its position), so it is registered and leased. */
async function liveStream(cookie: string): Promise<SseStream> {
  const stream = await openStream(await listening(), cookie);
  expect(stream.status).toBe(200);
  await stream.position();
  return stream;
}

/** The stream is still open and still receives its user's events. */
async function stillLive(stream: SseStream, cookie: string): Promise<void> {
  const task = await createTask(t, cookie);
  const event = await stream.nextOf('task.created');
  expect((event.json as { task: { _id: string } }).task._id).toBe(task._id);
}

describe('an open event stream ends with its session', () => {
  it('checks the database for ended sessions at least every 2 s (the end is due within 5 s)', () => {
    expect(SESSION_CHECK_MS).toBeLessThanOrEqual(2000);
  });

  it('ends on logout, and another session of the same user keeps its stream', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const stream = await liveStream(cookie);
    const otherStream = await liveStream(other);
    expect((await t.request('POST', '/api/users/logout', { cookie })).status).toBe(200);
    await stream.ended;
    await stillLive(otherStream, other);
    otherStream.close();
  });

  it('ends on GET /api/users/logout too', async () => {
    const { cookie } = await createSignedInUser(t);
    const stream = await liveStream(cookie);
    expect((await t.request('GET', '/api/users/logout', { cookie })).status).toBe(200);
    await stream.ended;
  });

  it('ends every stream of the user on sign out everywhere', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const streams = [await liveStream(cookie), await liveStream(other), await liveStream(other)];
    expect((await t.request('POST', '/api/users/logout-all', { cookie })).status).toBe(200);
    await Promise.all(streams.map((s) => s.ended));
    expect(t.app.events.openStreams).toBe(0);
  });

  it('on a password change, ends the streams of the other sessions and keeps this one', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const thief = await signIn(t, user);
    const mine = await liveStream(cookie);
    const stolen = await liveStream(thief);
    const res = await t.request('POST', '/api/users/me/password', { cookie, body: { currentPassword: user.password, newPassword: 'a new secret password' } });
    expect(res.status, res.body).toBe(200);
    await stolen.ended;
    await stillLive(mine, cookie);
    mine.close();
  });

  it('ends on a password reset', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const stream = await liveStream(cookie);
    expect((await t.request('POST', '/api/password-resets', { body: { email: user.email }, ip: nextIp() })).status).toBe(201);
    const otp = codeFrom(t.mail.last(user.email));
    const res = await t.request('POST', '/api/password-resets/confirm', { body: { email: user.email, otp, password: 'a reset password here' } });
    expect(res.status, res.body).toBe(200);
    await stream.ended;
  });

  it('ends when the account is deleted', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const other = await signIn(t, user);
    const stream = await liveStream(other);
    const res = await t.request('DELETE', '/api/users/me', { cookie, body: { password: user.password } });
    expect(res.status, res.body).toBe(204);
    await stream.ended;
  });

  it('ends when a new sign-in replaces the session the browser had', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const stream = await liveStream(cookie);
    const res = await t.request('POST', '/api/users/login', { cookie, body: { email: user.email, password: user.password } });
    expect(res.status, res.body).toBe(200);
    await stream.ended;
  });

  it('ends when the session expires', async () => {
    const { cookie } = await createSignedInUser(t);
    const stream = await liveStream(cookie);
    t.clock.advance(SESSION_POLICY.ttlMs + DAY);
    await stream.ended;
  });

  it('ends when another process ends the session (npm run admin -- sessions:revoke)', async () => {
    const { user, cookie } = await createSignedInUser(t);
    const stream = await liveStream(cookie);
    const database = t.config.database;
    const env = { DATABASE_URL: database.kind === 'sqlite' ? `file:${database.file}` : database.url };
    const res = await runCommand('admin', ['sessions:revoke', '--email', user.email], { env, cwd: process.cwd() });
    expect(res.stdout).toBe(`Ended 1 session(s) of ${user.email}.\n`);
    await stream.ended;
  });
});
