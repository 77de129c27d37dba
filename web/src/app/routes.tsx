import { Suspense } from 'react';
import { matchPath, Navigate, Outlet, useMatch, useRoutes, type RouteObject } from 'react-router';
import { LatestRouterProvider } from '#web/lib/latest-router.tsx';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { lazyComponent } from '#web/lib/lazy-component.tsx';
import { openingView } from '#web/features/tasks/api/board-view-choice.ts';
import { DataSlot } from './data-slot.tsx';
import { RequireAuth, RequireGuest, SignedInOutlet } from './guards.tsx';
import { withAppCatalog } from './i18n.ts';
import { NotificationBell } from './lazy-bell.ts';
import { SignedInNav } from './nav-bar.tsx';
import { BoardSidebar, PageLoading, RootLayout } from './root-layout.tsx';
import { NotFoundPage } from './routes/not-found.tsx';

/*
 * Declarative routing (useRoutes inside <BrowserRouter>): TanStack Query does the data work,
 * so React Router's data APIs would only add ~17 KB gzip to every page.
 *
 * Each page is its own chunk (React.lazy), rendered only once its guard lets it through, so a
 * signed-out visitor to /tasks never downloads the board, and /login loads only the sign-in form.
 * Every page but sign-in and sign-up shows screens of the features, whose messages are in the app
 * catalog: its chunk comes with the catalog of the language in use (`withAppCatalog`).
 */
const LandingPage = lazyComponent(withAppCatalog(() => import('./routes/landing.tsx').then((m) => m.LandingPage)));
const TasksPage = lazyComponent(withAppCatalog(() => import('./routes/tasks.tsx').then((m) => m.TasksPage)));
const LoginPage = lazyComponent(() => import('./routes/login.tsx').then((m) => m.LoginPage));
const TaskPage = lazyComponent(withAppCatalog(() => import('./routes/task.tsx').then((m) => m.TaskPage)));
const AccountPage = lazyComponent(withAppCatalog(() => import('./routes/account.tsx').then((m) => m.AccountPage)));
const ResetPasswordPage = lazyComponent(withAppCatalog(() => import('./routes/reset-password.tsx').then((m) => m.ResetPasswordPage)));
const UnsubscribePage = lazyComponent(withAppCatalog(() => import('./routes/unsubscribe.tsx').then((m) => m.UnsubscribePage)));
const BoardPage = lazyComponent(withAppCatalog(() => import('./routes/board.tsx').then((m) => m.BoardPage)));
const BoardTaskOnly = lazyComponent(withAppCatalog(() => import('./routes/board.tsx').then((m) => m.BoardTaskOnly)));
const BoardSettingsPage = lazyComponent(withAppCatalog(() => import('./routes/board-settings.tsx').then((m) => m.BoardSettingsPage)));
const AdminPage = lazyComponent(withAppCatalog(() => import('./routes/admin.tsx').then((m) => m.AdminPage)));
const SignUpPage = lazyComponent(() => import('./routes/sign-up.tsx').then((m) => m.SignUpPage));

/** Kept in step with WIDE_SCREEN_QUERY in routes/task.tsx (that chunk loads later). */
const WIDE_SCREEN_QUERY = '(min-width: 56.25rem)';

/**
 * /tasks: the board asks for its data itself, once its session is confirmed (RequireAuth).
 * /tasks/:id: on a wide screen the task is a panel over the board (the board renders it as
 * its outlet); on a narrow one the task page alone.
 */
function TasksRoute() {
  const taskOpen = useMatch('/tasks/:id') !== null;
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  return taskOpen && !wide ? <Outlet /> : <BoardRoute />;
}

/** /boards/:boardId and /boards/:boardId/tasks/:id: as /tasks, for one board. */
function SharedBoardRoute() {
  const taskOpen = useMatch('/boards/:boardId/tasks/:id') !== null;
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  return <Suspense fallback={<PageLoading />}>{taskOpen && !wide ? <BoardTaskOnly /> : <BoardPage />}</Suspense>;
}

