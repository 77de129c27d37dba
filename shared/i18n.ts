/**
 * Texts written in shared/ and server/, where Lingui's macros cannot run (Node runs the server's
 * TypeScript as it is, without a build). Their English words, an ICU MessageFormat message, are
 * their id in the catalogs, as in gettext: `npm run i18n:extract` finds every `text('…')` and
 * `message('…', …)` with a literal first argument (scripts/i18n/extract-texts.ts) and each side
 * translates them where they are shown — the server by the reader's language
 * (server/i18n/translate.ts), the web app with its catalogs (`i18n._(message)`).
 */

/** A text with values to put in: `message('{count, plural, one {# task} other {# tasks}} changed.', { count })`. */
export interface Message {
  readonly id: string;
  readonly values?: Readonly<Record<string, MessageValue>>;
}

/**
 * A value put into a message: a string or number as it is (a name, an address, a count), or a
 * message of its own, translated first and then put in (the server's texts only: a field's label
 * in a sentence about the field).
 */
export type MessageValue = string | number | Message;

/** Marks a fixed English text for the catalogs and returns it unchanged. */
export function text<T extends string>(english: T): T {
  return english;
}

/** An English ICU message with its values, translated where it is shown. */
export function message(english: string, values: Readonly<Record<string, MessageValue>>): Message {
  return { id: english, values };
}

/** A text or a message, for what takes either. */
export type Translatable = string | Message;

/**
 * A text as a message (`{ id }`): what takes only messages (Lingui's `i18n._(descriptor)`, a value
 * of another message that is translated before it is put in) takes fixed texts this way too.
 */
export function asMessage(translatable: Translatable): Message {
  return typeof translatable === 'string' ? { id: translatable } : translatable;
}
