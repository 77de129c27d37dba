import type { Kysely } from 'kysely';
import { text } from '#shared/i18n.ts';
import type { AdminSetting } from '#shared/schemas/admin.ts';
import type { Config } from '../config.ts';
import type { Executor } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { createTwoStepRepository } from '../repositories/two-step-repository.ts';

/**
 * Instance administrators (docs/decisions/160-instance-admins.md): an account is an admin when it
 * was promoted (`npm run admin -- users:promote`, `users.admin_since`) OR its address is in
 * ADMIN_EMAILS. Either alone is enough; demoting clears only the flag, so an address in
 * ADMIN_EMAILS stays an admin until it is taken out of the setting.
 */
export function isInstanceAdmin(config: Pick<Config, 'adminEmails'>, account: { email: string; adminSince: string | null }): boolean {
  return account.adminSince !== null || config.adminEmails.includes(account.email);
}

/**
 * Turns two-step sign-in off for an account: the authenticator secret, the recovery codes and any
 * sign-in waiting for a code go. The one way to do it, for the admin page and `users:reset-2fa`
 * alike. False when it was not set up.
 */
export function resetSecondStep(db: Kysely<DB>, userId: string, ex: Executor = db): Promise<boolean> {
  return createTwoStepRepository(db).removeAll(userId, ex);
}

/** The address the audit log names when the admin command (shell access) acted. */
export const COMMAND_ACTOR = 'admin command';

/** A setting whose value is a secret by its name: shown only as set or not. */
const SECRET_NAME = /SECRET|PASSWORD|KEY|TOKEN/;

/** A URL without its user name and password (the rest of it is no secret). */
function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.username === '' && url.password === '') return raw;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return SETTING_WORDS.notShown;
  }
}

/**
 * The words of the settings list that are not the server's own values (names of environment
 * variables, paths, numbers): said in the reader's language.
 */
const SETTING_WORDS = {
  // i18n: The value of a secret setting of the server that has a value (the value itself is never shown).
  set: text('set'),
  // i18n: The value of a secret setting of the server that has none.
  notSet: text('not set'),
  // i18n: The value of a setting of the server that was not given.
  unset: text('unset'),
  notShown: text('(not shown)'),
  mailsToLog: text('unset (mails are printed to the log)'),
  filesOnS3: text('unused (S3_URL is set)'),
  // i18n: A setting of the server: the password in SMTP_URL.
  smtpPassword: text('SMTP password'),
  // i18n: A setting of the server: the access key in S3_URL.
  s3AccessKey: text('S3 access key'),
  // i18n: A setting of the server: the secret key in S3_URL.
  s3SecretKey: text('S3 secret key'),
  // i18n: A setting of the server: the client secrets in OIDC_PROVIDERS.
  oidcSecrets: text('OIDC client secrets'),
};

const setOrNot = (value: string | null | undefined) => (value === null || value === undefined || value === '' ? SETTING_WORDS.notSet : SETTING_WORDS.set);

/**
 * Every setting the server runs with, as the admin page shows it: each environment variable of
 * the README's settings table with its effective value. Secrets (any name with SECRET, PASSWORD,
 * KEY or TOKEN, and the S3 key and secret) only as "set" or "not set"; URLs without credentials.
 * `say` puts the server's own words (SETTING_WORDS) in the reader's language.
 */
export function describeSettings(config: Config, say: (words: string) => string = (words) => words): AdminSetting[] {
  const { files, registration, attachments } = config;
  const entries: [string, string | null][] = [
    ['NODE_ENV', config.nodeEnv],
    ['PORT', String(config.port)],
    ['HOST', config.host],
    ['DATABASE_URL', config.database.kind === 'sqlite' ? `file:${config.database.file}` : withoutCredentials(config.database.url)],
    ['SMTP_URL', config.smtpUrl === null ? SETTING_WORDS.mailsToLog : withoutCredentials(config.smtpUrl)],
    [SETTING_WORDS.smtpPassword, config.smtpUrl === null ? null : new URL(config.smtpUrl).password],
    ['MAIL_FROM', config.mailFrom],
    ['APP_ORIGIN', config.appOrigin],
    ['CORS_ORIGINS', config.corsOrigins.join(',')],
    ['SESSION_SECRET', config.sessionSecret],
    ['TRUST_PROXY', Array.isArray(config.trustProxy) ? config.trustProxy.join(',') : String(config.trustProxy)],
    ['LOG_LEVEL', config.logLevel],
    ['LOG_FORMAT', config.logFormat],
    ['METRICS_TOKEN', config.metricsToken],
    ['VAPID_PUBLIC_KEY', config.vapid.publicKey],
    ['VAPID_PRIVATE_KEY', config.vapid.privateKey],
    ['VAPID_SUBJECT', config.vapid.subject],
    ['REGISTRATION', registration.mode],
    ['REGISTRATION_DOMAINS', registration.domains.join(',')],
    ['REQUIRE_2FA', String(config.requireSecondStep)],
    ['FILES_DIR', files.kind === 'disk' ? files.dir : SETTING_WORDS.filesOnS3],
    [
      'S3_URL',
      files.kind === 's3'
        ? `${files.endpoint.startsWith('https:') ? 's3s' : 's3'}://${new URL(files.endpoint).host}/${files.bucket}?region=${files.region}&forcePathStyle=${String(files.forcePathStyle)}`
        : SETTING_WORDS.unset,
    ],
    [SETTING_WORDS.s3AccessKey, files.kind === 's3' ? files.accessKeyId : null],
    [SETTING_WORDS.s3SecretKey, files.kind === 's3' ? files.secretAccessKey : null],
    ['ATTACHMENT_MAX_MB', String(attachments.maxFileBytes / 1_000_000)],
    ['BOARD_STORAGE_MB', String(attachments.boardQuotaBytes / 1_000_000)],
    ['OUTBOUND_ALLOW_PRIVATE', String(config.outboundAllowPrivate)],
    ['ADMIN_EMAILS', config.adminEmails.join(',')],
    ['OIDC_PROVIDERS', config.oidcProviders.length === 0 ? SETTING_WORDS.unset : config.oidcProviders.map((p) => `${p.name} (${p.id}, ${p.issuer})`).join(', ')],
    [SETTING_WORDS.oidcSecrets, config.oidcProviders.length === 0 ? null : config.oidcProviders.map((p) => p.clientSecret).join('')],
  ];
  // The server's own words (SETTING_WORDS) in the reader's language; names of variables, paths
  // and numbers as they are.
  const ours = new Set<string>(Object.values(SETTING_WORDS));
  const shown = (words: string): string => (ours.has(words) ? say(words) : words);
  return entries.map(([name, value]) => {
    const words = SECRET_NAME.test(name.toUpperCase()) ? setOrNot(value) : (value ?? SETTING_WORDS.unset);
    return { name: shown(name), value: shown(words), said: ours.has(words) };
  });
}
