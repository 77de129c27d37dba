import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { ButtonLink } from '#web/components/button.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { lazyComponent } from '#web/lib/lazy-component.tsx';
import { withAppCatalog } from './i18n.ts';
import { APP_NAME } from '#web/lib/use-document-title.ts';
import { Logo } from './logo.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import './nav-bar.css';

/*
 * The bar's signed-in part comes with the signed-in pages' chunk (signed-in.tsx), so /login and
 * /sign-up download only the brand, Login, Sign Up and the theme switch; main.tsx fetches it
 * before a signed-in tab's first render (routes.tsx, preloadFirstScreen).
 */
export const SignedInNav = lazyComponent(withAppCatalog(() => import('./signed-in.tsx').then((m) => m.SignedInNav)));

export function NavBar() {
  const { session } = useSession();
  const { t } = useLingui();
  return (
    <header className="nav">
      <nav className="nav__inner" aria-label={t({ message: 'Main', comment: 'The name of the main navigation bar, for screen readers' })}>
        <Link to="/" className="nav__brand">
          <Logo />
          <span>{APP_NAME}</span>
        </Link>
        {session.status === 'signedIn' ? (
          <Suspense fallback={null}>
            <SignedInNav user={session.user} verified={session.verified} />
          </Suspense>
        ) : (
          <>
            <ul className="nav__links nav__links--guest">
              <li>
                <NavLink to="/login" className="nav__link">
                  <Trans comment="The link to the sign-in page">Login</Trans>
                </NavLink>
              </li>
              <li>
                <ButtonLink to="/sign-up" variant="primary" size="sm">
                  <Trans comment="The link to the sign-up page">Sign Up</Trans>
                </ButtonLink>
              </li>
            </ul>
            <ThemeToggle />
          </>
        )}
      </nav>
    </header>
  );
}
