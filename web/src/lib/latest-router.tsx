import { createContext, use, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, type Location, type NavigateFunction } from 'react-router';

/*
 * The router's `navigate` and current location for event handlers, read when the handler runs.
 * `useNavigate()` and `useLocation()` re-render their component on every change of the address;
 * a board's cards open their task on a click or Enter, and a filter switch or a search keystroke
 * (each a change of the address) re-rendered every card on screen for it. Only this provider
 * re-renders now; a card asks for the latest values when it is clicked.
 */

interface LatestRouter {
  navigate: NavigateFunction;
  location: Location;
}

const LatestRouterContext = createContext<(() => LatestRouter) | null>(null);

/** Inside the router, around the app's routes (app/routes.tsx). */
export function LatestRouterProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const latest = useRef<LatestRouter>({ navigate, location });
  // Before any event can reach the new screen.
  useLayoutEffect(() => {
    latest.current = { navigate, location };
  }, [navigate, location]);
  // One function for the provider's life: its consumers never re-render for it.
  const [read] = useState(() => () => latest.current);
  return <LatestRouterContext value={read}>{children}</LatestRouterContext>;
}

/** A stable function giving the latest `navigate` and location: for event handlers only, never for rendering. */
export function useLatestRouter(): () => LatestRouter {
  const read = use(LatestRouterContext);
  if (read === null) throw new Error('useLatestRouter() needs a <LatestRouterProvider> (app/routes.tsx).');
  return read;
}
