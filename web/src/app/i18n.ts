import { i18n, type Messages } from '@lingui/core';
import { bestLanguage, DEFAULT_LANGUAGE, HOUR_CYCLES, isRightToLeft, PSEUDO_LANGUAGE, toLanguage, WEEK_STARTS, type HourCycle, type Language, type WeekStart } from '#shared/languages.ts';
import { setFormatPreferences } from '#web/lib/locale-format.ts';
import { storeOfflineLanguage } from './pwa/offline-language.ts';

/*
 * The language the web app speaks, and its catalogs (lingui.config.ts, docs/i18n.md).
 *
 * Signed out, the app follows the browser. Signed in, it speaks the account's language: the
 * settings answer carries it (app/account-preferences.tsx switches to it), and this device keeps
 * it, with the account's week start and clock, so that the next visit starts in them instead of
 * flashing the browser's language or drawing a calendar's weeks twice.
 *
 * Each language has two catalogs, each its own chunk: the public one (the signed-out screens and
 * the app's frame), loaded before the first render, and the app one (every signed-in screen),
 * loaded with the signed-in part of the app (`withAppCatalog`). Only the language in use is
 * downloaded.
 */

export type WebLanguage = Language | typeof PSEUDO_LANGUAGE;
interface Catalog {
  messages: Messages;
}

const publicCatalogs = import.meta.glob<Catalog>('../locales/public/*.po');
const appCatalogs = import.meta.glob<Catalog>('../locales/app/*.po');

/** Where this device keeps the signed-in account's language between visits. */
export const ACCOUNT_LANGUAGE_KEY = 'taskwise:language';
/** Where it keeps the account's week start and clock, as `weekStart hourCycle` ("monday h23"). */
export const ACCOUNT_FORMATS_KEY = 'taskwise:formats';

const loaded = new Set<string>();

function loadCatalog(catalogs: Record<string, () => Promise<Catalog>>, folder: 'public' | 'app', language: WebLanguage): Promise<void> {
  const key = `${folder}/${language}`;
  if (loaded.has(key)) return Promise.resolve();
  const load = catalogs[`../locales/${key}.po`];
  if (!load) return Promise.reject(new Error(`No ${folder} catalog for ${language}.`));
  return load().then(({ messages }) => {
    i18n.load(language, messages);
    loaded.add(key);
  });
}

/** The browser's language: its first wanted language we speak, or Chromium's pseudo-language when asked for first. */
export function browserLanguage(): WebLanguage {
  const wanted = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  if (wanted[0] === PSEUDO_LANGUAGE) return PSEUDO_LANGUAGE;
  return bestLanguage(wanted);
}

/** The language a page starts in: the account's as this device last saw it, else the browser's. */
export function startLanguage(signedIn: boolean): WebLanguage {
  const browser = browserLanguage();
  if (browser === PSEUDO_LANGUAGE || !signedIn) return browser;
  return toLanguage(localStorage.getItem(ACCOUNT_LANGUAGE_KEY) ?? '') ?? browser;
}

/**
 * In a tab that starts signed in, uses the account's week start and clock as this device last saw
 * them until its settings arrive; anything unreadable is ignored (the language's conventions hold).
 */
export function startFormats(signedIn: boolean): void {
  if (!signedIn) return;
  const [weekStart, hourCycle] = (localStorage.getItem(ACCOUNT_FORMATS_KEY) ?? '').split(' ');
  const knownWeekStart = WEEK_STARTS.find((start) => start === weekStart);
  const knownHourCycle = HOUR_CYCLES.find((cycle) => cycle === hourCycle);
  if (knownWeekStart && knownHourCycle) setFormatPreferences({ weekStart: knownWeekStart, hourCycle: knownHourCycle });
}

function showLanguage(language: WebLanguage): void {
  document.documentElement.lang = language;
  document.documentElement.dir = isRightToLeft(language) ? 'rtl' : 'ltr';
}

let appCatalogWanted = false;

/**
 * Loads the language's catalogs (the app one too once the signed-in part has asked for it) and
 * speaks it from then on. A language already in use costs nothing.
 */
export async function switchLanguage(language: WebLanguage, { app = appCatalogWanted }: { app?: boolean } = {}): Promise<void> {
  await Promise.all([loadCatalog(publicCatalogs, 'public', language), app ? loadCatalog(appCatalogs, 'app', language) : undefined]);
  if (i18n.locale !== language) i18n.activate(language);
  showLanguage(language);
  // The service worker caches this language's catalogs when it is installed (app/pwa/offline-language.ts).
  storeOfflineLanguage(language);
}

/**
 * The language a page starts in, or English when its catalogs cannot be had: offline, on a device
 * whose service worker has not kept that language (app/pwa/offline-language.ts). English's are precached.
 */
export function startSpeaking(language: WebLanguage, options: { app: boolean }): Promise<void> {
  return switchLanguage(language, options).catch((error: unknown) => {
    if (language === DEFAULT_LANGUAGE) throw error;
    return switchLanguage(DEFAULT_LANGUAGE, options);
  });
}

/** Loads the app catalog of the language in use; the signed-in chunks wait for it (`withAppCatalog`). */
export function loadAppCatalog(): Promise<void> {
  appCatalogWanted = true;
  return loadCatalog(appCatalogs, 'app', (i18n.locale || browserLanguage()) as WebLanguage);
}

/** A lazy chunk of the signed-in part, ready only once the app catalog is: its screens never show a message id. */
export function withAppCatalog<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadAppCatalog()]).then(([module]) => module);
}

/**
 * The signed-in account's language and formats, from its settings: remembered on this device and
 * used from now on. The pseudo-language, when the browser asks for it, stays.
 */
export async function adoptAccountPreferences({ language, weekStart, hourCycle }: { language: Language; weekStart: WeekStart; hourCycle: HourCycle }): Promise<void> {
  localStorage.setItem(ACCOUNT_LANGUAGE_KEY, language);
  localStorage.setItem(ACCOUNT_FORMATS_KEY, `${weekStart} ${hourCycle}`);
  const formatsChanged = setFormatPreferences({ weekStart, hourCycle });
  const next = i18n.locale === PSEUDO_LANGUAGE ? PSEUDO_LANGUAGE : language;
  if (next !== i18n.locale) await switchLanguage(next);
  // Same language, other formats: the screens that show dates render again.
  else if (formatsChanged) i18n.activate(next);
}

/** After signing out: forget the account's language and formats and follow the browser again. */
export function forgetAccountLanguage(): Promise<void> {
  localStorage.removeItem(ACCOUNT_LANGUAGE_KEY);
  localStorage.removeItem(ACCOUNT_FORMATS_KEY);
  setFormatPreferences({ weekStart: null, hourCycle: null });
  return switchLanguage(browserLanguage());
}
