import { Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { ButtonLink } from '#web/components/button.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { lazyComponent } from '#web/lib/lazy-component.tsx';
import { Logo } from './logo.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import './nav-bar.css';

/*
 * The bar's signed-in part comes with the signed-in pages' chunk (signed-in.tsx), so /login and
 * /sign-up download only the brand, Login, Sign Up and the theme switch; main.tsx fetches it
 * before a signed-in tab's first render (routes.tsx, preloadFirstScreen).
 */
export const SignedInNav = lazyComponent(() => import('./signed-in.tsx').then((m) => m.SignedInNav));

export function NavBar() {
  const { session } = useSession();
  return (
    <header className="nav">
      <nav className="nav__inner" aria-label="Main">
        <Link to="/" className="nav__brand">
          <Logo />
          <span>Taskwise</span>
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
                  Login
                </NavLink>
              </li>
              <li>
                <ButtonLink to="/sign-up" variant="primary" size="sm">
                  Sign Up
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
