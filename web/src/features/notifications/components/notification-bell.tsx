import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { cx } from '#web/lib/cx.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { usePopover } from '#web/lib/use-popover.ts';
import { useUnreadCount } from '../api/get-notifications.ts';
import { NotificationPanel } from './notification-panel.tsx';
import './notifications.css';

/** The badge: the count, "99+" past 99. */
export function badgeText(count: number): string {
  if (count <= 99) return formatNumber(count);
  const most = formatNumber(99);
  return t({ message: `${most}+`, comment: 'The bell’s badge when more than 99 notifications are unread' });
}

/** The button's accessible name: "Notifications", or "Notifications, 3 unread". */
export function bellName(count: number): string {
  return count > 0
    ? plural(count, { one: 'Notifications, # unread', other: 'Notifications, # unread' })
    : t({ message: 'Notifications', comment: 'The bell’s name: it opens the notifications' });
}

/** What the live region says after the count changed: a new one came, or some were read. */
function announcementText(count: number, before: number): string {
  if (count > before) return plural(count, { one: 'New notification. # unread notification.', other: 'New notification. # unread notifications.' });
  return plural(count, { 0: 'No unread notifications.', one: '# unread notification.', other: '# unread notifications.' });
}

/**
 * What the polite live region says: a change of the count after it first arrived (never the
 * first load, never a re-render with the same count). Derived while rendering, from the count
 * last seen (React's "adjusting state when a prop changes"), not in an effect.
 */
function useCountAnnouncement(count: number | undefined): string {
  const [seen, setSeen] = useState(count);
  const [message, setMessage] = useState('');
  if (count !== seen) {
    setSeen(count);
    if (seen !== undefined && count !== undefined) setMessage(announcementText(count, seen));
  }
  return message;
}

/**
 * The navigation bar's bell: the unread count as a badge (live), and the inbox as a non-modal
 * panel anchored to it (a full-height sheet on phones). Signed-in pages only; its chunk is
 * loaded after sign-in. The navigation bar gives the button its look (`buttonClassName`).
 */
export function NotificationBell({ buttonClassName }: { buttonClassName?: string }) {
  // Rendered again when the language changes: the name and badge come from bellName and badgeText.
  useLingui();
  const count = useUnreadCount();
  const unread = count.data ?? 0;
  const announcement = useCountAnnouncement(count.data);
  const { open, close, buttonProps, panelProps } = usePopover();
  return (
    <div className="bell">
      <button type="button" className={cx(buttonClassName, 'bell__button')} {...buttonProps}>
        <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
          <path
            d="M10 2.75a4.75 4.75 0 0 0-4.75 4.75v2.6c0 .6-.2 1.2-.56 1.68L3.6 13.25h12.8l-1.09-1.47a2.8 2.8 0 0 1-.56-1.68V7.5A4.75 4.75 0 0 0 10 2.75Z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinejoin="round"
          />
          <path d="M8 15.75a2 2 0 0 0 4 0" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
        <span className="visually-hidden">{bellName(unread)}</span>
        {unread > 0 ? (
          <span className="bell__badge" aria-hidden="true" data-testid="bell-badge">
            {badgeText(unread)}
          </span>
        ) : null}
      </button>
      <p className="visually-hidden" aria-live="polite" data-testid="bell-announcement">
        {announcement}
      </p>
      <NotificationPanel open={open} unread={unread} close={close} panelProps={panelProps} />
    </div>
  );
}
