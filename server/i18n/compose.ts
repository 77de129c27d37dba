import { asMessage, message, type Translatable } from '#shared/i18n.ts';
import { SERVER_MESSAGES } from '#shared/messages.ts';

/**
 * Sentences said one after the other in one answer (a warning after the answer's own sentence),
 * as one message, so that each language decides how its sentences follow each other.
 */
export function sentences(first: Translatable, ...rest: Translatable[]): Translatable {
  const [second, ...more] = rest;
  if (second === undefined) return first;
  // i18n: Two sentences of one answer, one after the other (each is translated on its own).
  return message('{first} {second}', { first: asMessage(first), second: asMessage(sentences(second, ...more)) });
}

/** A write's answer: its own sentence, then a word about the mails the sender's hourly cap held back, if any. */
export function withMailNote(said: Translatable, mailsHeld: number): Translatable {
  return mailsHeld > 0 ? sentences(said, SERVER_MESSAGES.mailCapReached) : said;
}
