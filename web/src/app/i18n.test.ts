import { afterEach, describe, expect, it } from 'vitest';
import { hourCycle, setFormatPreferences, weekStart } from '#web/lib/locale-format.ts';
import { ACCOUNT_FORMATS_KEY, adoptAccountPreferences, forgetAccountLanguage, startFormats } from './i18n.ts';

afterEach(() => {
  localStorage.clear();
  setFormatPreferences({ weekStart: null, hourCycle: null });
});

describe('the account’s week start and clock on this device', () => {
  it('are remembered when the account’s settings are adopted, and used from the next page’s start', async () => {
    await adoptAccountPreferences({ language: 'en', weekStart: 'saturday', hourCycle: 'h23' });
    expect(localStorage.getItem(ACCOUNT_FORMATS_KEY)).toBe('saturday h23');

    setFormatPreferences({ weekStart: null, hourCycle: null }); // a new page
    expect(weekStart()).toBe('sunday'); // English's own
    startFormats(true);
    expect(weekStart()).toBe('saturday');
    expect(hourCycle()).toBe('h23');
  });

  it('are not used by a tab that starts signed out', () => {
    localStorage.setItem(ACCOUNT_FORMATS_KEY, 'monday h23');
    startFormats(false);
    expect(weekStart()).toBe('sunday');
    expect(hourCycle()).toBe('h12');
  });

  it('are ignored when what is kept is not a week start and a clock', () => {
    for (const kept of ['tuesday h23', 'monday h24', 'monday', '', '{"weekStart":"monday"}']) {
      localStorage.setItem(ACCOUNT_FORMATS_KEY, kept);
      startFormats(true);
      expect(weekStart()).toBe('sunday');
      expect(hourCycle()).toBe('h12');
    }
  });

  it('are forgotten on signing out', async () => {
    await adoptAccountPreferences({ language: 'en', weekStart: 'monday', hourCycle: 'h23' });
    await forgetAccountLanguage();
    expect(localStorage.getItem(ACCOUNT_FORMATS_KEY)).toBeNull();
    expect(weekStart()).toBe('sunday');
  });
});
