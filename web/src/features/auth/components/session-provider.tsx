import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import type { PublicUser } from '#shared/schemas/users.ts';
import { useNotices } from '#web/components/notices.tsx';
import { isApiError, onUnauthorized } from '#web/lib/api-client.ts';
import { getMe } from '../api/get-me.ts';

/**
 * Client session state. The `isLoggedIn` flag in localStorage lets a reload
 * start signed in as "Guest" while `/users/me` confirms the cookie session; the server's
 * cookie is the real authority, and any 401 signs out here, in one place.
 */
export const GUEST_NAME = 'Guest';

/** Why the user is signed out: an explicit logout returns to a plain /login. */
export type SignOutReason = 'logout' | 'expired' | 'failed' | 'initial';

export type Session =
  | { status: 'signedIn'; user: PublicUser; verified: boolean }
  | { status: 'signedOut'; reason: SignOutReason };

interface SessionApi {
  session: Session;
  signIn: (user: PublicUser) => void;
  signOut: (reason: SignOutReason) => void;
}

const SessionContext = createContext<SessionApi | null>(null);

function readFlag(): boolean {
  try {
    return localStorage.getItem(LOGGED_IN_FLAG) !== null;
  } catch {
    return false;
  }
}

function writeFlag(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(LOGGED_IN_FLAG, 'true');
    else localStorage.removeItem(LOGGED_IN_FLAG);
  } catch {
    // Storage can be unavailable (private mode, quota); the cookie session still works.
  }
}

function initialSession(): Session {
  return readFlag()
    ? { status: 'signedIn', user: { fullName: GUEST_NAME, email: '' }, verified: false }
    : { status: 'signedOut', reason: 'initial' };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>(initialSession);
  const [mustVerify] = useState(() => session.status === 'signedIn');
  const queryClient = useQueryClient();
  const { notify } = useNotices();

  const signIn = useCallback(
    (user: PublicUser) => {
      queryClient.clear();
      writeFlag(true);
      setSession({ status: 'signedIn', user, verified: true });
    },
    [queryClient],
  );

  const signOut = useCallback((reason: SignOutReason) => {
    writeFlag(false);
    setSession((current) => (current.status === 'signedOut' ? current : { status: 'signedOut', reason }));
  }, []);

  const statusRef = useRef(session.status);
  useEffect(() => {
    statusRef.current = session.status;
  }, [session.status]);

  // Any authenticated call answered 401: the session is gone. Sign out quietly, say why once.
  useEffect(
    () =>
      onUnauthorized(() => {
        if (statusRef.current !== 'signedIn') return;
        signOut('expired');
        notify('info', CLIENT_MESSAGES.sessionExpired);
      }),
    [signOut, notify],
  );

  // With the flag set at start-up, ask the server who we are.
  useEffect(() => {
    if (!mustVerify) return;
    const controller = new AbortController();
    // Leaving the page (a reload, a typed URL) fails the request in flight like a network
    // error; that says nothing about the session, so it must not sign out and drop the flag.
    const leave = () => {
      controller.abort();
    };
    window.addEventListener('pagehide', leave);
    getMe(controller.signal).then(
      (user) => {
        setSession((current) => (current.status === 'signedIn' ? { status: 'signedIn', user, verified: true } : current));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error) && error.status === 401) return; // handled by onUnauthorized
        notify('error', `${CLIENT_MESSAGES.userInfoPrefix}${CLIENT_MESSAGES.userInfoFailure}`);
        signOut('failed');
      },
    );
    return () => {
      window.removeEventListener('pagehide', leave);
      controller.abort();
    };
  }, [mustVerify, notify, signOut]);

  // Signed out: drop every cached answer so the next user never sees the previous one's tasks.
  useEffect(() => {
    if (session.status === 'signedOut') queryClient.clear();
  }, [session.status, queryClient]);

  const api = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext value={api}>{children}</SessionContext>;
}

export function useSession(): SessionApi {
  const api = use(SessionContext);
  if (!api) throw new Error('useSession() needs a <SessionProvider>.');
  return api;
}
