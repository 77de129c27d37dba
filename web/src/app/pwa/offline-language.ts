/**
 * The language this device speaks, kept where the service worker can read it when it is
 * installed (Cache Storage, which the page and the worker share): the worker then caches that
 * language's catalogs with the app shell (catalog-files.ts), so the app opens in it offline from
 * the first visit on. Written by the page at every switch of language (web/src/app/i18n.ts).
 */

const LANGUAGE_CACHE = 'taskwise-language';
const LANGUAGE_ENTRY = '/language';

let lastStore: Promise<void> = Promise.resolve();

/**
 * Remembers the language this device speaks, for the next worker's installation (Cache Storage,
 * which the page and the worker share). Nothing happens where there is no Cache Storage; a
 * failure only means the language is not ready offline, where the app falls back to English.
 */
export function storeOfflineLanguage(language: string): void {
  if (typeof caches === 'undefined') return;
  lastStore = lastStore
    .then(() => caches.open(LANGUAGE_CACHE))
    .then((cache) => cache.put(LANGUAGE_ENTRY, new Response(language)))
    .catch(() => undefined);
}

/** Settles once the language last given to `storeOfflineLanguage` is stored (or could not be). */
export const offlineLanguageStored = (): Promise<void> => lastStore;

/** The language stored by `storeOfflineLanguage`, if any. */
export async function storedOfflineLanguage(): Promise<string | undefined> {
  const answer = await (await caches.open(LANGUAGE_CACHE)).match(LANGUAGE_ENTRY);
  if (answer === undefined) return undefined;
  const language = (await answer.text()).trim();
  return language === '' ? undefined : language;
}
