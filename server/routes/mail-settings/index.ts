import { parse as parseQueryString } from 'node:querystring';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { MailSettingsEnvelope, MeSettingsEnvelope, UnsubscribeEnvelope, UnsubscribeQuery, UpdateMailSettingsBody } from '#shared/schemas/account.ts';
import { validationFailed } from '../../errors.ts';
import { verifyUnsubscribeToken } from '../../mail/unsubscribe-tokens.ts';
import { currentUser } from '../../plugins/session.ts';
import { translateFor } from '../../i18n/request-language.ts';
import { isInstanceAdmin } from '../../services/admins.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';

/** The one-click unsubscribe of RFC 8058, in a context of its own (see the form parser). */
const oneClickUnsubscribe: FastifyPluginAsyncTypebox = (fastify) => {
  const { clock } = fastify;
  const settings = fastify.mailSettingsRepository;
  // Mail clients send the RFC 8058 one-click POST as `List-Unsubscribe=One-Click`, form-encoded.
  // This plugin is encapsulated, so the form parser exists for this route only: everywhere
  // else, bodies stay JSON-only (plugins/security.ts). What the body says does not matter —
  // the signed token in the URL is the whole authorization, and no session is needed.
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
    done(null, parseQueryString(body as string));
  });

  fastify.post(
    '/unsubscribe',
    {
      schema: {
        tags: ['users'],
        summary: 'One-click unsubscribe (RFC 8058): turns one kind of mail off for the address in the token',
        description:
          'The link of every assignment, reminder, board and mention mail. No session needed; accepts the form-encoded ' +
          '`List-Unsubscribe=One-Click` body mail clients send, a JSON body, or none.',
        querystring: UnsubscribeQuery,
        response: { 200: serializable(UnsubscribeEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const verified = verifyUnsubscribeToken(fastify.config.sessionSecret, request.query.token);
      if (verified === null) {
        throw validationFailed([{ field: 'token', message: ACCOUNT_MESSAGES.invalidUnsubscribeToken }]);
      }
      const { email, kind } = verified;
      const change = {
        assigned: { notifyAssigned: false },
        reminders: { notifyReminders: false },
        boards: { notifyBoards: false },
        mentions: { notifyMentions: false },
      }[kind];
      await settings.update(email, change, clock.now().toISOString());
      request.log.info({ kind }, 'Unsubscribed by one-click link');
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.unsubscribed[kind]), data: { email, kind } } as const;
    },
  );

  return Promise.resolve();
};

/** Notification settings of the signed-in person, and the one-click unsubscribe of RFC 8058. */
const mailSettings: FastifyPluginAsyncTypebox = async (fastify) => {
  const { clock } = fastify;
  const settings = fastify.mailSettingsRepository;

  fastify.get(
    '/users/me/settings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Which optional mails I get (all true until changed)',
        description: 'Whether assignment, reminder, "added you to a board" and mention mails are sent to my address.',
        security: sessionSecurity,
        response: { 200: serializable(MeSettingsEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const current = await settings.get(user.email);
      // Whether to offer the Admin page (its API answers non-admins 404 whatever this says).
      const isAdmin = isInstanceAdmin(fastify.config, { email: user.email, adminSince: (await fastify.usersRepository.findById(user.id))?.adminSince ?? null });
      return { status: 'success', data: { settings: current, isAdmin } } as const;
    },
  );

  fastify.patch(
    '/users/me/settings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Turn assignment, reminder, board or mention mails on or off',
        description: 'Any subset of the settings; the answer holds all of them.',
        security: sessionSecurity,
        body: UpdateMailSettingsBody,
        response: { 200: serializable(MailSettingsEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const { notifyAssigned, notifyReminders, notifyBoards, notifyMentions } = request.body;
      const changes = {
        ...(notifyAssigned === undefined ? {} : { notifyAssigned }),
        ...(notifyReminders === undefined ? {} : { notifyReminders }),
        ...(notifyBoards === undefined ? {} : { notifyBoards }),
        ...(notifyMentions === undefined ? {} : { notifyMentions }),
      };
      const next = await settings.update(currentUser(request).email, changes, clock.now().toISOString());
      return { status: 'success', message: translateFor(request, ACCOUNT_MESSAGES.settingsSaved), data: { settings: next } } as const;
    },
  );

  await fastify.register(oneClickUnsubscribe);
};

export default mailSettings;
