import { useCallback, useEffect, useState } from 'react';

/**
 * The colour theme. `public/theme.js` sets `<html data-theme>` before the first paint from
 * the same storage key (the person's choice) or the system's `prefers-color-scheme`; this
 * module keeps it up to date afterwards and owns the toggle.
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'taskwise-theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function readStored(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null; // storage blocked: follow the system
  }
}

function systemTheme(): Theme {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function currentTheme(): Theme {
  const set = document.documentElement.dataset.theme;
  return set === 'dark' || set === 'light' ? set : (readStored() ?? systemTheme());
}

function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** The theme in effect and a setter that remembers the choice (localStorage). */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setThemeState] = useState<Theme>(currentTheme);

  useEffect(() => {
    applyTheme(theme);
  }, [theme]);

  useEffect(() => {
    // Without a stored choice the system decides, also when it changes (e.g. at sunset).
    const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
    const onSystem = () => {
      if (readStored() === null) setThemeState(systemTheme());
    };
    // Another tab toggled: follow it.
    const onStorage = (event: StorageEvent) => {
      if (event.key === THEME_STORAGE_KEY) setThemeState(readStored() ?? systemTheme());
    };
    media?.addEventListener('change', onSystem);
    window.addEventListener('storage', onStorage);
    return () => {
      media?.removeEventListener('change', onSystem);
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const setTheme = useCallback((next: Theme) => {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Not remembered, but still applied for this page.
    }
    setThemeState(next);
  }, []);

  return [theme, setTheme];
}
