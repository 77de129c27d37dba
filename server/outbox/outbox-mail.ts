import { newId } from '../db/ids.ts';
import type { MailContent, MailTexts } from '../mail/templates.ts';
import type { OutboxRow } from '../repositories/outbox-repository.ts';

/** A mail to write to the outbox with the change that causes it. */
export interface OutboxMail extends MailContent {
  /** What kind of mail it is (for logs and metrics): `assigned`, `due-soon`, `overdue`, … */
  kind: string;
  to: string;
  headers?: Record<string, string>;
  /** At most one row with this key is ever written (e.g. one reminder per task and deadline). */
  dedupeKey?: string;
  /** The account whose change caused the mail to someone else (counted against its hourly cap). */
  causedBy?: string;
  /** What the mail is made of, for the sender to write it in its reader's language (else it goes as written). */
  texts?: MailTexts;
}

/** The pending outbox row of a mail written at `now`. */
export function outboxRowOf(mail: OutboxMail, now: string): OutboxRow {
  return {
    id: newId(),
    kind: mail.kind,
    toEmail: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html,
    headers: JSON.stringify(mail.headers ?? {}),
    dedupeKey: mail.dedupeKey ?? null,
    status: 'pending',
    attempts: 0,
    runAt: now,
    lockedBy: null,
    lockedUntil: null,
    lastError: null,
    createdAt: now,
    sentAt: null,
    causedBy: mail.causedBy ?? null,
    texts: mail.texts === undefined ? null : JSON.stringify(mail.texts),
  };
}
