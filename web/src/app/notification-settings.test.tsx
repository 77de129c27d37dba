import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, type NotificationSettings } from '#shared/schemas/notifications.ts';
import { LOGGED_IN_FLAG } from '#shared/constants.ts';
import { meAnswer } from '#web/testing/data.ts';
import { json, mockFetch } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { NotificationSettingsSections } from './notification-settings-host.tsx';

const allOn = (): NotificationSettings => ({
  app: Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, true])) as NotificationSettings['app'],
  push: Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, true])) as NotificationSettings['push'],
});
const settingsAnswer = (settings: NotificationSettings, message?: string) => json(200, { status: 'success', message, data: { settings } });
const mailAnswer = (overrides: Record<string, boolean> = {}) =>
  json(200, { status: 'success', message: 'Your notification settings were saved.', data: { settings: { notifyAssigned: true, notifyReminders: true, notifyBoards: true, notifyMentions: true, ...overrides } } });

function scene() {
  localStorage.setItem(LOGGED_IN_FLAG, 'true');
  const fetch = mockFetch()
    .on('GET', '/users/me', json(200, meAnswer()))
    .on('GET', '/notification-settings', settingsAnswer(allOn()))
    .on('GET', '/users/me/settings', mailAnswer());
  const rendered = renderWithProviders(<NotificationSettingsSections />, { path: '/account' });
  return { fetch, ...rendered };
}

const section = () => screen.getByRole('region', { name: 'Notifications' });
const table = () => screen.getByRole('table', { name: 'Notifications by type and channel' });

describe('the notification settings table', () => {
  it('is a table of types by channels, every switch named "<type>: <channel>"', async () => {
    scene();
    await screen.findByRole('table');
    expect(within(table()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Type', 'In the app', 'Push', 'Mail']);
    expect(within(table()).getAllByRole('rowheader').map((h) => h.textContent)).toEqual([
      'Assigned to me',
      'Mentions',
      'Comments on my tasks',
      'My tasks completed',
      'Due soon',
      'Overdue',
      'Added to a board',
    ]);
    expect(screen.getByRole('switch', { name: 'Mentions: Push' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Added to a board: Mail' })).toBeChecked();
    // 7 types in the app and by push, 5 by mail: comments and completions are never mailed.
    expect(within(table()).getAllByRole('switch')).toHaveLength(19);
    expect(screen.queryByRole('switch', { name: 'Comments on my tasks: Mail' })).not.toBeInTheDocument();
    expect(within(table()).getByText('Comments on my tasks: Mail: never sent by mail')).toBeInTheDocument();
    // The two reminder rows share one mail setting, and say so.
    expect(screen.getByRole('switch', { name: 'Due soon: Mail' })).toHaveAccessibleDescription(/one setting, the deadline reminders/);
  });

  it('saves one switch at once with only its change, and confirms politely', async () => {
    const { fetch, user } = scene();
    const answer = allOn();
    answer.push.mentioned = false;
    fetch.on('PATCH', '/notification-settings', settingsAnswer(answer, 'Your notification settings were saved.'));
    await user.click(await screen.findByRole('switch', { name: 'Mentions: Push' }));
    expect(screen.getByRole('switch', { name: 'Mentions: Push' })).not.toBeChecked();
    expect(await within(section()).findByRole('status')).toHaveTextContent('Saved: Mentions: Push off.');
    expect(fetch.callsTo('PATCH', '/notification-settings')[0]!.body).toEqual({ push: { mentioned: false } });
    expect(screen.getByRole('switch', { name: 'Mentions: In the app' })).toBeChecked();
  });

  it('puts the switch back and says why when the save fails', async () => {
    const { fetch, user } = scene();
    fetch.on('PATCH', '/notification-settings', json(500, { status: 'error', message: 'Something went wrong on our side.' }));
    await user.click(await screen.findByRole('switch', { name: 'Overdue: In the app' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Overdue: In the app was not changed. Something went wrong on our side.');
    expect(screen.getByRole('switch', { name: 'Overdue: In the app' })).toBeChecked();
  });

  it('the Mail column is the mail settings: reminders are one setting for both rows', async () => {
    const { fetch, user } = scene();
    fetch.on('PATCH', '/users/me/settings', mailAnswer({ notifyReminders: false }));
    await user.click(await screen.findByRole('switch', { name: 'Due soon: Mail' }));
    expect(screen.getByRole('switch', { name: 'Overdue: Mail' })).not.toBeChecked();
    expect(await within(section()).findByRole('status')).toHaveTextContent('Saved: Due soon and Overdue: Mail off.');
    expect(fetch.callsTo('PATCH', '/users/me/settings')[0]!.body).toEqual({ notifyReminders: false });
    expect(screen.getByRole('switch', { name: 'Due soon: Mail' })).not.toBeChecked();

    fetch.on('PATCH', '/users/me/settings', json(400, { status: 'fail', code: 'VALIDATION_ERROR', message: 'Refused.' }));
    await user.click(screen.getByRole('switch', { name: 'Assigned to me: Mail' }));
    await waitFor(() => {
      expect(screen.getByRole('switch', { name: 'Assigned to me: Mail' })).toBeChecked();
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Assigned to me: Mail was not changed. Refused.');
    expect(fetch.callsTo('PATCH', '/users/me/settings')[1]!.body).toEqual({ notifyAssigned: false });
  });

  it('offers Retry when the settings cannot be loaded', async () => {
    localStorage.setItem(LOGGED_IN_FLAG, 'true');
    mockFetch()
      .on('GET', '/users/me', json(200, meAnswer()))
      .on('GET', '/notification-settings', json(503, { status: 'error', message: 'Down.' }))
      .on('GET', '/users/me/settings', mailAnswer())
      .on('GET', '/notification-settings', settingsAnswer(allOn()));
    const { user } = renderWithProviders(<NotificationSettingsSections />, { path: '/account' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your notification settings could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });
});
