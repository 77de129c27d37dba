import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  MarkReadBody,
  NOTIFICATION_POLICY,
  NotificationListEnvelope,
  NotificationListQuery,
  UnreadCountEnvelope,
  type NotificationReadData,
} from '#shared/schemas/notifications.ts';
import { currentUser } from '../../plugins/session.ts';
import { appendEvent } from '../../repositories/events-repository.ts';
import { decodeCursor, encodeCursor } from '../tasks/cursor.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import notificationSettings from './settings.ts';
import { requestLanguage } from '../../i18n/request-language.ts';
import { notificationText } from '../../services/notifications.ts';

/**
 * The signed-in person's in-app notifications (written by the changes that cause them:
 * services/notifications.ts). Pages are newest first by (created_at, id), with an opaque keyset
 * cursor; marking read tells the person's other tabs and devices with a `notification.read` event.
 */
const notifications: FastifyPluginAsyncTypebox = async (fastify) => {
  const { clock } = fastify;
  const repo = fastify.notificationsRepository;

  fastify.get(
    '/notifications',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'My notifications, newest first',
        description:
          `At most \`limit\` (default ${NOTIFICATION_POLICY.pageDefault}, at most ${NOTIFICATION_POLICY.pageMax}); \`nextCursor\` (null on the last page) ` +
          'asks for the next page; `unread=true` lists only unread ones. `unreadCount` counts all my unread ones. ' +
          `Notifications are kept ${NOTIFICATION_POLICY.keepDays} days, and past a person's newest ${NOTIFICATION_POLICY.perUser} the oldest go at the next hourly sweep. ` +
          '400 VALIDATION_ERROR for a cursor that is not one of ours.',
        security: sessionSecurity,
        querystring: NotificationListQuery,
        response: { 200: serializable(NotificationListEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { limit = NOTIFICATION_POLICY.pageDefault, cursor, unread = false } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor('newest', cursor);
      const user = currentUser(request);
      // One row more than the page tells whether another page follows.
      const rows = await repo.list(user.id, { limit: limit + 1, unread, after });
      // Said in the reader's language (the stored text is English).
      const language = requestLanguage(request);
      const page = rows.slice(0, limit).map((n) => ({ ...n, text: notificationText(n, language) }));
      const last = page.at(-1);
      const nextCursor = rows.length > limit && last !== undefined ? encodeCursor('newest', { createdAt: last.at, id: last._id }) : null;
      const unreadCount = await repo.unreadCount(user.id);
      return { status: 'success', data: { notifications: page, unreadCount, nextCursor } } as const;
    },
  );

  fastify.post(
    '/notifications/read',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Mark notifications read',
        description:
          `\`{ids}\` (at most ${NOTIFICATION_POLICY.readIdsMax}) or \`{all: true}\`; ids that are not mine are ignored. ` +
          'Answers my unread count; when something changed, my event streams get `notification.read` `{ids|all, unreadCount}`.',
        security: sessionSecurity,
        body: MarkReadBody,
        response: { 200: serializable(UnreadCountEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { ids } = request.body;
      const which = ids === undefined ? { all: true as const } : { ids };
      const unreadCount = await fastify.events.transaction(async (trx) => {
        const changed = await repo.markRead(user.id, which, clock.now().toISOString(), trx);
        const count = await repo.unreadCount(user.id, trx);
        if (changed.length > 0) {
          const data: NotificationReadData = 'ids' in which ? { ids: changed, unreadCount: count } : { all: true, unreadCount: count };
          await appendEvent(trx, { type: 'notification.read', subjectId: user.id, boardId: null, audience: [user.email], data, at: clock.now().toISOString() });
        }
        return count;
      });
      return { status: 'success', data: { unreadCount } } as const;
    },
  );

  await fastify.register(notificationSettings);
};

export default notifications;
