import { i18n } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { NavLink, useMatch } from 'react-router';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import type { PublicUser } from '#shared/schemas/users.ts';
import { Button } from '#web/components/button.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { useLogout } from '#web/features/auth/api/logout.ts';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { cx } from '#web/lib/cx.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { NARROW_SCREEN_QUERY, usePopover } from '#web/lib/use-popover.ts';
import { countQueuedWrites } from '#web/lib/write-queue.ts';
import { AdminLink } from './admin-link.tsx';
import { DiscardChangesDialog } from './discard-changes-dialog.tsx';
import { NotificationBell } from './lazy-bell.ts';
import { SyncStatus } from './sync-status.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

/*
 * The navigation bar's signed-in part (links, sync status, the bell, who is signed in, Logout),
 * in the signed-in pages' chunk (signed-in.tsx): /login and /sign-up never download it. main.tsx
 * fetches it before a signed-in tab's first render (routes.tsx, preloadFirstScreen).
 */

/** Before sign-out: this device stops getting the person's pushes (the code is loaded only then, and only where push exists). */
async function forgetThisDevice(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    await (await import('#web/features/notifications/api/push-device.ts')).forgetThisDevice();
  } catch {
    // Best effort: signing out goes on regardless.
  }
}

export function SignedInNav({ user, verified }: { user: PublicUser; verified: boolean }) {
  const { signOut } = useSession();
  const logout = useLogout();
  const { notify } = useNotices();
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);

  // Signing out first turns off this device's pushes (a second or so at most), then ends the session.
  const [leaving, setLeaving] = useState(false);
  const loggingOut = leaving || logout.isPending;

  const endSession = () => {
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
        const message = errorText(error);
        notify('error', `${i18n._(CLIENT_MESSAGES.logoutPrefix)}${message || i18n._(CLIENT_MESSAGES.logoutFailedDefault)}`);
      },
    });
  };

  // Changes still waiting on this device go with the session: the person decides first.
  const queryClient = useQueryClient();
  const [discarding, setDiscarding] = useState(0);
  const onLogout = () => {
    if (loggingOut) return;
    const waiting = countQueuedWrites(queryClient);
    if (waiting > 0) {
      setDiscarding(waiting);
      return;
    }
    leave();
  };

  const leave = () => {
    setLeaving(true);
    void forgetThisDevice().then(() => {
      setLeaving(false);
      endSession();
    });
  };

  const name = user.fullName;

  // Once the session is confirmed: the bell asks for the unread count.
  const bell = verified ? (
    <div className="nav__bell">
      <Suspense fallback={<span className="nav__bell-placeholder" />}>
        <NotificationBell buttonClassName="nav__menu-button" />
      </Suspense>
    </div>
  ) : null;

  return (
    <>
      <ul className="nav__links">
        <li>
          <NavLink to="/" end className="nav__link">
            <Trans comment="The link to the start page">Home</Trans>
          </NavLink>
        </li>
        <li>
          <NavLink to="/tasks" className="nav__link">
            <Trans comment="The link to all of one’s tasks">Tasks</Trans>
          </NavLink>
        </li>
        {narrow ? null : (
          <li>
            <NavLink to="/account" className="nav__link">
              <Trans comment="The link to one’s account page">Account</Trans>
            </NavLink>
          </li>
        )}
        {narrow || !verified ? null : <AdminLink className="nav__link" />}
      </ul>
      <SyncStatus className="nav__sync" />
      {narrow ? (
        <>
          {bell}
          <AccountMenu fullName={user.fullName} verified={verified} onLogout={onLogout} loggingOut={loggingOut} />
        </>
      ) : (
        <>
          <p className="nav__welcome">
            <Trans comment="name: the signed-in person’s full name">
              Welcome, <strong dir="auto">{name}</strong>
            </Trans>
          </p>
          {bell}
          <Button size="sm" className="nav__logout" onClick={onLogout} busy={loggingOut}>
            {loggingOut ? <Trans>Logging out…</Trans> : <Trans>Logout</Trans>}
          </Button>
          <ThemeToggle />
        </>
      )}
      <DiscardChangesDialog
        count={discarding}
        onCancel={() => {
          setDiscarding(0);
        }}
        onConfirm={() => {
          setDiscarding(0);
          leave();
        }}
      />
    </>
  );
}

/**
 * A phone's navigation bar has room for the brand, Home and Tasks only: the account's items
 * (who is signed in, Account, dark mode, Logout) fold behind one button.
 */
function AccountMenu({ fullName, verified, onLogout, loggingOut }: { fullName: string; verified: boolean; onLogout: () => void; loggingOut: boolean }) {
  const { close, buttonProps, panelProps } = usePopover();
  // On the account page the bar shows where one is, as the links do for theirs.
  const onAccount = useMatch('/account') !== null;
  return (
    <div className="nav__account">
      <button type="button" className={cx('nav__menu-button', onAccount && 'nav__menu-button--current')} {...buttonProps}>
        <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
          <circle cx="10" cy="7" r="3.25" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path d="M3.75 17c.9-3 3.3-4.5 6.25-4.5s5.35 1.5 6.25 4.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">
          <Trans>Account menu</Trans>
        </span>
      </button>
      <div className="nav__menu" {...panelProps}>
        <p className="nav__menu-user">
          <Trans comment="fullName: the signed-in person’s full name">
            Signed in as <strong dir="auto">{fullName}</strong>
          </Trans>
        </p>
        <ul className="nav__menu-list">
          <li>
            <NavLink
              to="/account"
              className="nav__menu-item"
              onClick={() => {
                close(false);
              }}
            >
              <Trans comment="The link to one’s account page">Account</Trans>
            </NavLink>
          </li>
          {verified ? (
            <AdminLink
              className="nav__menu-item"
              onNavigate={() => {
                close(false);
              }}
            />
          ) : null}
          <li>
            <ThemeToggle labelled />
          </li>
          <li>
            <Button size="sm" variant="ghost" className="nav__menu-item nav__logout" onClick={onLogout} busy={loggingOut}>
              {loggingOut ? <Trans>Logging out…</Trans> : <Trans>Logout</Trans>}
            </Button>
          </li>
        </ul>
      </div>
    </div>
  );
}
