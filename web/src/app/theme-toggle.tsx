import { Trans, useLingui } from '@lingui/react/macro';
import { useTheme } from '#web/lib/theme.ts';

/**
 * The nav bar's dark-mode switch: a toggle button, pressed while the dark theme is on. An icon
 * in the bar; `labelled`, a row with its name showing (in the phone's account menu).
 */
export function ThemeToggle({ labelled = false }: { labelled?: boolean }) {
  const [theme, setTheme] = useTheme();
  const dark = theme === 'dark';
  const { t } = useLingui();
  return (
    <button
      type="button"
      className={labelled ? 'nav__menu-item' : 'nav__theme'}
      aria-pressed={dark}
      title={dark ? t`Dark mode is on` : t`Dark mode is off`}
      onClick={() => {
        setTheme(dark ? 'light' : 'dark');
      }}
    >
      {dark ? (
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <path fill="currentColor" d="M15.5 12.6A6.5 6.5 0 0 1 7.4 4.5a6.5 6.5 0 1 0 8.1 8.1Z" />
        </svg>
      ) : (
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <circle cx="10" cy="10" r="3.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            d="M10 2v2M10 16v2M2 10h2M16 10h2M4.3 4.3l1.4 1.4M14.3 14.3l1.4 1.4M4.3 15.7l1.4-1.4M14.3 5.7l1.4-1.4"
          />
        </svg>
      )}
      <span className={labelled ? undefined : 'visually-hidden'}>
        <Trans>Dark mode</Trans>
      </span>
      {labelled ? (
        <span className="nav__menu-state" aria-hidden="true">
          {dark ? <Trans comment="Dark mode is on">On</Trans> : <Trans comment="Dark mode is off">Off</Trans>}
        </span>
      ) : null}
    </button>
  );
}
