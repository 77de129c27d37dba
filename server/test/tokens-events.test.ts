import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createTask, uniqueEmail } from './factories.ts';
import { DAY, useTestApp } from './helpers.ts';
import { openStream, type SseStream } from './sse-client.ts';
import { createToken, withToken } from './tokens-support.ts';

/**
 * GET /api/events with an API token: a read token may open it, and the stream belongs to the
 * token as a cookie's stream belongs to its session: it ends when the token is revoked (here,
 * or on another instance: the periodic check) or expires. Each test waits for the end itself.
 */
const t = useTestApp();

async function listening(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function tokenStream(secret: string): Promise<SseStream> {
  const stream = await openStream(await listening(), undefined, undefined, { authorization: `Bearer ${secret}` });
  expect(stream.status, stream.body).toBe(200);
  await stream.position();
  return stream;
}

describe('GET /api/events with an API token', () => {
  it("a read token streams its user's events, without a cookie or an Origin", async () => {
    const { cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie, { access: 'read' });
    const stream = await tokenStream(secret);
    const task = await createTask(t, cookie);
    const event = await stream.nextOf('task.created');
    expect((event.json as { task: { _id: string } }).task._id).toBe(task._id);
    stream.close();
  });

  it('refuses a bad token with 401', async () => {
    const stream = await openStream(await listening(), undefined, undefined, { authorization: `Bearer tw_${'x'.repeat(43)}` });
    expect(stream.status).toBe(401);
  });

  it('ends when the token is revoked; another token of the user keeps its stream', async () => {
    const { cookie } = await createSignedInUser(t);
    const revoked = await createToken(t, cookie);
    const kept = await createToken(t, cookie, { access: 'read' });
    const stream = await tokenStream(revoked.secret);
    const other = await tokenStream(kept.secret);
    expect((await t.request('DELETE', `/api/tokens/${revoked.token._id}`, { cookie })).status).toBe(204);
    await stream.ended;
    await createTask(t, cookie);
    await other.nextOf('task.created');
    other.close();
  });

  it('ends when the token is deleted elsewhere (another instance): found by the periodic check', async () => {
    const { cookie } = await createSignedInUser(t);
    const { token, secret } = await createToken(t, cookie);
    const stream = await tokenStream(secret);
    // Straight in the database, as another instance would: this one hears nothing of it.
    await t.app.db.deleteFrom('apiTokens').where('id', '=', token._id).execute();
    await stream.ended;
  });

  it('ends when the token expires', async () => {
    const { cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie, { expiresInDays: 1 });
    const stream = await tokenStream(secret);
    t.clock.advance(DAY);
    await stream.ended;
  });

  it('ends on sign out everywhere, with the sessions', async () => {
    const { cookie } = await createSignedInUser(t);
    const { secret } = await createToken(t, cookie);
    const stream = await tokenStream(secret);
    expect((await t.request('POST', '/api/users/logout-all', { cookie })).status).toBe(200);
    await stream.ended;
  });

  it("the periodic check that ends a token deleted elsewhere keeps a never-expiring token's stream, its session long run out", async () => {
    const { cookie } = await createSignedInUser(t);
    const kept = await createToken(t, cookie);
    const witness = await createToken(t, cookie);
    const stream = await tokenStream(kept.secret);
    const witnessStream = await tokenStream(witness.secret);
    // Every session of the user has run out by now; the never-expiring token has not.
    t.clock.advance(400 * DAY);
    // Straight in the database, as another instance would: only the periodic check can end the
    // witness's stream. Its end proves that a check ran after the clock moved, and the same
    // query judged the kept token's stream, which must still deliver.
    await t.app.db.deleteFrom('apiTokens').where('id', '=', witness.token._id).execute();
    await witnessStream.ended;
    const res = await withToken(t, kept.secret)('POST', '/api/tasks', { body: { taskTitle: 'Still here', assignee: uniqueEmail() } });
    expect(res.status, res.body).toBe(201);
    await stream.nextOf('task.created');
    stream.close();
  });
});
