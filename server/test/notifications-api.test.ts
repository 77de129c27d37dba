import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { NOTIFICATION_POLICY, NOTIFICATION_TYPES, type Notification, type PushPayload } from '#shared/schemas/notifications.ts';
import { sweep } from '../plugins/housekeeping.ts';
import { boardsApi, dataOf } from './boards-support.ts';
import { createSignedInUser, createTask, type TestUser } from './factories.ts';
import { DAY, useTestApp } from './helpers.ts';
import { insertNotifications, insertSubscription, listening, notificationsApi, storedOf } from './notifications-support.ts';
import { openStream } from './sse-client.ts';

/** The inbox API (list, mark read, settings), its live events, pushes, the cap and retention. */
const t = useTestApp();
const api = notificationsApi(t);

const allTypes = (on: boolean) => Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, on]));
/** The notification events of `user`, oldest first. */
const eventsOf = async (user: Pick<TestUser, 'email'>) =>
  (
    await t.app.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('type', 'in', ['notification.created', 'notification.read'])
      .where('audience', '=', JSON.stringify([user.email]))
      .orderBy('id')
      .execute()
  ).map((e) => ({
    type: e.type,
    data: JSON.parse(e.payload) as Record<string, unknown>,
  }));

describe('GET /api/notifications', () => {
  it('pages newest first with an opaque cursor, filters unread, bounds the limit and refuses a bad cursor', async () => {
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const read = await insertNotifications(t, ada.user, 10, { read: true });
    const unread = await insertNotifications(t, ada.user, 35, { start: new Date(t.clock.now().getTime() + 100) });
    await insertNotifications(t, bob.user, 3);
    const newestFirst = [...read, ...unread].toReversed();

    const first = await api.inbox(ada.cookie);
    expect(first.notifications).toHaveLength(NOTIFICATION_POLICY.pageDefault);
    expect(first.unreadCount).toBe(35);
    const seen = first.notifications.map((n) => n._id);
    let cursor = first.nextCursor;
    while (cursor !== null) {
      const page = await api.inbox(ada.cookie, `limit=7&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...page.notifications.map((n) => n._id));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(newestFirst);

    const onlyUnread = await api.inbox(ada.cookie, 'unread=true&limit=100');
    expect(onlyUnread.notifications.map((n) => n._id)).toEqual(unread.toReversed());
    expect(onlyUnread.nextCursor).toBeNull();

    for (const query of ['limit=0', `limit=${NOTIFICATION_POLICY.pageMax + 1}`, 'cursor=bm9wZQ', 'unread=maybe']) {
      const res = await api.list(ada.cookie, query);
      expect(res.status, query).toBe(400);
      expect(res.json.status).toBe('fail');
    }
    expect((await api.list(ada.cookie, 'cursor=bm9wZQ')).json.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
    expect((await api.list('', '')).status).toBe(401);
  });
});

describe('live events and POST /api/notifications/read', () => {
  it('announces each new notification with the unread count, and marks read by ids (others\u2019 ignored) or all, live', async () => {
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t, { fullName: 'Bob Builder' });
    const [bobsOwn] = await insertNotifications(t, bob.user, 1);
    const stream = await openStream(await listening(t), ada.cookie);
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000);
      await createTask(t, bob.cookie, { assignee: ada.user.email, taskTitle: `Job ${i}` });
    }
    const created: { notification: Notification; unreadCount: number }[] = [];
    for (let i = 0; i < 3; i += 1) created.push((await stream.nextOf('notification.created')).json as (typeof created)[number]);
    const inbox = await api.inbox(ada.cookie);
    expect(created).toEqual(inbox.notifications.toReversed().map((notification, i) => ({ notification, unreadCount: i + 1 })));
    const [oldest, middle] = created.map((c) => c.notification._id);

    const byIds = await api.read(ada.cookie, { ids: [oldest, bobsOwn, 'no-such-id'] });
    expect(byIds.status).toBe(200);
    expect(byIds.json.data).toEqual({ unreadCount: 2 });
    expect((await stream.nextOf('notification.read')).json).toEqual({ ids: [oldest], unreadCount: 2 });
    expect((await api.inbox(bob.cookie)).unreadCount).toBe(1);
    expect((await api.inbox(ada.cookie, 'unread=true')).notifications.map((n) => n._id)).not.toContain(oldest);

    // Already read: nothing changes, no event.
    expect((await api.read(ada.cookie, { ids: [oldest] })).json.data).toEqual({ unreadCount: 2 });
    const all = await api.read(ada.cookie, { all: true });
    expect(all.json.data).toEqual({ unreadCount: 0 });
    expect((await stream.nextOf('notification.read')).json).toEqual({ all: true, unreadCount: 0 });
    expect((await api.read(ada.cookie, { all: true })).json.data).toEqual({ unreadCount: 0 });
    stream.close();
    expect((await eventsOf(ada.user)).map((e) => e.type)).toEqual(['notification.created', 'notification.created', 'notification.created', 'notification.read', 'notification.read']);
    expect((await api.inbox(ada.cookie)).notifications.find((n) => n._id === middle)?.readAt).toBe(t.clock.now().toISOString());

    for (const body of [{}, { ids: [] }, { all: false }, { ids: ['a'], all: true }]) expect((await api.read(ada.cookie, body)).status).toBe(400);
  });
});

describe('/api/notification-settings', () => {
  it('reads every type as on until turned off, and changes only the switches given', async () => {
    const { cookie } = await createSignedInUser(t);
    expect((await api.settings(cookie)).json.data).toEqual({ settings: { app: allTypes(true), push: allTypes(true) } });
    const changed = await api.setSettings(cookie, { app: { assigned: false }, push: { commented: false, overdue: false } });
    expect(changed.status).toBe(200);
    expect(changed.json.message).toBe(ACCOUNT_MESSAGES.settingsSaved);
    const expected = { app: { ...allTypes(true), assigned: false }, push: { ...allTypes(true), commented: false, overdue: false } };
    expect(changed.json.data).toEqual({ settings: expected });
    expect((await api.setSettings(cookie, { push: { overdue: true, commented: false } })).json.data).toEqual({ settings: { ...expected, push: { ...expected.push, overdue: true } } });
    for (const body of [{}, { app: { assigned: 'no' } }, { push: [] }]) {
      expect((await api.setSettings(cookie, body)).status).toBe(400);
    }
    expect((await api.settings('')).status).toBe(401);
  });

  it('app and push are independent: off in the app stores nothing and sends no event but still pushes; off for push stores without pushing', async () => {
    const ada = await createSignedInUser(t, { fullName: 'Ada Lovelace' });
    const bob = await createSignedInUser(t);
    const subscriptions = [await insertSubscription(t, bob.user), await insertSubscription(t, bob.user)];
    const pushesTo = (user: TestUser) => t.app.db.selectFrom('outbox').selectAll().where('kind', '=', 'push').where('toEmail', '=', user.email).execute();

    const task = await createTask(t, ada.cookie, { taskTitle: 'Pay the rent', assignee: bob.user.email });
    const [stored] = (await api.inbox(bob.cookie)).notifications;
    if (stored === undefined) throw new Error('no notification');
    const payload: PushPayload = { title: 'Assigned to you', body: 'Ada Lovelace assigned you \u201cPay the rent\u201d', url: `/tasks/${task._id}`, id: stored._id };
    const now = t.clock.now().toISOString();
    // The worker may already have taken a row (status, attempts, run_at): what the write stored is the rest.
    const bySubscription = (a: { pushSubscriptionId: string | null }, b: { pushSubscriptionId: string | null }) => ((a.pushSubscriptionId ?? '') < (b.pushSubscriptionId ?? '') ? -1 : 1);
    expect((await pushesTo(bob.user)).toSorted(bySubscription)).toEqual(
      subscriptions.toSorted().map((subscription): unknown =>
        expect.objectContaining({
          id: `${stored._id}-${subscription}`,
          kind: 'push',
          toEmail: bob.user.email,
          subject: 'assigned',
          textBody: expect.any(String) as unknown,
          htmlBody: '',
          headers: '{}',
          dedupeKey: `push:${stored._id}:${subscription}`,
          pushSubscriptionId: subscription,
          causedBy: null,
          createdAt: now,
        }),
      ),
    );
    // The payload the device gets, and what it is about: the sender writes it in the reader's language.
    const about = { type: 'assigned', by: { fullName: 'Ada Lovelace', email: ada.user.email }, task: { _id: task._id, taskTitle: 'Pay the rent' }, board: null };
    for (const row of await pushesTo(bob.user)) expect(JSON.parse(row.textBody)).toEqual({ ...payload, about });

    expect((await api.setSettings(bob.cookie, { app: { assigned: false } })).status).toBe(200);
    const events = (await eventsOf(bob.user)).length;
    await createTask(t, ada.cookie, { assignee: bob.user.email });
    expect(await storedOf(t, bob.user)).toHaveLength(1);
    expect(await eventsOf(bob.user)).toHaveLength(events);
    expect(await pushesTo(bob.user)).toHaveLength(4);

    expect((await api.setSettings(bob.cookie, { app: { assigned: true }, push: { assigned: false } })).status).toBe(200);
    await createTask(t, ada.cookie, { assignee: bob.user.email });
    expect(await storedOf(t, bob.user)).toHaveLength(2);
    expect(await eventsOf(bob.user)).toHaveLength(events + 1);
    expect(await pushesTo(bob.user)).toHaveLength(4);
  });
});

describe('limits, retention and the account', () => {
  it(`keeps a person's newest ${NOTIFICATION_POLICY.perUser}, the oldest going at the sweep, from either write path`, async () => {
    const ada = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    const cy = await createSignedInUser(t);
    const old = await insertNotifications(t, bob.user, NOTIFICATION_POLICY.perUser, { start: new Date(t.clock.now().getTime() - DAY) });
    const cyOld = await insertNotifications(t, cy.user, NOTIFICATION_POLICY.perUser, { start: new Date(t.clock.now().getTime() - 3 * DAY) });
    // A task write (PostgreSQL: its one statement), then a board addition (a transaction): each
    // stores its notification and counts it, without deleting anything.
    await createTask(t, ada.cookie, { assignee: bob.user.email });
    const board = dataOf(await boardsApi(t).create(ada.cookie, { name: 'Shed', description: '' })).board;
    expect((await boardsApi(t).addMember(ada.cookie, board._id, bob.user.email)).status).toBe(201);
    const idsOf = async (userId: string) => (await t.app.db.selectFrom('notifications').select('id').where('userId', '=', userId).execute()).map((r) => r.id);
    expect(await idsOf(bob.user.id)).toHaveLength(NOTIFICATION_POLICY.perUser + 2);
    const counts = (await eventsOf(bob.user)).filter((e) => e.type === 'notification.created').map((e) => e.data.unreadCount);
    expect(counts).toEqual([NOTIFICATION_POLICY.perUser + 1, NOTIFICATION_POLICY.perUser + 2]);
    // Cy, at the cap but notified three days ago, is not one the sweep looks at; one more row for
    // him and he is (his oldest goes).
    expect((await sweep(t.app)).notificationsPastCap).toBe(2);
    const ids = await idsOf(bob.user.id);
    expect(ids).toHaveLength(NOTIFICATION_POLICY.perUser);
    expect(ids).not.toContain(old[0]);
    expect(ids).not.toContain(old[1]);
    expect(ids).toContain(old[2]);
    await insertNotifications(t, cy.user, 1);
    expect((await sweep(t.app)).notificationsPastCap).toBe(1);
    const cyIds = await idsOf(cy.user.id);
    expect(cyIds).toHaveLength(NOTIFICATION_POLICY.perUser);
    expect(cyIds).not.toContain(cyOld[0]);
    expect(cyIds).toContain(cyOld[1]);
    expect((await sweep(t.app)).notificationsPastCap).toBe(0);
  });

  it('stores many writes at once to one full inbox, of one sender and of two, without a refused write; the sweep trims it', async () => {
    const ada = await createSignedInUser(t);
    const cy = await createSignedInUser(t);
    const bob = await createSignedInUser(t);
    await insertNotifications(t, bob.user, NOTIFICATION_POLICY.perUser, { start: new Date(t.clock.now().getTime() - DAY) });
    const writes = Array.from({ length: 24 }, (_, i) =>
      t.request('POST', '/api/tasks', { cookie: (i % 3 === 0 ? cy : ada).cookie, body: { taskTitle: `Trim ${i}`, assignee: bob.user.email } }),
    );
    expect((await Promise.all(writes)).map((res) => res.status)).toEqual(writes.map(() => 201));
    expect((await api.inbox(bob.cookie)).unreadCount).toBe(NOTIFICATION_POLICY.perUser + 24);
    expect((await sweep(t.app)).notificationsPastCap).toBe(24);
    expect((await api.inbox(bob.cookie)).unreadCount).toBe(NOTIFICATION_POLICY.perUser);
    const count = await t.app.db.selectFrom('notifications').select((eb) => eb.fn.countAll().as('n')).where('userId', '=', bob.user.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(NOTIFICATION_POLICY.perUser);
  });

  it(`deletes notifications older than ${NOTIFICATION_POLICY.keepDays} days; they go with the account, after its export`, async () => {
    const bob = await createSignedInUser(t);
    const start = t.clock.now().getTime();
    await insertNotifications(t, bob.user, 1, { start: new Date(start - (NOTIFICATION_POLICY.keepDays + 1) * DAY) });
    const [kept] = await insertNotifications(t, bob.user, 1, { start: new Date(start - (NOTIFICATION_POLICY.keepDays - 1) * DAY) });
    await sweep(t.app);
    expect((await api.inbox(bob.cookie)).notifications.map((n) => n._id)).toEqual([kept]);

    const exported = await t.request('GET', '/api/users/me/export', { cookie: bob.cookie });
    expect((JSON.parse(exported.body) as { notifications: Notification[] }).notifications.map((n) => n._id)).toEqual([kept]);
    await insertSubscription(t, bob.user);
    expect((await api.setSettings(bob.cookie, { push: { assigned: false } })).status).toBe(200);
    expect((await t.request('DELETE', '/api/users/me', { cookie: bob.cookie, body: { password: bob.user.password } })).status).toBe(204);
    for (const table of ['notifications', 'notificationMutes', 'pushSubscriptions'] as const) {
      expect(await t.app.db.selectFrom(table).select('userId').where('userId', '=', bob.user.id).execute(), table).toEqual([]);
    }
  });
});
