import { Link, NavLink } from 'react-router';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { Button, ButtonLink } from '#web/components/button.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { useLogout } from '#web/features/auth/api/logout.ts';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { isApiError, NETWORK_ERROR_MESSAGE } from '#web/lib/api-client.ts';
import { Logo } from './logo.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import './nav-bar.css';

export function NavBar() {
  const { session, signOut } = useSession();
  const logout = useLogout();
  const { notify } = useNotices();
  const signedIn = session.status === 'signedIn';

  const onLogout = () => {
    logout.mutate(undefined, {
      onSuccess: () => {
        signOut('logout');
      },
      onError: (error) => {
        // No session on the server any more: that is what logging out wanted.
        if (isApiError(error) && error.status === 401) {
          signOut('logout');
          return;
        }
        const message = isApiError(error) ? error.message : NETWORK_ERROR_MESSAGE;
        notify('error', `${CLIENT_MESSAGES.logoutPrefix}${message || CLIENT_MESSAGES.logoutFailedDefault}`);
      },
    });
  };

  return (
    <header className="nav">
      <nav className="nav__inner" aria-label="Main">
        <Link to="/" className="nav__brand">
          <Logo />
          <span>Taskwise</span>
        </Link>
        {signedIn ? (
          <>
            <ul className="nav__links">
              <li>
                <NavLink to="/" end className="nav__link">
                  Home
                </NavLink>
              </li>
              <li>
                <NavLink to="/tasks" className="nav__link">
                  Tasks
                </NavLink>
              </li>
              <li>
                <NavLink to="/account" className="nav__link">
                  Account
                </NavLink>
              </li>
            </ul>
            <p className="nav__welcome">
              Welcome, <strong>{session.user.fullName}</strong>
            </p>
            <Button size="sm" className="nav__logout" onClick={onLogout} busy={logout.isPending}>
              {logout.isPending ? 'Logging out…' : 'Logout'}
            </Button>
          </>
        ) : (
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
        )}
        <ThemeToggle />
      </nav>
    </header>
  );
}
