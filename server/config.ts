import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OidcConfigError, parseOidcProviders, type OidcProviderConfig } from './oidc/provider-config.ts';
import { REGISTRATION_MODES, type RegistrationMode, type RegistrationPolicy } from '#shared/registration.ts';
import { isValidEmail, normalizeEmail } from '#shared/email.ts';

/**
 * Configuration (the environment variables listed in the README), parsed and validated once at start-up. A bad value throws a
 * ConfigError whose message is one line naming the variable; server.ts prints it and exits.
 * @see https://github.com/fastify/demo/blob/main/src/plugins/external/env.ts
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface Config {
  /** Settings that work but are weak (a short secret): logged as warnings at start-up. */
  warnings: readonly string[];
  nodeEnv: string;
  isProduction: boolean;
  port: number;
  host: string;
  database: DatabaseConfig;
  /** null: mails are printed to the log instead of sent. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Scheme + host (+ port), no trailing slash. */
  appOrigin: string;
  corsOrigins: string[];
  sessionSecret: string;
  /**
   * Which peers' X-Forwarded-* headers are believed: none (false), that many proxies counted from
   * the socket inwards (a number), or the proxies at these addresses/CIDRs.
   */
  trustProxy: false | number | string[];
  logLevel: LogLevel;
  /** `pretty`: readable text (pino-pretty) for a person at a terminal; `json`: one JSON object a line. */
  logFormat: LogFormat;
  /** null: GET /metrics answers 404. Scrapers send `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Cookies carry `Secure`: in production, and wherever the public origin is https. */
  secureCookies: boolean;
  /** The public origin is https: answers send HSTS and ask browsers to upgrade insecure requests. */
  httpsOrigin: boolean;
  /** The VAPID key pair (RFC 8292) that signs web pushes, base64url, and the contact it names. */
  vapid: VapidConfig;
  /**
   * Outbound requests (push endpoints, later webhooks) may go to loopback, private and
   * link-local addresses (server/net/outbound.ts). Only for tests and closed networks.
   */
  outboundAllowPrivate: boolean;
  /** Who may register (REGISTRATION, REGISTRATION_DOMAINS): shared/registration.ts. */
  registration: RegistrationPolicy;
  /**
   * REQUIRE_2FA: every account must have a second step of sign-in; one without it may only set
   * it up (other calls answer 403 SECOND_STEP_REQUIRED).
   */
  requireSecondStep: boolean;
  /** Limits of files on tasks (ATTACHMENT_MAX_MB, BOARD_STORAGE_MB; MB = 1,000,000 bytes). */
  attachments: AttachmentLimits;
  /** Where attachment files are kept (FILES_DIR, or S3_URL): server/files/file-store.ts. */
  files: FilesConfig;
  /** Directory of the built web app (Vite's output). Not an environment variable. */
  webRoot: string;
  /** OpenID Connect providers to sign in with (OIDC_PROVIDERS): server/oidc/provider-config.ts. */
  oidcProviders: OidcProviderConfig[];
  /**
   * ADMIN_EMAILS: the accounts with these addresses (lower-cased) are instance admins, as are
   * those promoted with `npm run admin -- users:promote` (server/services/admins.ts).
   */
  adminEmails: string[];
}

export interface AttachmentLimits {
  /** Largest file, in bytes (ATTACHMENT_MAX_MB, default 100 MB). */
  maxFileBytes: number;
  /** What a board's attachments may add up to, in bytes (BOARD_STORAGE_MB, default 5,120 MB). */
  boardQuotaBytes: number;
  /** Attachments on one task (not configurable). */
  perTask: number;
}

/** Files on local disk under `dir`, or in an S3-compatible bucket (every instance sharing them). */
export type FilesConfig =
  | { kind: 'disk'; dir: string }
  | {
      kind: 's3';
      /** http(s)://host:port of the store. */
      endpoint: string;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      /** Bucket in the path (MinIO, Garage, s3rver) rather than the host name (AWS). */
      forcePathStyle: boolean;
    };

