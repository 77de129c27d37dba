import { parse as parseQueryString } from 'node:querystring';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { MailSettingsEnvelope, MeSettingsEnvelope, UnsubscribeEnvelope, UnsubscribeQuery, UpdateMailSettingsBody, type LanguageSettings } from '#shared/schemas/account.ts';
import { message } from '#shared/i18n.ts';
import { HOUR_CYCLES, LANGUAGE_CONVENTIONS, LANGUAGES, toLanguage, WEEK_STARTS } from '#shared/languages.ts';
import { validationFailed } from '../../errors.ts';
import { verifyUnsubscribeToken } from '../../mail/unsubscribe-tokens.ts';
import { currentUser } from '../../plugins/session.ts';
import { isInstanceAdmin } from '../../services/admins.ts';
import { errorResponses, serializable, sessionSecurity } from '../schemas.ts';
import { translateFor } from '../../i18n/request-language.ts';
import { readerLanguage, storedLanguage, translate } from '../../i18n/translate.ts';

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

/**
 * The language and formats of an account row (`users.language`, `week_start`, `hour_cycle`) as
 * the settings API gives them: a value no longer listed reads as English and its conventions.
 */
function languageSettingsOf(row: { language: string; weekStart: string; hourCycle: string } | undefined): LanguageSettings {
  const language = storedLanguage(row?.language);
  const conventions = LANGUAGE_CONVENTIONS[language];
  const weekStart = WEEK_STARTS.find((day) => day === row?.weekStart) ?? conventions.weekStart;
  const hourCycle = HOUR_CYCLES.find((cycle) => cycle === row?.hourCycle) ?? conventions.hourCycle;
  return { language, weekStart, hourCycle };
}

/** Mail, language and format settings of the signed-in person, and the one-click unsubscribe of RFC 8058. */
const mailSettings: FastifyPluginAsyncTypebox = async (fastify) => {
  const { clock } = fastify;
  const settings = fastify.mailSettingsRepository;

  fastify.get(
    '/users/me/settings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Which optional mails I get (all true until changed), my language and formats',
        description:
          'Whether assignment, reminder, "added you to a board" and mention mails are sent to my address; the language the app, my mails and ' +
          'the API\'s messages speak, the first day of my week and my clock (`h12` or `h23`). A new account gets its browser\'s language ' +
          '(Accept-Language) and that language\'s week and clock.',
        security: sessionSecurity,
        response: { 200: serializable(MeSettingsEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const current = await settings.get(user.email);
      const account = await fastify.usersRepository.findById(user.id);
      // Whether to offer the Admin page (its API answers non-admins 404 whatever this says).
      const isAdmin = isInstanceAdmin(fastify.config, { email: user.email, adminSince: account?.adminSince ?? null });
      return { status: 'success', data: { settings: { ...current, ...languageSettingsOf(account) }, isAdmin } } as const;
    },
  );

  fastify.patch(
    '/users/me/settings',
    {
      onRequest: fastify.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Turn assignment, reminder, board or mention mails on or off; set my language and formats',
        description:
          'Any subset of the settings; the answer holds all of them. `language` is matched ignoring case and answered as listed (`PT-br` → `pt-BR`); ' +
          'another value, like a `weekStart` or `hourCycle` not listed, is 400 VALIDATION_FAILED naming the field. The answer\'s message is in the new language.',
        security: sessionSecurity,
        body: UpdateMailSettingsBody,
        response: { 200: serializable(MailSettingsEnvelope), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { notifyAssigned, notifyReminders, notifyBoards, notifyMentions, language, weekStart, hourCycle } = request.body;
      const chosen = language === undefined ? undefined : toLanguage(language);
      if (chosen === null) throw validationFailed([{ field: 'language', message: message('{field} must be one of: {values}.', { field: 'language', values: LANGUAGES.join(', ') }) }]);
      const changes = {
        ...(notifyAssigned === undefined ? {} : { notifyAssigned }),
        ...(notifyReminders === undefined ? {} : { notifyReminders }),
        ...(notifyBoards === undefined ? {} : { notifyBoards }),
        ...(notifyMentions === undefined ? {} : { notifyMentions }),
      };
      const languageChanges = {
        ...(chosen === undefined ? {} : { language: chosen }),
        ...(weekStart === undefined ? {} : { weekStart }),
        ...(hourCycle === undefined ? {} : { hourCycle }),
      };
      const now = clock.now().toISOString();
      const { mail, account } = await fastify.db.transaction().execute(async (trx) => {
        const written = Object.keys(changes).length > 0 ? await settings.update(user.email, changes, now, trx) : await settings.get(user.email, trx);
        if (Object.keys(languageChanges).length > 0) await fastify.usersRepository.updateLanguage(user.id, { ...languageChanges, updatedAt: now }, trx);
        return { mail: written, account: languageSettingsOf(await fastify.usersRepository.findById(user.id, trx)) };
      });
      const said = Object.keys(changes).length > 0 ? ACCOUNT_MESSAGES.settingsSaved : ACCOUNT_MESSAGES.languageSaved;
      // Said in the language just chosen (the header's pseudo-language still comes first).
      const answerLanguage = readerLanguage(request.headers['accept-language'], account.language);
      return { status: 'success', message: translate(answerLanguage, said), data: { settings: { ...mail, ...account } } } as const;
    },
  );

  await fastify.register(oneClickUnsubscribe);
};

export default mailSettings;
