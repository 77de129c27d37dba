import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pino } from 'pino';
import pretty from 'pino-pretty';
import { isValidEmail, normalizeEmail } from '#shared/email.ts';
import { LIMITS } from '#shared/constants.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import errorHandler, { sendApiNotFound } from './plugins/error-handler.ts';
import events from './plugins/events.ts';
import housekeeping from './plugins/housekeeping.ts';
import mailer from './plugins/mailer.ts';
import outbox from './outbox/outbox.ts';
import pushSender from './push/push-sender.ts';
import webhookSender from './webhooks/webhook-sender.ts';
import taskMail from './mail/task-mail.ts';
import metricsPlugin from './plugins/metrics.ts';
import rateLimit from './plugins/rate-limit.ts';
import repositories from './plugins/repositories.ts';
import security, { securityHeaders } from './plugins/security.ts';
import session from './plugins/session.ts';
import swagger from './plugins/swagger.ts';
import webApp from './plugins/web-app.ts';
import account from './routes/account/index.ts';
import twoStep from './routes/account/two-step.ts';
import passkeys from './routes/account/passkeys.ts';
import passkeySignIn from './routes/users/passkey-sign-in.ts';
import boardsRoute from './routes/boards/index.ts';
import calendarRoute from './routes/calendar/index.ts';
import csvRoute from './routes/boards/csv.ts';
import labelsRoute from './routes/boards/labels.ts';
import columnsRoute from './routes/boards/columns.ts';
import webhooksRoute from './routes/boards/webhooks.ts';
import trelloImportRoute from './routes/boards/trello-import.ts';
import eventsRoute from './routes/events.ts';
import health from './routes/health.ts';
import mailSettings from './routes/mail-settings/index.ts';
import metrics from './routes/metrics.ts';
import notifications from './routes/notifications/index.ts';
import otps from './routes/otps/index.ts';
import pushRoute from './routes/push/index.ts';
import taskChecklist from './routes/tasks/checklist.ts';
import taskComments from './routes/tasks/comments.ts';
import taskAttachments from './routes/tasks/attachments.ts';
import attachmentFiles from './routes/attachments.ts';
import uploadsRoute from './routes/uploads.ts';
import files from './plugins/files.ts';
import attachmentWrites from './services/attachment-writes.ts';
import { buildSerializer, buildValidator } from './schema-compilers.ts';
import tasks from './routes/tasks/index.ts';
import tokensRoute from './routes/tokens/index.ts';
import users from './routes/users/index.ts';
import adminRoute from './routes/admin/index.ts';
import boards from './services/boards.ts';
import labels from './services/labels.ts';
import columns from './services/columns.ts';
import taskMoves from './services/task-moves.ts';
import taskMovesRoute from './routes/tasks/moves.ts';
import taskBulkRoute from './routes/tasks/bulk.ts';
import webhooks from './services/webhooks.ts';
import otpService from './services/otp-service.ts';
import taskWrites from './services/task-writes.ts';
import commentWrites from './services/comment-writes.ts';
import checklistWrites from './services/checklist-writes.ts';
import oidcSignIn from './services/oidc-sign-in.ts';
import oidcRoutes from './routes/auth/oidc.ts';

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count becomes a function: Fastify 5.12 answers a
 * bare number by trusting nobody, since counting hops cannot tell a proxy from a client that
 * connects directly (docs/operations.md: such an instance must only be reachable through its
 * proxies). Hop 0 is the socket's peer, hop 1 the right-most X-Forwarded-For entry, and so on.
 */
