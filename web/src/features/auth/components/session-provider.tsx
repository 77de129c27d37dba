import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import type { PublicUser } from '#shared/schemas/users.ts';
import { useNotices } from '#web/components/notices.tsx';
import { isApiError, onUnauthorized } from '#web/lib/api-client.ts';
import { useDeviceCopy, type DeviceCopy } from '#web/lib/device-copy.ts';
import { getMe, takeEarlyMe } from '../api/get-me.ts';

/*
 * Client session state. The `isLoggedIn` flag in localStorage lets a reload start signed in
 * while `/users/me` confirms the cookie session: as the person whose copy this device holds
 * (their pages render from it at once, and keep working from it when the server cannot be
 * reached), or else as "Guest" with nothing shown until the server answers. The server's cookie
 * is the real authority: any 401 signs out here, in one place, and every sign-out empties the
 * device's copy and tells the app (`onSignedOut`: the page goes back to the browser's language).
 */

/** Why the user is signed out: an explicit logout returns to a plain /login. */
export type SignOutReason = 'logout' | 'expired' | 'failed' | 'initial';

/** The notice when a session ends with changes still waiting on this device: they are gone with it. */
export function discardedChangesMessage(count: number): string {
  return plural(count, {
    one: '# change that hadn’t been saved was discarded.',
    other: '# changes that hadn’t been saved were discarded.',
  });
}

/**
 * `verified`: the pages may render and fetch: the server has confirmed the session, or this
 * device holds a copy of the same person (then a 401 from any call still signs out).
 */
export type Session =
  | { status: 'signedIn'; user: PublicUser; verified: boolean }
  | { status: 'signedOut'; reason: SignOutReason };

/**
 * The signed-in app's cache of answers and waiting changes (app/data-layer.tsx), once it is
 * loaded: a signed-out page has none, and so nothing in memory to empty.
 */
export interface SessionCache {
  clear: () => void;
  /** The changes not answered by the server yet (waiting or under way). */
  countWaiting: () => number;
}

