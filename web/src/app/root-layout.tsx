import { Trans } from '@lingui/react/macro';
import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '#web/components/error-boundary.tsx';
import { KeyboardHelp } from '#web/components/keyboard-help.tsx';
import { NoticeRegion } from '#web/components/notices.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { lazyComponent } from '#web/lib/lazy-component.tsx';
import { withAppCatalog } from './i18n.ts';
import { SIDEBAR_QUERY } from './layout-queries.ts';
import { NavBar } from './nav-bar.tsx';
import { UpdatePrompt } from './pwa/update-prompt.tsx';
import { RouteError } from './route-error.tsx';

export const BoardSidebar = lazyComponent(withAppCatalog(() => import('./signed-in.tsx').then((m) => m.BoardSidebar)));

export function PageLoading() {
  return (
    <div className="page-loading" role="status">
      <Spinner size={24} />
      <span className="visually-hidden">
        <Trans>Loading…</Trans>
      </span>
    </div>
  );
}

/** Signed in, on a wide screen: the board switcher beside every page (on a narrow one it is a menu by the board's name). */
function useBoardSidebar(): boolean {
  const { session } = useSession();
  const wide = useMediaQuery(SIDEBAR_QUERY);
  return wide && session.status === 'signedIn' && session.verified;
}

/**
 * The page the address names. The address is read here, not in RootLayout, so a change of the
 * address's query (a filter, a search keystroke) does not re-render the navigation bar and the
 * sidebar around it.
 */
function CurrentPage() {
  const { pathname } = useLocation();
  return (
    // Keyed by path: leaving a broken page clears the error.
    <ErrorBoundary key={pathname} fallback={(error) => <RouteError error={error} />}>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  );
}

/** Every page: skip link, navigation bar, the board switcher, the page, and the notices stack. */
export function RootLayout() {
  const sidebar = useBoardSidebar();
  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        <Trans>Skip to content</Trans>
      </a>
      <NavBar />
      <div className={sidebar ? 'app-body app-body--sidebar' : 'app-body'}>
        {sidebar ? (
          <Suspense fallback={<div className="board-sidebar" aria-hidden="true" />}>
            <BoardSidebar />
          </Suspense>
        ) : null}
        <main id="main" className="main" tabIndex={-1}>
          <CurrentPage />
        </main>
      </div>
      <NoticeRegion>
        <UpdatePrompt />
      </NoticeRegion>
      <KeyboardHelp />
    </>
  );
}