function trustedProxies(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * Query parameters that carry a secret: the unsubscribe links' `token`, and a sign-in provider's
 * one-time `code` and the flow's `state` on its way back (routes/auth/oidc.ts).
 */
const SECRET_QUERY_PARAMETERS = new Set(['token', 'code', 'state']);
/** The secret part of a calendar feed's path, spelled any way that reaches its route (`%63alendar` too). */
const CALENDAR_FEED_PATH = /^(\/+api\/+(?:c|%63)(?:a|%61)(?:l|%6c)(?:e|%65)(?:n|%6e)(?:d|%64)(?:a|%61)(?:r|%72)\/+)[^?#]*/i;
/** Could a query hold one? One of their names, any letter percent-encoded: a cheap first look. */
const MAYBE_SECRET_QUERY = /(?:t|%74)(?:o|%6f)(?:k|%6b)(?:e|%65)(?:n|%6e)|(?:c|%63)(?:o|%6f)(?:d|%64)(?:e|%65)|(?:s|%73)(?:t|%74)(?:a|%61)(?:t|%74)(?:e|%65)/i;

/**
 * The URL as the request log shows it: the value of every secret query parameter replaced, so
 * a link's token never reaches log files and whoever reads them. Decoded as the router decodes
 * it, so `?%74oken=` is caught too; a URL without such a parameter is logged as it came.
 */
export function loggedUrl(requested: string): string {
  // A calendar feed's path is its secret (routes/calendar/index.ts): anything after the prefix goes.
  const url = requested.replace(CALENDAR_FEED_PATH, '$1[redacted]');
  const start = url.indexOf('?');
  if (start === -1 || !MAYBE_SECRET_QUERY.test(url.slice(start))) return url;
  const entries = [...new URLSearchParams(url.slice(start + 1))];
  if (!entries.some(([name]) => SECRET_QUERY_PARAMETERS.has(name))) return url;
  const query = entries.map(([name, value]) =>
    SECRET_QUERY_PARAMETERS.has(name) ? `${name}=[redacted]` : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
  );
  return `${url.slice(0, start)}?${query.join('&')}`;
}

export interface BuildOptions {
  /** Parsed configuration (server/config.ts `loadConfig`). */
  config: Config;
  /** The source of "now" for every time rule; tests pass one they can move. */
  clock?: Clock;
}

/** How long a JSON log line may wait for others before it is written: what an operator tailing the log waits at most. */
export const LOG_FLUSH_MS = 200;

/**
 * Where the log goes. On a terminal: one readable line per record, written synchronously so it
 * stays in order with the printed-mail block (plugins/mailer.ts). Elsewhere pino's JSON lines,
 * gathered into writes of at least 4 KiB, or whatever is there every `LOG_FLUSH_MS`: a write
 * per request line cost a system call and a hand-off to the file pool and back (two futex
 * wake-ups), about 7 % of a write request's CPU (docs/performance.md, "The request log, in
 * batches"). pino writes what is left when the process exits, a crash included; a process
 * killed outright (SIGKILL) loses at most the last `LOG_FLUSH_MS` of lines. Nothing at all
 * for `silent` (the tests' level), so no flush timer runs per application built.
 */
function logStream(config: Config) {
  if (config.logLevel === 'silent') return undefined;
  if (config.logFormat === 'pretty') return pretty({ sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS });
}

/**
 * Builds the whole application — the same way for `server.ts` and for every test — and never
 * listens. Resolves once plugins are loaded and the database is migrated.
 * @see https://github.com/fastify/demo/blob/main/src/app.ts
 */
export async function build({ config, clock = systemClock }: BuildOptions): Promise<FastifyInstance> {
  const headers = securityHeaders(config);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      stream: logStream(config),
    },
    bodyLimit: LIMITS.bodyMaxBytes,
    trustProxy: trustedProxies(config.trustProxy),
    // One line per request (onResponse below) instead of two.
    logController: new LogController({ disableRequestLogging: true }),
    // While shutting down, requests already on an open connection are still answered normally
    // (the database closes only after the server has), rather than with a non-JSend 503.
    return503OnClosing: false,
    // A malformed URL (e.g. a lone `%`) is answered before any hook runs: it addresses nothing,
    // so it gets the same JSend 404 and security headers as any missing page.
    frameworkErrors: (_error, _request, reply) => {
      void sendApiNotFound(reply.headers(headers));
    },
    // JSON bodies are validated without type coercion; query strings and parameters keep it.
    schemaController: { compilersFactory: { buildValidator, buildSerializer } },
    ajv: {
      // Report every invalid field at once (bodies are at most 16 KB, so this stays cheap).
      customOptions: { allErrors: true },
      // Our own `email` format (shared/email.ts, on the trimmed, lower-cased value) replaces
      // ajv-formats' one, which Fastify adds first.
      onCreate: (ajv) => {
        ajv.addFormat('email', (value: string) => isValidEmail(normalizeEmail(value)));
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // One line per answered request at info level and below; no hook at all otherwise.
  if (['info', 'debug', 'trace'].includes(config.logLevel)) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { method: request.method, url: loggedUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request completed',
      );
      done();
    });
  }

  app.decorate('clock', clock);

  try {
    await app.register(configPlugin, { config });
    await app.register(errorHandler);
    await app.register(security);
    await app.register(dbPlugin);
    await app.register(metricsPlugin);
    await app.register(repositories);
    await app.register(files);
    await app.register(housekeeping);
    await app.register(mailer);
    await app.register(pushSender);
    await app.register(webhookSender);
    await app.register(outbox);
    await app.register(rateLimit);
    await app.register(session);
    await app.register(otpService);
    await app.register(events);
    await app.register(taskMail);
    await app.register(taskWrites);
    await app.register(commentWrites);
    await app.register(checklistWrites);
    await app.register(attachmentWrites);
    await app.register(boards);
    await app.register(labels);
    await app.register(columns);
    await app.register(taskMoves);
    await app.register(webhooks);
    await app.register(oidcSignIn);
    await app.register(swagger);
    await app.register(metrics);

    await app.register(
      async (api) => {
        await api.register(health);
        await api.register(otps);
        await api.register(users);
        await api.register(tasks);
        await api.register(taskComments);
        await api.register(taskChecklist);
        await api.register(taskAttachments);
        await api.register(attachmentFiles);
        await api.register(uploadsRoute);
        await api.register(eventsRoute);
        await api.register(mailSettings);
        await api.register(account);
        await api.register(twoStep);
        await api.register(passkeys);
        await api.register(passkeySignIn);
        await api.register(boardsRoute);
        await api.register(labelsRoute);
        await api.register(columnsRoute);
        await api.register(taskMovesRoute);
        await api.register(taskBulkRoute);
        await api.register(webhooksRoute);
        await api.register(trelloImportRoute);
        await api.register(pushRoute);
        await api.register(notifications);
        await api.register(calendarRoute);
        await api.register(csvRoute);
        await api.register(tokensRoute);
        await api.register(oidcRoutes);
        await api.register(adminRoute);
      },
      { prefix: '/api' },
    );

    await app.register(webApp);
    await app.ready();
  } catch (error) {
    // Whatever was opened before the failure (database, SMTP pool) is closed again.
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