interface SessionApi {
  session: Session;
  /** A sign-in is under way (the password was sent): what a signed-in page needs may be fetched now. */
  expectSignIn: () => void;
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

function initialSession(copy: DeviceCopy): Session {
  if (!readFlag()) return { status: 'signedOut', reason: 'initial' };
  return copy.owner
    ? { status: 'signedIn', user: copy.owner, verified: true }
    : { status: 'signedIn', user: { fullName: t({ message: 'Guest', comment: 'Who is signed in, while the server has not said yet' }), email: '' }, verified: false };
}

/** No answer at all (offline, the server unreachable): unlike a 5xx, it says nothing about the session. */
const isNetworkFailure = (error: unknown): boolean => isApiError(error) && error.status === 0;

/**
 * `/users/me` with no answer and no copy of the person is asked once more this long after. A
 * page being left (a reload, a typed address) has its request cancelled before `pagehide`
 * fires, which looks just like a network failure; a page that is gone never makes the second
 * try, so leaving never signs anyone out. A real failure signs out a second later.
 */
export const VERIFY_RETRY_MS = 1000;

interface SessionProviderProps {
  cache: SessionCache | undefined;
  /** Called by `expectSignIn`. */
  onSignInExpected?: () => void;
  onSignedOut?: () => void;
  children: ReactNode;
}

export function SessionProvider({ cache, onSignInExpected, onSignedOut, children }: SessionProviderProps) {
  const copy = useDeviceCopy();
  const [session, setSession] = useState<Session>(() => initialSession(copy));
  const [mustVerify] = useState(() => session.status === 'signedIn');
  const { notify } = useNotices();
  // Read when the session changes, not a reason to start over: it arrives after a sign-in.
  const cacheRef = useRef(cache);
  useEffect(() => {
    cacheRef.current = cache;
  }, [cache]);

  /** Drops everything this device holds for the signed-in person: memory first, then the copy on disk. */
  const clearDeviceCopy = useCallback(() => {
    cacheRef.current?.clear();
    return copy.wipe();
  }, [copy]);

  const signIn = useCallback(
    (user: PublicUser) => {
      cacheRef.current?.clear();
      void copy.claim(user);
      writeFlag(true);
      setSession({ status: 'signedIn', user, verified: true });
    },
    [copy],
  );

  const signOut = useCallback(
    (reason: SignOutReason) => {
      // The waiting changes cannot be sent without a session, and the copy they live in goes
      // with it: whatever ended the session, the person is told how many, never left to find
      // them missing (Logout asks first).
      const waiting = cacheRef.current?.countWaiting() ?? 0;
      writeFlag(false);
      // Emptied at once, not after the next render: a save of the copy must not outlive the session.
      void clearDeviceCopy();
      if (waiting > 0) notify('error', discardedChangesMessage(waiting));
      setSession((current) => (current.status === 'signedOut' ? current : { status: 'signedOut', reason }));
      onSignedOut?.();
    },
    [clearDeviceCopy, notify, onSignedOut],
  );

  const statusRef = useRef(session.status);
  useEffect(() => {
    statusRef.current = session.status;
  }, [session.status]);

  // Any authenticated call answered 401: the session is gone. Sign out quietly, say why once.
  const expire = useCallback(() => {
    if (statusRef.current !== 'signedIn') return;
    signOut('expired');
    notify('info', i18n._(CLIENT_MESSAGES.sessionExpired));
  }, [signOut, notify]);
  useEffect(() => onUnauthorized(expire), [expire]);

  // With the flag set at start-up, ask the server who we are.
  useEffect(() => {
    if (!mustVerify) return;
    const controller = new AbortController();
    // Leaving the page (a reload, a typed URL) fails the request in flight like a network
    // error; that says nothing about the session, so it must not sign out and drop the flag:
    // `pagehide` aborts it, and a failure that comes before `pagehide` is tried again a second
    // later (VERIFY_RETRY_MS), which a page that is gone never does.
    const leave = () => {
      controller.abort();
    };
    window.addEventListener('pagehide', leave);
    let retry: ReturnType<typeof setTimeout> | undefined;
    const verify = (again: boolean) => {
      // The first try is the question main.tsx asked at start-up, when it did.
      const early = again ? undefined : takeEarlyMe();
      (early ?? getMe(controller.signal)).then(
        (user) => {
          if (controller.signal.aborted) return;
          // Another person's cookie than the copy's (they signed in elsewhere in this browser): their copy goes.
          const owner = copy.owner;
          if (owner && owner.email.toLowerCase() !== user.email.toLowerCase()) cacheRef.current?.clear();
          void copy.claim(user);
          setSession((current) => (current.status === 'signedIn' ? { status: 'signedIn', user, verified: true } : current));
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (isApiError(error) && error.status === 401) {
            // The start-up question does not go through onUnauthorized (nothing listened yet).
            if (early !== undefined) expire();
            return; // else handled by onUnauthorized
          }
          if (isNetworkFailure(error)) {
            // Offline with this person's copy on the device: they go on working from it.
            if (copy.owner) return;
            if (!again) {
              retry = setTimeout(() => {
                verify(true);
              }, VERIFY_RETRY_MS);
              return;
            }
          }
          notify('error', `${i18n._(CLIENT_MESSAGES.userInfoPrefix)}${i18n._(CLIENT_MESSAGES.userInfoFailure)}`);
          signOut('failed');
        },
      );
    };
    verify(false);
    return () => {
      clearTimeout(retry);
      window.removeEventListener('pagehide', leave);
      controller.abort();
    };
  }, [mustVerify, notify, signOut, expire, copy]);

  // Signed out: drop every cached answer, in memory and on the device, so the next user never sees the previous one's tasks.
  useEffect(() => {
    if (session.status === 'signedOut') void clearDeviceCopy();
  }, [session.status, clearDeviceCopy]);

  const expectSignIn = useCallback(() => onSignInExpected?.(), [onSignInExpected]);
  const api = useMemo(() => ({ session, expectSignIn, signIn, signOut }), [session, expectSignIn, signIn, signOut]);
  return <SessionContext value={api}>{children}</SessionContext>;
}

export function useSession(): SessionApi {
  const api = use(SessionContext);
  if (!api) throw new Error('useSession() needs a <SessionProvider>.');
  return api;
}
