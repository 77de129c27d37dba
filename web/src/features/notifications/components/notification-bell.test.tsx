import { act, screen, waitFor, within } from '@testing-library/react';
import { notifyManager, useQueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { makeNotification, meAnswer, notificationsAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { currentPath, renderWithProviders } from '#web/testing/render.tsx';
import { applyNotificationEvent } from '../api/notification-events.ts';
import { badgeText, bellName, NotificationBell } from './notification-bell.tsx';

/** Answers for a signed-in session (a signed-out one empties the cache). */
function signedIn() {
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  return mockFetch().on('GET', '/users/me', json(200, meAnswer()));
}

/** The bell, and a handle on its cache to play live events into. */
function renderBell() {
  const handle: { client?: ReturnType<typeof useQueryClient> } = {};
  function Probe() {
    handle.client = useQueryClient();
    return null;
  }
  const rendered = renderWithProviders(
    <>
      <NotificationBell />
      <button type="button">Elsewhere</button>
      <Probe />
    </>,
    { path: '/account' },
  );
  const live = async (type: string, data: unknown) => {
    await act(async () => {
      applyNotificationEvent(handle.client!, type, data);
      // The cache tells its observers in its next batch: this resolves in the batch after it.
      await new Promise((resolve) => {
        notifyManager.schedule(() => {
          resolve(undefined);
        });
      });
    });
  };
  return { ...rendered, live };
}

const countAnswer = (n: number) => json(200, notificationsAnswer([], n));
const bell = (name: string | RegExp = /^Notifications/) => screen.getByRole('button', { name });
/** The bell's panel (found by the button's aria-controls, whether shown or hidden). */
const panel = () => document.getElementById(bell().getAttribute('aria-controls') ?? '')!;

describe('the bell', () => {
  it('shows the unread count as a badge, "99+" past 99, in its accessible name too', async () => {
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(bellName(0)).toBe('Notifications');

    const fetch = signedIn().on('GET', '/notifications', countAnswer(3));
    renderBell();
    expect(await screen.findByRole('button', { name: 'Notifications, 3 unread' })).toBeInTheDocument();
    expect(screen.getByTestId('bell-badge')).toHaveTextContent('3');
    // The smallest page is enough for the count; the list waits for the panel.
    const [call] = fetch.callsTo('GET', '/notifications');
    expect(Object.fromEntries(call!.query)).toEqual({ limit: '1', unread: 'true' });
  });

  it('follows live events, and says the change politely (not the first count, not a re-render)', async () => {
    signedIn().on('GET', '/notifications', countAnswer(3));
    const { live } = renderBell();
    await screen.findByRole('button', { name: 'Notifications, 3 unread' });
    const region = screen.getByTestId('bell-announcement');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();

    await live('notification.created', { notification: makeNotification(), unreadCount: 120 });
    expect(bell('Notifications, 120 unread')).toBeInTheDocument();
    expect(screen.getByTestId('bell-badge')).toHaveTextContent('99+');
    expect(region).toHaveTextContent('New notification. 120 unread notifications.');

    await live('notification.read', { all: true, unreadCount: 0 });
    expect(bell('Notifications')).toBeInTheDocument();
    expect(screen.queryByTestId('bell-badge')).not.toBeInTheDocument();
    expect(region).toHaveTextContent('No unread notifications.');
  });
});

describe('the panel', () => {
  it('opens with focus inside; Tab goes through the items; Esc closes it and focus returns to the bell', async () => {
    const [a, b] = [makeNotification({ text: 'Ada assigned you “Fix the gate”', task: { _id: 't1', taskTitle: 'Fix the gate' }, board: { _id: 'b1', name: 'Garden' } }), makeNotification({ readAt: new Date().toISOString() })];
    signedIn()
      .on('GET', '/notifications', countAnswer(1))
      .on('GET', '/notifications', json(200, notificationsAnswer([a, b], 1)));
    const { user } = renderBell();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    expect(bell()).toHaveAttribute('aria-expanded', 'true');
    expect(within(panel()).getByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    // The first control shown: the × beside the heading (the test has no style sheet; a wide
    // screen hides the ×, and focus goes to "Mark all as read").
    expect(within(panel()).getByRole('button', { name: 'Close notifications' })).toHaveFocus();
    await user.tab();
    expect(within(panel()).getByRole('button', { name: 'Mark all as read' })).toHaveFocus();

    const links = await within(panel()).findAllByRole('link');
    // Unread is said, not only shown.
    expect(links[0]).toHaveAccessibleName(/^Unread: Ada assigned you “Fix the gate” Garden/);
    expect(links[0]!.closest('li')).toHaveClass('notif--unread');
    expect(links[1]).not.toHaveAccessibleName(/Unread/);
    expect(links[0]).toHaveAttribute('href', '/tasks/t1');

    await user.tab();
    expect(links[0]).toHaveFocus();
    await user.tab();
    expect(links[1]).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(panel()).not.toBeVisible();
    expect(bell()).toHaveFocus();
    expect(bell()).toHaveAttribute('aria-expanded', 'false');
  });

  it('a click opens the task and marks it read at once; the board for board_added', async () => {
    const a = makeNotification({ task: { _id: 't9', taskTitle: 'Paint the fence' } });
    const added = makeNotification({ type: 'board_added', text: 'Ada added you to the board “Garden”', task: null, board: { _id: 'b7', name: 'Garden' }, readAt: new Date().toISOString() });
    const fetch = signedIn()
      .on('GET', '/notifications', countAnswer(1))
      .on('GET', '/notifications', json(200, notificationsAnswer([a, added], 1)))
      .on('POST', '/notifications/read', json(200, { status: 'success', data: { unreadCount: 0 } }));
    const { user } = renderBell();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const links = await within(panel()).findAllByRole('link');
    expect(links[1]).toHaveAttribute('href', '/boards/b7');
    expect(links[1]).toHaveAccessibleName(/Garden/);

    await user.click(links[0]!);
    expect(currentPath()).toBe('/tasks/t9');
    expect(bell('Notifications')).toBeInTheDocument();
    expect(panel()).not.toBeVisible();
    await waitFor(() => {
      expect(fetch.callsTo('POST', '/notifications/read')).toHaveLength(1);
    });
    expect(fetch.callsTo('POST', '/notifications/read')[0]!.body).toEqual({ ids: [a._id] });
  });

  it('"Mark all as read" clears the badge at once, and puts it back when the server refuses', async () => {
    const [a, b] = [makeNotification(), makeNotification()];
    const fetch = signedIn()
      .on('GET', '/notifications', countAnswer(5))
      .on('GET', '/notifications', json(200, notificationsAnswer([a, b], 5, 'next')))
      .on('POST', '/notifications/read', json(500, { status: 'error', message: 'Something went wrong.' }))
      .on('POST', '/notifications/read', json(200, { status: 'success', data: { unreadCount: 0 } }));
    const { user } = renderBell();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 5 unread' }));
    await within(panel()).findAllByRole('link');

    await user.click(within(panel()).getByRole('button', { name: 'Mark all as read' }));
    // Refused: both items unread again, the count as it was, and why.
    expect(await screen.findByRole('button', { name: 'Notifications, 5 unread' })).toBeInTheDocument();
    expect(within(panel()).getAllByRole('link').map((link) => link.closest('li')?.className)).toEqual(['notif notif--unread', 'notif notif--unread']);

    await user.click(within(panel()).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => {
      expect(bell('Notifications')).toBeInTheDocument();
    });
    expect(within(panel()).getAllByRole('link').map((link) => link.closest('li')?.className)).toEqual(['notif', 'notif']);
    expect(within(panel()).getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    expect(fetch.callsTo('POST', '/notifications/read').map((c) => c.body)).toEqual([{ all: true }, { all: true }]);
  });

  it('pages with "Load more" (only the pages asked for render), focus on the first new item', async () => {
    const first = Array.from({ length: 20 }, () => makeNotification());
    const second = [makeNotification({ text: 'The older one' })];
    const fetch = signedIn()
      .on('GET', '/notifications', countAnswer(21))
      .on('GET', '/notifications', json(200, notificationsAnswer(first, 21, 'cursor-2')))
      .on('GET', '/notifications', json(200, notificationsAnswer(second, 21, null)));
    const { user } = renderBell();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 21 unread' }));
    expect(await within(panel()).findAllByRole('link')).toHaveLength(20);

    await user.click(within(panel()).getByRole('button', { name: 'Load more' }));
    await waitFor(() => {
      expect(within(panel()).getAllByRole('link')).toHaveLength(21);
    });
    expect(within(panel()).getByRole('link', { name: /The older one/ })).toHaveFocus();
    expect(within(panel()).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(fetch.callsTo('GET', '/notifications')[2]!.query.get('cursor')).toBe('cursor-2');
  });

  it('says when there is nothing, and offers Retry when the list fails', async () => {
    signedIn()
      .on('GET', '/notifications', countAnswer(0))
      .on('GET', '/notifications', json(503, { status: 'error', message: 'The database is not answering.' }))
      .on('GET', '/notifications', json(200, notificationsAnswer([], 0)));
    const { user } = renderBell();
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await within(panel()).findByRole('alert')).toHaveTextContent('Your notifications could not be loaded. The database is not answering.');
    await user.click(within(panel()).getByRole('button', { name: 'Try again' }));
    expect(await within(panel()).findByText('You’re all caught up')).toBeInTheDocument();
  });

  it('shows a new notification at the top while open', async () => {
    signedIn()
      .on('GET', '/notifications', countAnswer(0))
      .on('GET', '/notifications', json(200, notificationsAnswer([], 0)));
    const { user, live } = renderBell();
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    await within(panel()).findByText('You’re all caught up');
    await live('notification.created', { notification: makeNotification({ text: 'Ada mentioned you' }), unreadCount: 1 });
    expect(within(panel()).getByRole('link', { name: /^Unread: Ada mentioned you/ })).toBeInTheDocument();
    expect(bell('Notifications, 1 unread')).toBeInTheDocument();
  });
});
