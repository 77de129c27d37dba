import type { Checked } from './validation.ts';
import { WEBHOOK_LIMITS } from './schemas/webhooks.ts';

/** Answers of the webhooks API, shown as-is by the web app. */
export const WEBHOOK_MESSAGES = {
  created: 'The webhook was added. Copy its secret now: it is not shown again.',
  saved: 'The webhook was saved.',
  notFound: 'There is no such webhook on this board.',
  deliveryNotFound: 'There is no such delivery of this webhook.',
  redelivering: 'The event is being sent again.',
  forbidden: 'Only an admin of this board can manage its webhooks.',
  tooMany: `A board can have at most ${WEBHOOK_LIMITS.perBoard} webhooks.`,
  urlRefused: 'This address cannot receive webhooks: it is not a public address.',
} as const;

/** A webhook's URL: trimmed, an absolute http: or https: URL without user name or password. */
export function checkWebhookUrl(raw: string): Checked<string> {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'Enter a full URL starting with https:// or http://.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: 'The URL must start with https:// or http://.' };
  if (url.username !== '' || url.password !== '') return { ok: false, message: 'The URL must not contain a user name or password.' };
  if (text.length > WEBHOOK_LIMITS.urlMax) return { ok: false, message: `The URL must be at most ${WEBHOOK_LIMITS.urlMax} characters.` };
  return { ok: true, value: text };
}
