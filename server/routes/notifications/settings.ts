import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPES,
  NotificationSettingsEnvelope,
  UpdateNotificationSettingsBody,
  type NotificationSettings,
  type PerType,
} from '#shared/schemas/notifications.ts';
import type { Executor } from '../../db/prepared.ts';
import { currentUser } from '../../plugins/session.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';

/**
 * Which notification types reach me in the app and by push. Each type is on until turned off; a
 * type turned off is a row of `notification_mutes`. Mail has its own settings (`/users/me/settings`).
 */
const notificationSettings: FastifyPluginAsyncTypebox = (fastify) => {
  const repo = fastify.notificationsRepository;

  const settingsOf = async (userId: string, ex?: Executor): Promise<NotificationSettings> => {
    const allOn = () => Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, true])) as PerType;
    const settings: NotificationSettings = { app: allOn(), push: allOn() };
    for (const { type, channel } of await repo.mutes(userId, ex)) settings[channel][type] = false;
    return settings;
  };

  fastify.get(
    '/notification-settings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Which notifications I get in the app and by push (all true until changed)',
        description: 'Per channel (`app`: the inbox; `push`: my devices), per type. Push does not depend on the app: a type off in the app can still be pushed.',
        security: sessionSecurity,
        response: { 200: serializable(NotificationSettingsEnvelope), ...errorResponses },
      },
    },
    async (request) => ({ status: 'success', data: { settings: await settingsOf(currentUser(request).id) } }) as const,
  );

  fastify.patch(
    '/notification-settings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Turn notification types on or off, per channel',
        description: 'Only the switches that change, e.g. `{"push": {"commented": false}}`; the answer holds all of them.',
        security: sessionSecurity,
        body: UpdateNotificationSettingsBody,
        response: { 200: serializable(NotificationSettingsEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const settings = await fastify.db.transaction().execute(async (trx) => {
        for (const channel of NOTIFICATION_CHANNELS) {
          const changes = request.body[channel];
          if (changes !== undefined) await repo.setMutes(userId, channel, changes, trx);
        }
        return settingsOf(userId, trx);
      });
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.settingsSaved), data: { settings } } as const;
    },
  );

  return Promise.resolve();
};

export default notificationSettings;
