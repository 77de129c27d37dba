import { Suspense } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { loginPathFor, RETURN_PARAM, safeReturnPath } from '#web/lib/return-path.ts';
import { lazyComponent } from '#web/lib/lazy-component.tsx';
import { withAppCatalog } from './i18n.ts';
import { PageLoading } from './root-layout.tsx';

export const SignedInOutlet = lazyComponent(withAppCatalog(() => import('./signed-in.tsx').then((m) => m.SignedInOutlet)));

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
  // The signed-in pages' shared code is its own chunk (signed-in.tsx), so /login never loads it.
  return (
    <Suspense fallback={<PageLoading />}>
      <SignedInOutlet viewer={session.user} />
    </Suspense>
  );
}

/** Signed-out only (login, sign-up). A signed-in user goes on to `?next=` (same-origin) or home. */
export function RequireGuest() {
  const { session } = useSession();
  const [params] = useSearchParams();
  if (session.status === 'signedIn') return <Navigate to={safeReturnPath(params.get(RETURN_PARAM))} replace />;
  return <Outlet />;
}
