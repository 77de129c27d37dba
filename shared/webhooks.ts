import type { Checked } from './validation.ts';
import { WEBHOOK_LIMITS } from './schemas/webhooks.ts';
import { asMessage, message, text, type Message } from './i18n.ts';

/** Answers of the webhooks API, shown as-is by the web app. */
export const WEBHOOK_MESSAGES = {
  created: text('The webhook was added. Copy its secret now: it is not shown again.'),
  saved: text('The webhook was saved.'),
  notFound: text('There is no such webhook on this board.'),
  deliveryNotFound: text('There is no such delivery of this webhook.'),
  redelivering: text('The event is being sent again.'),
  forbidden: text('Only an admin of this board can manage its webhooks.'),
  tooMany: message('A board can have at most {max} webhooks.', { max: WEBHOOK_LIMITS.perBoard }),
  urlRefused: text('This address cannot receive webhooks: it is not a public address.'),
} as const;

/** A webhook's URL: trimmed, an absolute http: or https: URL without user name or password. */
export function checkWebhookUrl(raw: string): Checked<string, Message> {
  const trimmed = raw.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: asMessage(text('Enter a full URL starting with https:// or http://.')) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: asMessage(text('The URL must start with https:// or http://.')) };
  if (url.username !== '' || url.password !== '') return { ok: false, message: asMessage(text('The URL must not contain a user name or password.')) };
  if (trimmed.length > WEBHOOK_LIMITS.urlMax) return { ok: false, message: message('The URL must be at most {max} characters.', { max: WEBHOOK_LIMITS.urlMax }) };
  return { ok: true, value: trimmed };
}
