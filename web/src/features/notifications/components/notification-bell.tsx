import { useState } from 'react';
import { cx } from '#web/lib/cx.ts';
import { usePopover } from '#web/lib/use-popover.ts';
import { useUnreadCount } from '../api/get-notifications.ts';
import { NotificationPanel } from './notification-panel.tsx';
import './notifications.css';

/** The badge: the count, "99+" past 99. */
export const badgeText = (count: number): string => (count > 99 ? '99+' : String(count));

/** The button's accessible name: "Notifications", or "Notifications, 3 unread". */
export const bellName = (count: number): string => (count > 0 ? `Notifications, ${count} unread` : 'Notifications');

export const unreadSentence = (count: number): string =>
  count === 0 ? 'No unread notifications' : `${count} unread notification${count === 1 ? '' : 's'}`;

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
    if (seen !== undefined && count !== undefined) setMessage(count > seen ? `New notification. ${unreadSentence(count)}.` : `${unreadSentence(count)}.`);
  }
  return message;
}

/**
 * The navigation bar's bell: the unread count as a badge (live), and the inbox as a non-modal
 * panel anchored to it (a full-height sheet on phones). Signed-in pages only; its chunk is
 * loaded after sign-in. The navigation bar gives the button its look (`buttonClassName`).
 */
export function NotificationBell({ buttonClassName }: { buttonClassName?: string }) {
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
