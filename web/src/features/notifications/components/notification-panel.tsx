import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router';
import type { Notification } from '#shared/schemas/notifications.ts';
import { Button } from '#web/components/button.tsx';
import { CloseButton } from '#web/components/close-button.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { cx } from '#web/lib/cx.ts';
import { dateTimeFormat } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { formatRelative } from '#web/lib/relative-time.ts';
import { useNow } from '#web/lib/use-now.ts';
import type { usePopover } from '#web/lib/use-popover.ts';
import { useNotifications } from '../api/get-notifications.ts';
import { useMarkRead } from '../api/mark-read.ts';

type PopoverPanelProps = ReturnType<typeof usePopover>['panelProps'];

interface NotificationPanelProps {
  open: boolean;
  unread: number;
  close: (returnFocus: boolean) => void;
  panelProps: PopoverPanelProps;
}

/** Where a notification leads: its task, the board one was added to, else the tasks. */
export function notificationHref(notification: Notification): string {
  if (notification.type === 'board_added' && notification.board !== null) return `/boards/${encodeURIComponent(notification.board._id)}`;
  if (notification.task !== null) return `/tasks/${encodeURIComponent(notification.task._id)}`;
  return '/tasks';
}

/**
 * The inbox. Only the pages asked for are rendered: "Load more" asks for the next one and
 * moves focus to its first item (the button may be gone once the last page is in).
 */
export function NotificationPanel({ open, unread, close, panelProps }: NotificationPanelProps) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const headingId = useId();
  // Asked for the first time when opened; after that the cache (and live events) keep it.
  const list = useNotifications(queryClient, open);
  const markRead = useMarkRead();
  const listRef = useRef<HTMLUListElement>(null);
  const now = useNow(60_000);
  const items = list.data?.pages.flatMap((page) => page.notifications) ?? [];

  // After "Load more", focus moves to the first item of the new page once it is shown.
  const focusAt = useRef<number | null>(null);
  useEffect(() => {
    const at = focusAt.current;
    if (at === null || items.length <= at) return;
    focusAt.current = null;
    listRef.current?.querySelectorAll<HTMLElement>('.notif__link')[at]?.focus();
  }, [items.length]);

  const reason = list.isError ? errorText(list.error) : '';

  const loadMore = () => {
    focusAt.current = items.length;
    void list.fetchNextPage();
  };

  return (
    <section className="notif-panel" aria-labelledby={headingId} {...panelProps}>
      <div className="notif-panel__head">
        <h2 id={headingId} className="notif-panel__title">
          <Trans comment="The heading of the notifications panel">Notifications</Trans>
        </h2>
        <CloseButton
          label={t`Close notifications`}
          size={20}
          className="notif-panel__close"
          onClick={() => {
            close(true);
          }}
        />
        <div className="notif-panel__actions">
          <Button
            size="sm"
            variant="ghost"
            disabled={unread === 0}
            onClick={() => {
              markRead.mutate({ all: true });
            }}
          >
            <Trans>Mark all as read</Trans>
          </Button>
        </div>
      </div>
      <div className="notif-panel__body">
        {list.isPending ? (
          <p className="notif-panel__state" role="status">
            <Spinner /> <Trans>Loading notifications…</Trans>
          </p>
        ) : list.isError && items.length === 0 ? (
          <RetryAlert
            className="notif-panel__error"
            onRetry={() => {
              void list.refetch();
            }}
          >
            <Trans comment="reason: why, in the server’s or the app’s words">Your notifications could not be loaded. {reason}</Trans>
          </RetryAlert>
        ) : items.length === 0 ? (
          <p className="notif-panel__state notif-panel__empty">
            <Trans>You’re all caught up</Trans>
          </p>
        ) : (
          <>
            <ul className="notif-list" ref={listRef}>
              {items.map((notification) => (
                <NotificationItem
                  key={notification._id}
                  notification={notification}
                  now={now}
                  onOpen={() => {
                    if (notification.readAt === null) markRead.mutate({ ids: [notification._id] });
                    close(false);
                  }}
                />
              ))}
            </ul>
            {list.isFetchNextPageError ? (
              <RetryAlert className="notif-panel__error" onRetry={loadMore}>
                <Trans>More notifications could not be loaded.</Trans>
              </RetryAlert>
            ) : list.hasNextPage ? (
              <div className="notif-panel__more">
                <Button size="sm" busy={list.isFetchingNextPage} onClick={loadMore}>
                  {list.isFetchingNextPage ? <Trans>Loading…</Trans> : <Trans>Load more</Trans>}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

function NotificationItem({ notification, now, onOpen }: { notification: Notification; now: Date; onOpen: () => void }) {
  const unread = notification.readAt === null;
  const at = new Date(notification.at);
  // The text already names the task (and, for board_added, the board): the second line says
  // which board the task is on, when it is a shared one.
  const boardName = notification.type === 'board_added' ? undefined : notification.board?.name;
  const about = boardName === undefined ? null : displayName(boardName);
  return (
    <li className={cx('notif', unread && 'notif--unread')}>
      <Link to={notificationHref(notification)} className="notif__link" onClick={onOpen}>
        <span className="notif__dot" aria-hidden="true" />
        <span className="notif__body">
          {unread ? (
            <span className="visually-hidden">
              <Trans comment="Said before an unread notification’s text">Unread:</Trans>
            </span>
          ) : null}{' '}
          <span className="notif__text">{notification.text}</span>{' '}
          {about !== null ? (
            <span className="notif__about" dir="auto">
              {about}
            </span>
          ) : null}{' '}
          <time className="notif__time" dateTime={notification.at} title={dateTimeFormat({ dateStyle: 'full', timeStyle: 'short' }).format(at)}>
            {formatRelative(at, now)}
          </time>
        </span>
      </Link>
    </li>
  );
}
