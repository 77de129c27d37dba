import { setupI18n, type I18n } from '@lingui/core';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import Negotiator from 'negotiator';
import { readFileSync } from 'node:fs';
import pseudolocale from 'pseudolocale';
import { bestLanguage, DEFAULT_LANGUAGE, PSEUDO_LANGUAGE, toLanguage, type Language } from '#shared/languages.ts';
import type { Translatable } from '#shared/i18n.ts';

/*
 * The server's texts in each reader's language: API messages, mails, pushes, notifications and
 * the calendar feed. The catalogs are server/locales/<language>.po (lingui.config.ts), whose
 * ids are the English texts marked with `text()` / `message()` (shared/i18n.ts). A language's
 * catalog is read and compiled the first time it is needed, once per process.
 */

const translators = new Map<Language, I18n>();
const po = formatter({ lineNumbers: false });

function load(language: Language): I18n {
  const i18n = setupI18n();
  // Compiles the English source of a text the catalog does not have yet (a new message before its
  // translation; the English catalog is the source itself).
  i18n.setMessagesCompiler(compileMessage);
  const path = new URL(`../locales/${language}.po`, import.meta.url);
  const catalog = po.parse(readFileSync(path, 'utf8'), { locale: language, sourceLocale: 'en', filename: path.pathname }) as Record<string, { translation?: string }>;
  const messages: Record<string, ReturnType<typeof compileMessage>> = {};
  for (const [id, entry] of Object.entries(catalog)) {
    if (entry.translation) messages[id] = compileMessage(entry.translation);
  }
  i18n.load(language, messages);
  i18n.activate(language);
  return i18n;
}

function translator(language: Language): I18n {
  let i18n = translators.get(language);
  if (!i18n) {
    i18n = load(language);
    translators.set(language, i18n);
  }
  return i18n;
}

/** A language the server writes in: one of ours, or the browser tests' pseudo-language. */
export type ReaderLanguage = Language | typeof PSEUDO_LANGUAGE;

/**
 * A text or message in the language; the English text when the catalog has none for it. The
 * pseudo-language is the English text accented and 40 % longer, made here: it needs no catalog.
 */
export function translate(language: ReaderLanguage, text: Translatable): string {
  if (language === PSEUDO_LANGUAGE) return pseudolocale(inLanguage(DEFAULT_LANGUAGE, text), { prepend: '', append: '', extend: 0.4, extendCharacter: '·' });
  return inLanguage(language, text);
}

/** The text in one of our languages, a message put into it (a field's label) translated first. */
function inLanguage(language: Language, text: Translatable): string {
  if (typeof text === 'string') return translator(language)._(text);
  const values = text.values === undefined ? undefined : Object.fromEntries(Object.entries(text.values).map(([name, value]) => [name, typeof value === 'object' ? inLanguage(language, value) : value]));
  return translator(language)._(text.id, values);
}

/** The English text of a text or message (logs, and the `Error.message` of an answer's error). */
export function english(text: Translatable): string {
  return translate(DEFAULT_LANGUAGE, text);
}

function wantedLanguages(acceptLanguage: string | undefined): string[] {
  if (!acceptLanguage) return [];
  return new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages().filter((tag) => tag !== '*');
}

/**
 * The best of our languages for an `Accept-Language` header (else English): its languages in
 * the order of their weights, the first we speak, exactly or by its language alone.
 */
export function languageFromHeader(acceptLanguage: string | undefined): Language {
  return bestLanguage(wantedLanguages(acceptLanguage));
}

/**
 * The language to answer a request in: the pseudo-language when the header asks for it first
 * (the browser tests' way to find untranslated text, whoever is signed in), else the signed-in
 * account's language, else the header's best match. Signed out, only the header counts: an
 * answer about an address never tells that account's language.
 */
export function readerLanguage(acceptLanguage: string | undefined, accountLanguage: Language | null): ReaderLanguage {
  const wanted = wantedLanguages(acceptLanguage);
  if (wanted[0] === PSEUDO_LANGUAGE) return PSEUDO_LANGUAGE;
  return accountLanguage ?? bestLanguage(wanted);
}

/** A stored language tag as a Language (a row written before a language was dropped reads as English). */
export function storedLanguage(tag: string | null | undefined): Language {
  return toLanguage(tag ?? '') ?? DEFAULT_LANGUAGE;
}
