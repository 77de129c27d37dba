import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { LiveBoardProvider } from '#web/features/tasks/components/live-board.tsx';
import { loginPathFor, RETURN_PARAM, safeReturnPath } from '#web/lib/return-path.ts';
import { BoardScopeProvider } from './board-scope.tsx';
import { LIVE_EVENT_HANDLERS } from './live-events.ts';
import { PageLoading } from './root-layout.tsx';

/**
 * Signed-in only. A signed-out visitor goes to /login, remembering where they were headed
 * (not after an explicit logout: then /login is the destination itself).
 *
 * A tab that starts with only the localStorage flag shows "Guest" in the navigation bar while
 * `/users/me` answers, but the page itself waits: nothing below asks for data, and the live
 * connection does not open, until the server has confirmed the session.
 */
export function RequireAuth() {
  const { session } = useSession();
  const location = useLocation();
  if (session.status === 'signedOut') {
    const to = session.reason === 'logout' ? '/login' : loginPathFor(`${location.pathname}${location.search}`);
    return <Navigate to={to} replace />;
  }
  if (!session.verified) return <PageLoading />;
  return (
    <LiveBoardProvider key={session.user.email} viewer={session.user} handlers={LIVE_EVENT_HANDLERS}>
      <BoardScopeProvider>
        <Outlet />
      </BoardScopeProvider>
    </LiveBoardProvider>
  );
}

/** Signed-out only (login, sign-up). A signed-in user goes on to `?next=` (same-origin) or home. */
export function RequireGuest() {
  const { session } = useSession();
  const [params] = useSearchParams();
  if (session.status === 'signedIn') return <Navigate to={safeReturnPath(params.get(RETURN_PARAM))} replace />;
  return <Outlet />;
}
