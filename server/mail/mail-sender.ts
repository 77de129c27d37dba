import type { Mailer } from '../plugins/mailer.ts';
import type { DeliveryResult } from '../push/push-sender.ts';
import type { OutboxRow } from '../repositories/outbox-repository.ts';

/** The sender of the outbox's mails: one attempt through the mailer, whose failures are all worth a retry. */
export function createMailSender(mailer: Mailer) {
  return {
    what: 'Mail',
    async deliver(row: OutboxRow): Promise<DeliveryResult> {
      const headers = JSON.parse(row.headers) as Record<string, string>;
      const result = await mailer.send({ to: row.toEmail, subject: row.subject, text: row.textBody, html: row.htmlBody, headers });
      if (result.ok) return { ok: true };
      return { ok: false, retry: true, reason: result.error instanceof Error ? result.error.message : String(result.error) };
    },
  };
}
