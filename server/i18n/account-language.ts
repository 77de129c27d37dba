import { DEFAULT_LANGUAGE, LANGUAGE_CONVENTIONS, type HourCycle, type Language, type WeekStart } from '#shared/languages.ts';
import { languageFromHeader } from './translate.ts';

/** An account's language and the formats that go with it (`users.language`, `week_start`, `hour_cycle`). */
export interface AccountLanguage {
  language: Language;
  weekStart: WeekStart;
  hourCycle: HourCycle;
}

/** The language with its conventions: the week's first day and the clock of its main country. */
export function withConventions(language: Language): AccountLanguage {
  return { language, ...LANGUAGE_CONVENTIONS[language] };
}

/**
 * What a new account gets: the best of our languages for the `Accept-Language` of the request that
 * makes it (English when none fits, or without a request: the admin command), with its conventions.
 */
export function newAccountLanguage(acceptLanguage: string | undefined): AccountLanguage {
  return withConventions(acceptLanguage === undefined ? DEFAULT_LANGUAGE : languageFromHeader(acceptLanguage));
}
