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
  readonly values?: Readonly<Record<string, string | number>>;
}

/** Marks a fixed English text for the catalogs and returns it unchanged. */
export function text<T extends string>(english: T): T {
  return english;
}

/** An English ICU message with its values, translated where it is shown. */
export function message(english: string, values: Readonly<Record<string, string | number>>): Message {
  return { id: english, values };
}

/** A text or a message, for what takes either. */
export type Translatable = string | Message;
