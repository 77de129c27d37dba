import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useMatch, useRoutes, type RouteObject } from 'react-router';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { RequireAuth, RequireGuest } from './guards.tsx';
import { PageLoading, RootLayout } from './root-layout.tsx';
import { NotFoundPage } from './routes/not-found.tsx';

/*
 * Declarative routing (useRoutes inside <BrowserRouter>): TanStack Query does the data work,
 * so React Router's data APIs would only add ~17 KB gzip to every page.
 *
 * Each page is its own chunk (React.lazy), rendered only once its guard lets it through, so a
 * signed-out visitor to /tasks never downloads the board, and /login loads only the sign-in form.
 */
const LandingPage = lazy(() => import('./routes/landing.tsx').then((m) => ({ default: m.LandingPage })));
const TasksPage = lazy(() => import('./routes/tasks.tsx').then((m) => ({ default: m.TasksPage })));
const LoginPage = lazy(() => import('./routes/login.tsx').then((m) => ({ default: m.LoginPage })));
const TaskPage = lazy(() => import('./routes/task.tsx').then((m) => ({ default: m.TaskPage })));
const AccountPage = lazy(() => import('./routes/account.tsx').then((m) => ({ default: m.AccountPage })));
const ResetPasswordPage = lazy(() => import('./routes/reset-password.tsx').then((m) => ({ default: m.ResetPasswordPage })));
const UnsubscribePage = lazy(() => import('./routes/unsubscribe.tsx').then((m) => ({ default: m.UnsubscribePage })));
const BoardPage = lazy(() => import('./routes/board.tsx').then((m) => ({ default: m.BoardPage })));
const BoardTaskOnly = lazy(() => import('./routes/board.tsx').then((m) => ({ default: m.BoardTaskOnly })));
const BoardSettingsPage = lazy(() => import('./routes/board-settings.tsx').then((m) => ({ default: m.BoardSettingsPage })));
const SignUpPage = lazy(() => import('./routes/sign-up.tsx').then((m) => ({ default: m.SignUpPage })));

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

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'account', element: <AccountPage /> },
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

/** The app's routes; render inside a router (BrowserRouter in the app, MemoryRouter in tests). */
export function AppRoutes() {
  return useRoutes(routes);
}
