import { i18n } from '@lingui/core';
import { LANGUAGE_CONVENTIONS, PSEUDO_LANGUAGE, toLanguage, type HourCycle, type WeekStart } from '#shared/languages.ts';

/*
 * Dates, times and numbers in the language in use, with the account's first day of the week and
 * clock (12- or 24-hour). Every `Intl` format of the web app comes from here, made when it is
 * used (never at a module's top, which would fix the language of the first page) and cached per
 * language and options.
 */

interface Preferences {
  weekStart: WeekStart | null;
  hourCycle: HourCycle | null;
}

/** The signed-in account's choices; null follows the language's conventions (signed out, or not yet known). */
const preferences: Preferences = { weekStart: null, hourCycle: null };

/** Sets the account's week start and clock (from its settings); nulls go back to the language's. Says whether they changed. */
export function setFormatPreferences(next: Preferences): boolean {
  if (preferences.weekStart === next.weekStart && preferences.hourCycle === next.hourCycle) return false;
  preferences.weekStart = next.weekStart;
  preferences.hourCycle = next.hourCycle;
  dateFormats.clear();
  return true;
}

/** The locale `Intl` formats with: the language in use (the pseudo-language formats as English). */
export function formatLocale(): string {
  return !i18n.locale || i18n.locale === PSEUDO_LANGUAGE ? 'en' : i18n.locale;
}

function conventions() {
  return LANGUAGE_CONVENTIONS[toLanguage(formatLocale()) ?? 'en'];
}

/** The first day of the week: the account's choice, else the language's. */
export function weekStart(): WeekStart {
  return preferences.weekStart ?? conventions().weekStart;
}

/** The first day of the week as a day number of `Date.getUTCDay()` (0 is Sunday). */
export function weekStartDay(): number {
  const start = weekStart();
  return start === 'monday' ? 1 : start === 'saturday' ? 6 : 0;
}

export function hourCycle(): HourCycle {
  return preferences.hourCycle ?? conventions().hourCycle;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time format in the language in use, with the account's clock when it shows hours. */
export function dateTimeFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = formatLocale();
  const key = `${locale}\0${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    const showsTime = options.hour !== undefined || options.timeStyle !== undefined;
    format = new Intl.DateTimeFormat(locale, showsTime ? { ...options, hourCycle: hourCycle() } : options);
    dateFormats.set(key, format);
  }
  return format;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number format in the language in use. */
export function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const locale = formatLocale();
  const key = `${locale}\0${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** A whole number as people of the language write it (1,234 / 1.234 / ١٬٢٣٤). */
export function formatNumber(value: number): string {
  return numberFormat().format(value);
}

const listFormats = new Map<string, Intl.ListFormat>();

/** Items as a list in the language in use ("a, b and c", "a、b、c"); `type: 'disjunction'` for "or". */
export function formatList(items: readonly string[], type: Intl.ListFormatType = 'conjunction'): string {
  const locale = formatLocale();
  const key = `${locale}\0${type}`;
  let format = listFormats.get(key);
  if (!format) {
    format = new Intl.ListFormat(locale, { style: 'long', type });
    listFormats.set(key, format);
  }
  return format.format(items);
}
