import { HOUR } from '../clock.ts';
import type { MailCap } from '../repositories/task-write-statements.ts';

/** Mail that people cause to others (assignment, mention, board mail): at most this many per sender per rolling hour. */
export const SENDER_MAIL_CAP = { mails: 100, windowMs: HOUR } as const;

/** The cap of the mails user `sender` causes at `now`: the window ending then and its limit. */
export function senderMailCap(sender: string, now: Date): MailCap {
  return {
    sender,
    since: new Date(now.getTime() - SENDER_MAIL_CAP.windowMs).toISOString(),
    limit: SENDER_MAIL_CAP.mails,
    now: now.toISOString(),
  };
}