export interface VapidConfig {
  /** The uncompressed P-256 point (65 bytes), base64url: what browsers subscribe with. */
  publicKey: string;
  /** The 32-byte private scalar, base64url. */
  privateKey: string;
  /** `mailto:` or `https:` URI a push service can reach the operator at. */
  subject: string;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
export const DEFAULT_WEB_ROOT = resolve(repoRoot, 'dist/web');
const SECRET_FILE = 'session-secret';
const VAPID_FILE = 'vapid-keys.json';
const SECRET_MIN_LENGTH = 32;
const METRICS_TOKEN_MIN_LENGTH = 16;

/** An unset or blank variable counts as unset. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError('PORT', `must be an integer from 0 to 65535 (got "${raw}").`);
  }
  return Number(raw);
}

/** A web origin (scheme://host[:port]) from a URL-ish string; null when it is not one. */
function toOrigin(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return null;
  if (url.pathname !== '/' && url.pathname !== '') return null;
  return url.origin;
}

function parseDatabase(raw: string | undefined, cwd: string): DatabaseConfig {
  const value = raw ?? 'file:./data/taskwise.db';
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL.');
    }
    return { kind: 'postgres', url: value };
  }
  if (value.startsWith('file:')) {
    const path = value.slice('file:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'needs a path after "file:" (e.g. file:./data/taskwise.db).');
    return { kind: 'sqlite', file: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  throw new ConfigError('DATABASE_URL', `must start with "file:" (SQLite) or "postgres://" (got "${value}").`);
}

function parseSmtpUrl(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL', 'is not a valid URL (expected smtp://user:pass@host:port or smtps://…).');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError('SMTP_URL', `must use smtp:// or smtps:// (got "${url.protocol}").`);
  }
  if (url.hostname === '') throw new ConfigError('SMTP_URL', 'needs a host name.');
  return raw;
}

/**
 * `true` means one proxy: behind a typical nginx (`$proxy_add_x_forwarded_for`) the right-most
 * X-Forwarded-For entry is the address nginx saw, everything left of it is whatever the client
 * sent. (Fastify's own `trustProxy: true` trusts every entry, i.e. takes the left-most one.)
 */
function parseTrustProxy(raw: string | undefined): false | number | string[] {
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (lower === 'false') return false;
  if (lower === 'true') return 1;
  if (/^\d{1,3}$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (family === 0 || !validBits || rest.length > 0) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be true, false, a hop count, or a comma-separated list of IP addresses/CIDRs (got "${raw}").`,
      );
    }
  }
  return entries;
}

/** Reads ./data/session-secret, creating it (owner-only) on first start. */
function generatedSecret(cwd: string): string {
  const dir = resolve(cwd, 'data');
  const file = resolve(dir, SECRET_FILE);
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length < SECRET_MIN_LENGTH) {
      throw new ConfigError('SESSION_SECRET', `is unset and ${file} holds fewer than ${SECRET_MIN_LENGTH} characters.`);
    }
    return secret;
  }
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

/**
 * Writes `content` to `file` (owner-only) unless it already exists; true when this call wrote it.
 * Through a temporary file and a hard link, so a process starting at the same moment never reads
 * a half-written file: the link appears complete or not at all.
 */
function createOnce(file: string, content: string): boolean {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The public key of a P-256 private key (base64url), or null when it is not one. */
function p256PublicKeyOf(privateKey: string): string | null {
  if (!BASE64URL.test(privateKey)) return null;
  const bytes = Buffer.from(privateKey, 'base64url');
  if (bytes.length !== 32) return null;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(bytes);
    return ecdh.getPublicKey().toString('base64url');
  } catch {
    return null;
  }
}

function newVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const scalar = ecdh.getPrivateKey();
  // The scalar comes without leading zero bytes; keys are always written as 32 bytes.
  const privateKey = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither; a matching P-256 pair), else the pair
 * in ./data/vapid-keys.json, generated (owner-only) on first start. Generating is fine in
 * production too: the file keeps the keys across restarts, and browsers' subscriptions stay
 * valid only as long as the public key does.
 */
function parseVapidKeys(env: Env, cwd: string): { publicKey: string; privateKey: string } {
  const publicKey = read(env, 'VAPID_PUBLIC_KEY');
  const privateKey = read(env, 'VAPID_PRIVATE_KEY');
  if (publicKey === undefined && privateKey === undefined) {
    const file = resolve(cwd, 'data', VAPID_FILE);
    if (!existsSync(file)) createOnce(file, `${JSON.stringify(newVapidKeys())}\n`);
    let stored: { publicKey?: unknown; privateKey?: unknown };
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
    } catch {
      stored = {};
    }
    const { publicKey: storedPublic, privateKey: storedPrivate } = stored;
    if (typeof storedPublic !== 'string' || typeof storedPrivate !== 'string' || p256PublicKeyOf(storedPrivate) !== storedPublic) {
      throw new ConfigError('VAPID_PRIVATE_KEY', `is unset and ${file} does not hold a P-256 key pair ({"publicKey","privateKey"}, base64url).`);
    }
    return { publicKey: storedPublic, privateKey: storedPrivate };
  }
  if (publicKey === undefined) throw new ConfigError('VAPID_PUBLIC_KEY', 'must be set together with VAPID_PRIVATE_KEY (or neither).');
  if (privateKey === undefined) throw new ConfigError('VAPID_PRIVATE_KEY', 'must be set together with VAPID_PUBLIC_KEY (or neither).');
  const derived = p256PublicKeyOf(privateKey);
  if (derived === null) {
    throw new ConfigError('VAPID_PRIVATE_KEY', 'must be a P-256 private key: 32 bytes, base64url (e.g. from `npx web-push generate-vapid-keys`).');
  }
  if (!BASE64URL.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65) {
    throw new ConfigError('VAPID_PUBLIC_KEY', 'must be an uncompressed P-256 public key: 65 bytes, base64url.');
  }
  if (derived !== publicKey) throw new ConfigError('VAPID_PUBLIC_KEY', 'is not the public key of VAPID_PRIVATE_KEY.');
  return { publicKey, privateKey };
}

/** VAPID_SUBJECT, else `mailto:` and the address of MAIL_FROM. */
function parseVapidSubject(raw: string | undefined, mailFrom: string): string {
  if (raw === undefined) {
    const address = /<([^<>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
    return `mailto:${address.trim()}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'mailto:' && url.protocol !== 'https:') {
    throw new ConfigError('VAPID_SUBJECT', `must be a mailto: or https: URI, e.g. mailto:ops@example.com (got "${raw}").`);
  }
  return raw;
}

/** REGISTRATION: open (default), invite or closed; REGISTRATION_DOMAINS: comma-separated domains, empty for any. */
function parseRegistration(rawMode: string | undefined, rawDomains: string | undefined): RegistrationPolicy {
  const mode = (rawMode ?? 'open').toLowerCase();
  if (!(REGISTRATION_MODES as readonly string[]).includes(mode)) {
    throw new ConfigError('REGISTRATION', `must be one of ${REGISTRATION_MODES.join(', ')} (got "${rawMode ?? ''}").`);
  }
  const domains: string[] = [];
  for (const entry of (rawDomains ?? '').split(',')) {
    const domain = entry.trim().toLowerCase().replace(/^@/, '');
    if (domain === '') continue;
    if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(domain)) {
      throw new ConfigError('REGISTRATION_DOMAINS', `must be a comma-separated list of domains, e.g. example.com,example.org (bad entry "${entry.trim()}").`);
    }
    if (!domains.includes(domain)) domains.push(domain);
  }
  return { mode: mode as RegistrationMode, domains };
}

/** A whole number of MB (1,000,000 bytes) from 1 to `max`, as bytes. */
function parseMegabytes(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback * 1_000_000;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number of MB from 1 to ${max} (got "${raw}").`);
  }
  return Number(raw) * 1_000_000;
}

/** Largest file: the size column is a 32-bit integer on both databases. */
const MAX_FILE_MB = 2_000;

function parseAttachmentLimits(env: Env): AttachmentLimits {
  return {
    maxFileBytes: parseMegabytes('ATTACHMENT_MAX_MB', read(env, 'ATTACHMENT_MAX_MB'), 100, MAX_FILE_MB),
    boardQuotaBytes: parseMegabytes('BOARD_STORAGE_MB', read(env, 'BOARD_STORAGE_MB'), 5_120, 9_999_999),
    perTask: 100,
  };
}

/**
 * S3_URL: `s3://KEY:SECRET@host:port/bucket?region=…&forcePathStyle=true` (`s3s://` for https);
 * the key and secret percent-encoded. Without it, files go under FILES_DIR (./data/files).
 */
function parseFiles(rawS3: string | undefined, rawDir: string | undefined, cwd: string): FilesConfig {
  if (rawS3 === undefined) {
    const dir = rawDir ?? './data/files';
    return { kind: 'disk', dir: isAbsolute(dir) ? dir : resolve(cwd, dir) };
  }
  const example = 'e.g. s3://KEY:SECRET@minio.example.com:9000/taskwise?region=us-east-1&forcePathStyle=true';
  let url: URL;
  try {
    url = new URL(rawS3);
  } catch {
    throw new ConfigError('S3_URL', `is not a valid URL (${example}).`);
  }
  if (url.protocol !== 's3:' && url.protocol !== 's3s:') throw new ConfigError('S3_URL', `must start with s3:// or s3s:// (${example}).`);
  const bucket = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
  if (url.username === '' || url.password === '' || url.hostname === '') {
    throw new ConfigError('S3_URL', `needs a key, a secret and a host (${example}).`);
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError('S3_URL', `needs a bucket name after the host (${example}).`);
  const forcePathStyle = url.searchParams.get('forcePathStyle') ?? 'false';
  if (forcePathStyle !== 'true' && forcePathStyle !== 'false') throw new ConfigError('S3_URL', `forcePathStyle must be true or false (got "${forcePathStyle}").`);
  return {
    kind: 's3',
    endpoint: `${url.protocol === 's3s:' ? 'https' : 'http'}://${url.host}`,
    bucket,
    region: url.searchParams.get('region') ?? 'us-east-1',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
    forcePathStyle: forcePathStyle === 'true',
  };
}

function parseBoolean(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (lower !== 'true' && lower !== 'false') throw new ConfigError(name, `must be true or false (got "${raw}").`);
  return lower === 'true';
}

/**
 * Parses the environment. The only side effect: without SESSION_SECRET outside production, a
 * secret is generated once into ./data/session-secret (relative to `cwd`). `terminal`: standard
 * output is a terminal, which makes pretty logs the default. Without VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY, a key pair is likewise generated once into ./data/vapid-keys.json.
 */
export function loadConfig(env: Env, cwd: string = process.cwd(), terminal = false): Config {
  const nodeEnv = read(env, 'NODE_ENV') ?? 'development';
  const isProduction = nodeEnv === 'production';
  const port = parsePort(read(env, 'PORT'));
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const database = parseDatabase(read(env, 'DATABASE_URL'), cwd);
  const smtpUrl = parseSmtpUrl(read(env, 'SMTP_URL'));

  const mailFrom = read(env, 'MAIL_FROM') ?? 'Taskwise <no-reply@localhost>';
  if (/[\r\n]/.test(mailFrom) || !mailFrom.includes('@')) {
    throw new ConfigError('MAIL_FROM', 'must be one line with an e-mail address, e.g. "Taskwise <no-reply@example.com>".');
  }

  const rawOrigin = read(env, 'APP_ORIGIN');
  const appOrigin = rawOrigin === undefined ? `http://localhost:${port}` : toOrigin(rawOrigin);
  if (appOrigin === null) {
    throw new ConfigError('APP_ORIGIN', `must be an http(s) origin without a path, e.g. https://tasks.example.com (got "${rawOrigin ?? ''}").`);
  }

  const corsOrigins: string[] = [];
  for (const entry of (read(env, 'CORS_ORIGINS') ?? '').split(',')) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    const origin = toOrigin(trimmed);
    if (origin === null) {
      throw new ConfigError('CORS_ORIGINS', `must be a comma-separated list of http(s) origins (bad entry "${trimmed}").`);
    }
    corsOrigins.push(origin);
  }

  const trustProxy = parseTrustProxy(read(env, 'TRUST_PROXY'));

  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}").`);
  }

  const logFormat = (read(env, 'LOG_FORMAT') ?? (terminal ? 'pretty' : 'json')).toLowerCase();
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) {
    throw new ConfigError('LOG_FORMAT', `must be pretty or json (got "${logFormat}").`);
  }

  // A short secret works, but is easier to guess: the server says so rather than refusing to start.
  const warnings: string[] = [];
  const metricsToken = read(env, 'METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < METRICS_TOKEN_MIN_LENGTH) {
    warnings.push(`METRICS_TOKEN is shorter than ${METRICS_TOKEN_MIN_LENGTH} characters: a longer one is harder to guess (e.g. \`openssl rand -hex 24\`).`);
  }

  const rawSecret = read(env, 'SESSION_SECRET');
  if (rawSecret === undefined && isProduction) {
    throw new ConfigError('SESSION_SECRET', 'is required when NODE_ENV=production (e.g. `openssl rand -base64 32`).');
  }
  if (rawSecret !== undefined && rawSecret.length < SECRET_MIN_LENGTH) {
    warnings.push(`SESSION_SECRET is shorter than ${SECRET_MIN_LENGTH} characters: a longer one is harder to guess (e.g. \`openssl rand -base64 32\`).`);
  }
  if (smtpUrl === null && isProduction) {
    throw new ConfigError('SMTP_URL', 'is required when NODE_ENV=production (mails would only be printed to the log).');
  }
  const vapidSubject = parseVapidSubject(read(env, 'VAPID_SUBJECT'), mailFrom);
  const outboundAllowPrivate = parseBoolean('OUTBOUND_ALLOW_PRIVATE', read(env, 'OUTBOUND_ALLOW_PRIVATE'));
  const registration = parseRegistration(read(env, 'REGISTRATION'), read(env, 'REGISTRATION_DOMAINS'));
  const requireSecondStep = parseBoolean('REQUIRE_2FA', read(env, 'REQUIRE_2FA'));
  const attachments = parseAttachmentLimits(env);
  const files = parseFiles(read(env, 'S3_URL'), read(env, 'FILES_DIR'), cwd);
  const sessionSecret = rawSecret ?? generatedSecret(cwd);
  const vapid = { ...parseVapidKeys(env, cwd), subject: vapidSubject };
  let oidcProviders: OidcProviderConfig[];
  try {
    oidcProviders = parseOidcProviders(read(env, 'OIDC_PROVIDERS'));
  } catch (error) {
    if (error instanceof OidcConfigError) throw new ConfigError('OIDC_PROVIDERS', error.message);
    throw error;
  }

  return {
    warnings,
    nodeEnv,
    isProduction,
    port,
    host,
    database,
    smtpUrl,
    mailFrom,
    appOrigin,
    corsOrigins,
    sessionSecret,
    trustProxy,
    logLevel: logLevel as LogLevel,
    logFormat: logFormat as LogFormat,
    metricsToken,
    // Production always marks cookies Secure (browsers keep them on http://localhost too); else only behind https.
    secureCookies: isProduction || appOrigin.startsWith('https:'),
    httpsOrigin: appOrigin.startsWith('https:'),
    vapid,
    outboundAllowPrivate,
    registration,
    requireSecondStep,
    attachments,
    files,
    webRoot: DEFAULT_WEB_ROOT,
    oidcProviders,
    adminEmails: parseAdminEmails(read(env, 'ADMIN_EMAILS')),
  };
}

/** ADMIN_EMAILS: comma-separated e-mail addresses, lower-cased; empty for none. */
function parseAdminEmails(raw: string | undefined): string[] {
  const emails: string[] = [];
  for (const entry of (raw ?? '').split(',')) {
    const email = normalizeEmail(entry);
    if (email === '') continue;
    if (!isValidEmail(email)) throw new ConfigError('ADMIN_EMAILS', `must be a comma-separated list of e-mail addresses (bad entry "${entry.trim()}").`);
    if (!emails.includes(email)) emails.push(email);
  }
  return emails;
}

/** Creates the SQLite file's directory (./data/ by default) on first start. */
export function ensureDatabaseDirectory(config: Config): void {
  if (config.database.kind === 'sqlite') mkdirSync(dirname(config.database.file), { recursive: true });
}
