import { isValidEmail } from './email.ts';

/**
 * Mentions in a comment: `@` followed by an e-mail address, e.g. `@ada@example.com`. The server
 * reads them to decide who is told (server/services/mentions.ts); the web app reads them the
 * same way to show a mention as the person's name. The comment itself stays plain text.
 */

/** At most this many distinct addresses of one comment count as mentions; later ones stay plain text. */
export const MENTIONS_PER_COMMENT = 20;

/** One `@address` in a text: where it is (`start` at the `@`, `end` after the address) and the address, lower-cased. */
export interface MentionToken {
  start: number;
  end: number;
  email: string;
}

// The `@` must not follow a character that could belong to an address, so `bob@example.com`
// is an address in the text, not a mention of `example.com`. The address is then cut where
// the characters of an address end; a sentence's full stop or hyphen after it is not part of
// it (a domain never ends with one), and ")" "," ";" ":" end it anyway.
const LOCAL = "A-Za-z0-9.!#$%&'*+/=?^_`{|}~-";
const MENTION_RE = new RegExp(`(?<![@${LOCAL}])@([${LOCAL}]+@[A-Za-z0-9.-]+)`, 'g');

/** Every `@address` token of `text` in order, repeats included (the web app's rendering). */
export function findMentions(text: string): MentionToken[] {
  const tokens: MentionToken[] = [];
  for (const match of text.matchAll(MENTION_RE)) {
    const raw = (match[1] ?? '').replace(/[.-]+$/, '');
    const email = raw.toLowerCase();
    if (!isValidEmail(email)) continue;
    tokens.push({ start: match.index, end: match.index + 1 + raw.length, email });
  }
  return tokens;
}

/** The distinct addresses `text` mentions, in order of first mention, at most MENTIONS_PER_COMMENT. */
export function mentionedAddresses(text: string): string[] {
  const found = new Set<string>();
  for (const { email } of findMentions(text)) {
    if (found.size === MENTIONS_PER_COMMENT) break;
    found.add(email);
  }
  return [...found];
}
