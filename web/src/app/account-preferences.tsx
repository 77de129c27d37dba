import { useEffect } from 'react';
import { useSettings } from '#web/features/account/api/get-settings.ts';
import { adoptAccountPreferences } from './i18n.ts';

/**
 * Speaks the signed-in account's language, with its week start and clock, as its settings say:
 * on sign-in, on every visit (another device may have changed them), and right after the account
 * page saved new ones. Renders nothing.
 */
export function AccountPreferences() {
  const settings = useSettings().data?.data.settings;
  const language = settings?.language;
  const weekStart = settings?.weekStart;
  const hourCycle = settings?.hourCycle;
  useEffect(() => {
    if (language === undefined || weekStart === undefined || hourCycle === undefined) return;
    adoptAccountPreferences({ language, weekStart, hourCycle }).catch((error: unknown) => {
      // Offline, the catalog may not load: the page stays in the language it has.
      console.warn('The account’s language could not be loaded:', error);
    });
  }, [language, weekStart, hourCycle]);
  return null;
}
