/**
 * The languages Taskwise speaks, and how a person's language is found. Both sides use this one
 * list: the server to answer `Accept-Language` and to check a setting, the web app to follow the
 * browser while signed out.
 */

/** Language tags as the settings API takes and gives them (matched ignoring case). */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'pl', 'uk', 'ja', 'zh-CN', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * Accented English, 40 % longer: the browser tests' way to find text that is not in a catalog or
 * that is cut off. Chromium calls the same pseudo-language `en-XA`. The web app shows it when the
 * browser asks for it first; it is never an account's setting.
 */
export const PSEUDO_LANGUAGE = 'en-XA';

/** Each language's own name for itself, as a language picker shows it whatever language is in use. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  uk: 'Українська',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
};

export const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];
export const HOUR_CYCLES = ['h12', 'h23'] as const;
export type HourCycle = (typeof HOUR_CYCLES)[number];

/**
 * What a new account gets for the week's first day and the clock, by its language: what the
 * language's main country uses (CLDR's week data and time formats). People change both on the
 * account page.
 */
export const LANGUAGE_CONVENTIONS: Readonly<Record<Language, { weekStart: WeekStart; hourCycle: HourCycle }>> = {
  en: { weekStart: 'sunday', hourCycle: 'h12' },
  de: { weekStart: 'monday', hourCycle: 'h23' },
  fr: { weekStart: 'monday', hourCycle: 'h23' },
  es: { weekStart: 'monday', hourCycle: 'h23' },
  'pt-BR': { weekStart: 'sunday', hourCycle: 'h23' },
  it: { weekStart: 'monday', hourCycle: 'h23' },
  nl: { weekStart: 'monday', hourCycle: 'h23' },
  pl: { weekStart: 'monday', hourCycle: 'h23' },
  uk: { weekStart: 'monday', hourCycle: 'h23' },
  ja: { weekStart: 'sunday', hourCycle: 'h23' },
  'zh-CN': { weekStart: 'monday', hourCycle: 'h23' },
  ar: { weekStart: 'saturday', hourCycle: 'h12' },
};

/** Languages written right to left. */
export function isRightToLeft(language: string): boolean {
  return language === 'ar';
}

/** The listed language a tag names, ignoring case (`PT-br` is `pt-BR`), or null. */
export function toLanguage(tag: string): Language | null {
  const lower = tag.trim().toLowerCase();
  return LANGUAGES.find((language) => language.toLowerCase() === lower) ?? null;
}

/**
 * The best of our languages for a list of wanted ones, most wanted first (the browser's
 * `navigator.languages`, or `Accept-Language` in order of its weights): the first that is ours
 * exactly, else by its language alone (`de-AT` is `de`, `pt-PT` is `pt-BR`, `zh-TW` is `zh-CN`).
 * A later exact match does not beat an earlier wanted language: `fr-CA, en` gives `fr`.
 */
export function bestLanguage(wanted: readonly string[]): Language {
  for (const tag of wanted) {
    const exact = toLanguage(tag);
    if (exact) return exact;
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    const byPrimary = LANGUAGES.find((language) => language.toLowerCase().split('-')[0] === primary);
    if (byPrimary) return byPrimary;
  }
  return DEFAULT_LANGUAGE;
}
