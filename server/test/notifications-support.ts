import type { AddressInfo } from 'node:net';
import type { Notification } from '#shared/schemas/notifications.ts';
import { newId } from '../db/ids.ts';
import type { TestUser } from './factories.ts';
import type { TestApp } from './helpers.ts';

/** The `data` of GET /api/notifications. */
export interface Inbox {
  notifications: Notification[];
  unreadCount: number;
  nextCursor: string | null;
}

/** The notification calls as a signed-in user makes them. */
export function notificationsApi(t: TestApp) {
  return {
    list: (cookie: string, query = '') => t.request('GET', `/api/notifications${query === '' ? '' : `?${query}`}`, { cookie }),
    async inbox(cookie: string, query = ''): Promise<Inbox> {
      const res = await t.request('GET', `/api/notifications${query === '' ? '' : `?${query}`}`, { cookie });
      if (res.status !== 200) throw new Error(`GET /api/notifications answered ${res.status}: ${res.body}`);
      return (res.json as unknown as { data: Inbox }).data;
    },
    read: (cookie: string, body: unknown) => t.request('POST', '/api/notifications/read', { cookie, body }),
    settings: (cookie: string) => t.request('GET', '/api/notification-settings', { cookie }),
    setSettings: (cookie: string, body: unknown) => t.request('PATCH', '/api/notification-settings', { cookie, body }),
  };
}

/** The stored notifications of a user as (type, text) pairs, newest first. */
export async function storedOf(t: TestApp, user: Pick<TestUser, 'id'>) {
  return t.app.db
    .selectFrom('notifications')
    .select(['type', 'text'])
    .where('userId', '=', user.id)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A push subscription of `user`, written straight into the table (the push API is tested elsewhere). */
export async function insertSubscription(t: TestApp, user: Pick<TestUser, 'id'>): Promise<string> {
  const id = newId();
  await t.app.db
    .insertInto('pushSubscriptions')
    .values({ id, userId: user.id, endpoint: `https://push.example.test/${id}`, p256dh: 'key', auth: 'auth', createdAt: t.clock.now().toISOString() })
    .execute();
  return id;
}

/** `count` read or unread notifications of `user`, written in bulk, 1 ms apart from `start` (oldest first); their ids, oldest first. */
export async function insertNotifications(t: TestApp, user: Pick<TestUser, 'id'>, count: number, options: { start?: Date; read?: boolean } = {}): Promise<string[]> {
  const start = (options.start ?? t.clock.now()).getTime();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    userId: user.id,
    type: 'board_added' as const,
    text: `Old news ${i}`,
    taskId: null,
    taskTitle: null,
    boardId: 'b',
    boardName: 'A board',
    byName: 'Someone',
    byEmail: 'someone@example.test',
    createdAt: new Date(start + i).toISOString(),
    readAt: options.read === true ? new Date(start + i).toISOString() : null,
  }));
  for (let i = 0; i < rows.length; i += 500) await t.app.db.insertInto('notifications').values(rows.slice(i, i + 500)).execute();
  return rows.map((row) => row.id);
}

/** The app on a real socket (127.0.0.1, a free port), for event streams. */
export async function listening(t: TestApp): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}
