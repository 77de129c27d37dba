import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '#web/components/error-boundary.tsx';
import { KeyboardHelp } from '#web/components/keyboard-help.tsx';
import { NoticeRegion } from '#web/components/notices.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { NavBar } from './nav-bar.tsx';
import { RouteError } from './route-error.tsx';

export function PageLoading() {
  return (
    <div className="page-loading" role="status">
      <Spinner size={24} />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}

/** Every page: skip link, navigation bar, the page, and the notices stack. */
export function RootLayout() {
  const { pathname } = useLocation();
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
        Skip to content
      </a>
      <NavBar />
      <main id="main" className="main" tabIndex={-1}>
        {/* Keyed by path: leaving a broken page clears the error. */}
        <ErrorBoundary key={pathname} fallback={(error) => <RouteError error={error} />}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <NoticeRegion />
      <KeyboardHelp />
    </>
  );
}
