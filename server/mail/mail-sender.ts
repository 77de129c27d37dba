import { storedLanguage } from '../i18n/translate.ts';
import type { Mailer } from '../plugins/mailer.ts';
import type { DeliveryResult } from '../push/push-sender.ts';
import type { OutboxRow } from '../repositories/outbox-repository.ts';
import { DEFAULT_LANGUAGE } from '#shared/languages.ts';
import { hourCycleOf, writeMail, type MailContent, type MailTexts } from './templates.ts';

/** The account behind an address, as a mail to it needs it (undefined: no account). */
export type ReaderOf = (email: string) => Promise<{ language: string; hourCycle: string } | undefined>;

/**
 * The sender of the outbox's mails: one attempt through the mailer, whose failures are all worth
 * a retry. A row that keeps what it is made of (`texts`) is written now, in the language and
 * clock its recipient's account has now — so a change of language counts for mails still
 * waiting — or, for an address without an account, in the language of whoever caused it.
 */
export function createMailSender(mailer: Mailer, readerOf: ReaderOf) {
  const contentOf = async (row: OutboxRow): Promise<MailContent> => {
    if (row.texts === null || row.texts === undefined) return { subject: row.subject, text: row.textBody, html: row.htmlBody };
    const texts = JSON.parse(row.texts) as MailTexts;
    const account = await readerOf(row.toEmail);
    if (account === undefined) return writeMail(texts, { language: texts.language ?? DEFAULT_LANGUAGE }, false);
    return writeMail(texts, { language: storedLanguage(account.language), ...hourCycleOf(account.hourCycle) }, true);
  };
  return {
    what: 'Mail',
    async deliver(row: OutboxRow): Promise<DeliveryResult> {
      const headers = JSON.parse(row.headers) as Record<string, string>;
      const content = await contentOf(row);
      const result = await mailer.send({ to: row.toEmail, ...content, headers });
      if (result.ok) return { ok: true };
      return { ok: false, retry: true, reason: result.error instanceof Error ? result.error.message : String(result.error) };
    },
  };
}
