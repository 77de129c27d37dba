import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The same content as simple HTML; the mail is then multipart/alternative. */
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
}

/** A mail that could not be sent is an expected failure: a result, not an exception. */
export type SendResult = { ok: true } | { ok: false; error: unknown };

export interface Mailer {
  send(mail: Mail): Promise<SendResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** What the log-only mailer prints: a plain block, so the code sits on its own line. */
export function formatMailForLog(from: string, mail: Mail): string {
  const rule = '-'.repeat(72);
  const extra = Object.entries(mail.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\n`)
    .join('');
  return `${rule}\nMail not sent (SMTP_URL is not set)\nFrom: ${from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n${extra}\n${mail.text.trimEnd()}\n${rule}\n`;
}

/**
 * Sends mail through SMTP_URL with nodemailer. Without SMTP_URL (development), every mail is
 * printed to the log instead, after a start-up warning: a plain block on a terminal, a JSON record
 * otherwise.
 * @see https://github.com/epicweb-dev/epic-stack/blob/main/app/utils/email.server.ts
 */
export default fp(
  (fastify, _opts, done) => {
    const { smtpUrl, mailFrom } = fastify.config;
    if (smtpUrl === null) {
      fastify.log.warn('SMTP_URL is not set: e-mails are printed to the log instead of being sent.');
      fastify.decorate('mailer', {
        send(mail) {
          if (fastify.config.logFormat === 'json') {
            // One JSON record like every other line (read it with e.g. `jq -r .mail.text`).
            fastify.log.info({ mail: { from: mailFrom, ...mail } }, 'Mail printed to the log (SMTP_URL is not set)');
          } else {
            fastify.log.info({ to: mail.to, subject: mail.subject }, 'Mail printed to the log (SMTP_URL is not set)');
            process.stdout.write(formatMailForLog(mailFrom, mail));
          }
          return Promise.resolve({ ok: true });
        },
      } satisfies Mailer);
      done();
      return;
    }
    // Pooled: an OTP answer waits for the mail server's acceptance, so reuse connections instead
    // of paying a TCP (+TLS) and SMTP handshake per mail. `?pool=false` in SMTP_URL turns it off.
    const url = new URL(smtpUrl);
    if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
    // Bounded waits, so a stalled mail server cannot hold a worker (or a shutdown) for minutes.
    if (!url.searchParams.has('connectionTimeout')) url.searchParams.set('connectionTimeout', '10000');
    if (!url.searchParams.has('greetingTimeout')) url.searchParams.set('greetingTimeout', '10000');
    if (!url.searchParams.has('socketTimeout')) url.searchParams.set('socketTimeout', '20000');
    const transport = nodemailer.createTransport(url.toString());
    fastify.decorate('mailer', {
      async send(mail) {
        try {
          await transport.sendMail({
            from: mailFrom,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            ...(mail.html === undefined ? {} : { html: mail.html }),
            ...(mail.headers === undefined ? {} : { headers: mail.headers }),
          });
          return { ok: true };
        } catch (error) {
          fastify.log.warn({ err: error, to: mail.to }, 'Sending mail failed');
          return { ok: false, error };
        }
      },
    } satisfies Mailer);
    fastify.addHook('onClose', (_instance, next) => {
      transport.close();
      next();
    });
    done();
  },
  { name: 'mailer', dependencies: ['config'] },
);
