import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { OTP_POLICY } from '#shared/constants.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';
import { DAY, HOUR } from '../clock.ts';
import { newId } from '../db/ids.ts';
import { AppError, rateLimited } from '../errors.ts';
import { WindowCounter } from '../plugins/rate-limit.ts';
import { DEFAULT_LANGUAGE } from '#shared/languages.ts';
import { storedLanguage, type ReaderLanguage } from '../i18n/translate.ts';
import { accountExistsMail, hourCycleOf, passwordResetCodeMail, passwordResetNoAccountMail, signUpCodeMail, type MailContent, type Reader } from '../mail/templates.ts';

/** Codes are bound to what they are for: a sign-up code cannot reset a password, nor the reverse. */
export type OtpPurpose = 'register' | 'reset';

export interface OtpService {
  /**
   * Issues a code for `email` and mails it. Sign-up: a code, or "you already have an account";
   * reset: a code, or "there is no account". Sent at once (the caller waits), never suppressed;
   * in the account's language, or without one in `language` (the request's).
   */
  request(email: string, ip: string, purpose?: OtpPurpose, language?: ReaderLanguage): Promise<void>;
  /**
   * Checks a code without using it up; every check spends one of the code's 5 tries, the right
   * one included. Returns the id of the code to consume in the transaction of the work it allows.
   * Throws a 400 INVALID_CODE saying so once the address has had 20 wrong tries for the purpose
   * in 24 hours, whatever the code.
   */
  check(email: string, code: string, purpose?: OtpPurpose): Promise<{ ok: true; codeId: string } | { ok: false }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    otpService: OtpService;
  }
}

/**
 * One-time codes (docs/SECURITY.md): 6 CSPRNG digits, stored only as an HMAC-SHA256 keyed with
 * SESSION_SECRET (a leaked table does not reveal codes, and 10^6 candidates cannot be brute-forced
 * offline without the key), 10 minutes, single use, 5 wrong tries, the newest replaces older ones,
 * 20 wrong tries per address and purpose in 24 hours across codes, per-address cooldown and
 * hourly cap, per-IP cap; every count in the database.
 */
export default fp(
  (fastify, _opts, done) => {
    const { clock, config, otpCodesRepository: codes, usersRepository: users, throttleLocksRepository: locks, mailer, rateLimits } = fastify;
    // Keyed `purpose:email`: without it each new code would bring 5 fresh guesses, 600 a day.
    const wrongTries = new WindowCounter(fastify, 'otp-wrong', OTP_POLICY.maxWrongTriesPerDay, DAY);

    const hashCode = (purpose: OtpPurpose, email: string, code: string) =>
      createHmac('sha256', config.sessionSecret).update(`${purpose}\n${email}\n${code}`).digest('hex');
    // Who gets a code: a sign-up code only goes to a new address, a reset code only to an account.
    const mailFor = (purpose: OtpPurpose, email: string, account: Reader | undefined, language: ReaderLanguage, code: string): { content: MailContent; usable: boolean } => {
      const origin = config.appOrigin;
      if (purpose === 'register') {
        return account !== undefined ? { content: accountExistsMail(origin, account), usable: false } : { content: signUpCodeMail(origin, code, { language }), usable: true };
      }
      return account !== undefined
        ? { content: passwordResetCodeMail(origin, code, account), usable: true }
        : { content: passwordResetNoAccountMail(origin, email, { language }), usable: false };
    };

    const service: OtpService = {
      async request(email, ip, purpose = 'register', language = DEFAULT_LANGUAGE) {
        const ipWait = await rateLimits.otpPerIp.hit(ip);
        if (ipWait > 0) throw rateLimited(ipWait);

        const now = clock.now();
        const nowMs = now.getTime();
        const nowIso = now.toISOString();
        const hourAgo = new Date(nowMs - HOUR).toISOString();
        // Existing accounts get the same answer and the same throttling; only the mail differs.
        const reader = await users.readerOf(email);
        const account = reader === undefined ? undefined : { language: storedLanguage(reader.language), ...hourCycleOf(reader.hourCycle) };
        const code = String(randomInt(0, 10 ** 6)).padStart(6, '0');
        const { content, usable } = mailFor(purpose, email, account, language, code);
        const id = newId();
        await fastify.db.transaction().execute(async (trx) => {
          // Check and insert under the address's lock, so concurrent requests (or instances)
          // cannot all pass the cooldown before any of them has written its row.
          await locks.take(`otp:${email}`, nowIso, trx);
          const stats = await codes.statsSince(email, purpose, hourAgo, trx);
          if (stats.newest !== null) {
            const sinceNewest = nowMs - Date.parse(stats.newest);
            if (sinceNewest < OTP_POLICY.resendCooldownMs) throw rateLimited(OTP_POLICY.resendCooldownMs - sinceNewest);
          }
          if (stats.count >= OTP_POLICY.maxPerEmailPerHour && stats.oldest !== null) {
            throw rateLimited(Date.parse(stats.oldest) + HOUR - nowMs);
          }
          await codes.deleteOlderThan(email, purpose, hourAgo, trx);
          await codes.insert(
            {
              id,
              email,
              purpose,
              // A mail without a code: the row only counts for throttling.
              codeHash: hashCode(purpose, email, code),
              expiresAt: new Date(nowMs + OTP_POLICY.ttlMs).toISOString(),
              attempts: 0,
              consumedAt: usable ? null : nowIso,
              createdAt: nowIso,
            },
            trx,
          );
        });

        const sent = await mailer.send({ to: email, ...content });
        if (!sent.ok) {
          // Nothing was delivered, so nothing should count against the cooldown.
          await codes.delete(id);
          throw new AppError(503, 'SERVICE_UNAVAILABLE', SERVER_MESSAGES.serviceUnavailable);
        }
        // Only now does the new code replace the old one (check() also only ever reads the newest).
        await codes.retireActiveExcept(email, purpose, id, nowIso);
      },

      async check(email, code, purpose = 'register') {
        // Every check counts as a wrong try of the day until it proves right, recorded under the
        // address's lock before anything is compared (a burst across codes gets 20 verdicts).
        // Checks without a live code count too, so the answer is the same whether or not the
        // address has an account (a sign-up "code" for one is never usable).
        const day = await wrongTries.attempt(`${purpose}:${email}`);
        if (day.hitId === null) throw new AppError(400, 'INVALID_CODE', SERVER_MESSAGES.codeTriesUsedUp);
        const latest = await codes.latest(email, purpose);
        if (latest === undefined) return { ok: false };
        // The try is spent before comparing, atomically: a burst of guesses gets 5 comparisons.
        if (!(await codes.spendTry(latest.id, clock.now().toISOString(), OTP_POLICY.maxWrongTries))) return { ok: false };
        const expected = Buffer.from(latest.codeHash, 'hex');
        const actual = Buffer.from(hashCode(purpose, email, code), 'hex');
        if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { ok: false };
        await wrongTries.refund(day.hitId);
        return { ok: true, codeId: latest.id };
      },
    };

    fastify.decorate('otpService', service);
    done();
  },
  { name: 'otp-service', dependencies: ['config', 'repositories', 'mailer', 'rate-limit'] },
);