function BoardRoute() {
  return (
    <Suspense fallback={<PageLoading />}>
      <TasksPage />
    </Suspense>
  );
}

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'account', element: <AccountPage /> },
          { path: 'admin', element: <AdminPage /> },
          {
            path: 'tasks',
            element: <TasksRoute />,
            children: [
              {
                path: ':id',
                element: (
                  <Suspense fallback={<PageLoading />}>
                    <TaskPage />
                  </Suspense>
                ),
              },
            ],
          },
          {
            path: 'boards/:boardId',
            element: <SharedBoardRoute />,
            children: [
              {
                path: 'tasks/:id',
                element: (
                  <Suspense fallback={<PageLoading />}>
                    <TaskPage />
                  </Suspense>
                ),
              },
            ],
          },
          {
            path: 'boards/:boardId/settings',
            element: (
              <Suspense fallback={<PageLoading />}>
                <BoardSettingsPage />
              </Suspense>
            ),
          },
        ],
      },
      {
        element: <RequireGuest />,
        children: [
          { path: 'login', element: <LoginPage /> },
          { path: 'sign-up', element: <SignUpPage /> },
        ],
      },
      // Reached from mails: open whether or not someone is signed in.
      { path: 'reset-password', element: <ResetPasswordPage /> },
      { path: 'unsubscribe', element: <UnsubscribePage /> },
      // The landing page once linked to /signup; keep that address working.
      { path: 'signup', element: <Navigate to="/sign-up" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

function Routes() {
  return useRoutes(routes);
}

/**
 * The app's routes; render inside a router (BrowserRouter in the app, MemoryRouter in tests).
 * Signed in, they render inside the data layer (app/data-slot.tsx).
 */
export function AppRoutes() {
  return (
    <LatestRouterProvider>
      <DataSlot>
        <Routes />
      </DataSlot>
    </LatestRouterProvider>
  );
}

/** The chunks each page's first screen renders (a task on a wide screen is a panel over its board). */
const FIRST_SCREENS: [pattern: string, chunks: { preload: () => Promise<void> }[]][] = [
  ['/', [LandingPage]],
  ['/tasks', [TasksPage]],
  ['/tasks/:id', [TasksPage, TaskPage]],
  ['/boards/:boardId', [BoardPage]],
  ['/boards/:boardId/tasks/:id', [BoardPage, BoardTaskOnly, TaskPage]],
  ['/boards/:boardId/settings', [BoardSettingsPage]],
  ['/account', [AccountPage]],
  // Both signed-out pages come in one chunk (vite.config.ts): resolving the other one too costs
  // nothing, and the link between them then opens its page at once, without a suspense.
  ['/login', [LoginPage, SignUpPage]],
  ['/sign-up', [SignUpPage, LoginPage]],
  ['/reset-password', [ResetPasswordPage]],
  ['/unsubscribe', [UnsubscribePage]],
];

/**
 * Fetches the chunks the first screen at `pathname` renders — the signed-in frame (the pages'
 * shared chunk, the board switcher, the bell, the sync status) and the page — so that it renders without
 * suspending (lib/lazy-component.tsx says why that matters). Resolves once all have arrived or
 * failed; a failed one suspends as before and shows its error there.
 */
export function preloadFirstScreen(pathname: string, search: string, signedIn: boolean): Promise<void> {
  const page = FIRST_SCREENS.find(([pattern]) => matchPath(pattern, pathname) !== null)?.[1] ?? [];
  const frame = signedIn ? [SignedInOutlet, BoardSidebar, SignedInNav, NotificationBell] : [];
  // The view's chunk first: it is fetched in two steps (viewChunk), the second behind the first.
  return Promise.all([...viewChunk(pathname, search), ...frame, ...page].map((chunk) => chunk.preload())).then(() => undefined);
}

/**
 * The chunk of the view other than the columns that a board or "All my tasks" opens with, if any.
 * The table of those chunks is itself fetched here, not imported: it names every view's chunk and
 * their dependencies, bytes that /login would otherwise download for nothing.
 */
function viewChunk(pathname: string, search: string): { preload: () => Promise<void> }[] {
  const onBoard = matchPath('/boards/:boardId/*', pathname);
  if (onBoard === null && matchPath('/tasks/*', pathname) === null) return [];
  const view = openingView(onBoard?.params.boardId ?? '', search);
  if (view === 'board') return [];
  return [{ preload: () => import('#web/features/tasks/components/other-views.tsx').then(({ OTHER_VIEWS }) => OTHER_VIEWS[view].preload()) }];
}
