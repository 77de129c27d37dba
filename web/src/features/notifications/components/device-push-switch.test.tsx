import { i18n } from '@lingui/core';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, networkError, noContent } from '#web/testing/fetch.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { DEVICE_MESSAGES, DeviceError, forgetThisDevice, keyBytes, subscribeThisDevice } from '../api/push-device.ts';
import { DevicePushSwitch } from './device-push-switch.tsx';

/*
 * The browser's side (Notification, the service worker registration and its PushManager) is
 * stubbed here: it is the boundary, not our code. The server's answers come through fetch.
 */
const ENDPOINT = 'https://push.example.test/send/abc';
// A P-256 public key in base64url is 87 characters; any bytes do for the browser stub.
const PUBLIC_KEY = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';

interface FakeBrowser {
  permission?: NotificationPermission;
  /** What the permission prompt answers. */
  answer?: NotificationPermission;
  subscribed?: boolean;
  /** Whether a service worker is active. */
  worker?: boolean;
}

function fakeBrowser({ permission = 'default', answer = 'granted', subscribed = false, worker = true }: FakeBrowser = {}) {
  const subscription = {
    endpoint: ENDPOINT,
    toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'browser-key', auth: 'browser-secret' } }),
    unsubscribe: vi.fn(() => {
      state.subscription = null;
      return Promise.resolve(true);
    }),
  };
  const state: { subscription: typeof subscription | null } = { subscription: subscribed ? subscription : null };
  const pushManager = {
    getSubscription: vi.fn(() => Promise.resolve(state.subscription)),
    subscribe: vi.fn((_options: PushSubscriptionOptionsInit) => {
      state.subscription = subscription;
      return Promise.resolve(subscription);
    }),
  };
  const registration = { pushManager };
  const notification = {
    permission,
    requestPermission: vi.fn(() => {
      notification.permission = answer;
      return Promise.resolve(answer);
    }),
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {
    // Only its presence is checked.
  });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: () => Promise.resolve(worker ? registration : undefined),
      ready: worker ? Promise.resolve(registration) : new Promise(() => undefined),
    },
  });
  return { subscription, pushManager, notification, state };
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

const deviceSwitch = () => screen.getByRole('switch', { name: 'Notifications on this device' });

describe('"Notifications on this device"', () => {
  it('explains when the browser cannot do push', () => {
    renderWithProviders(<DevicePushSwitch />);
    expect(deviceSwitch()).toBeDisabled();
    expect(deviceSwitch()).toHaveAccessibleDescription(i18n._(DEVICE_MESSAGES.unsupported));
  });

  it('explains how to allow notifications when the browser blocks them', () => {
    fakeBrowser({ permission: 'denied' });
    renderWithProviders(<DevicePushSwitch />);
    expect(deviceSwitch()).toBeDisabled();
    expect(deviceSwitch()).not.toBeChecked();
    expect(deviceSwitch()).toHaveAccessibleDescription(/site settings.*Notifications to Allow/);
  });

  it('shows the browser’s own state: on when this device is subscribed', async () => {
    fakeBrowser({ permission: 'granted', subscribed: true });
    renderWithProviders(<DevicePushSwitch />);
    await waitFor(() => {
      expect(deviceSwitch()).toBeChecked();
    });
    expect(deviceSwitch()).toBeEnabled();
  });

  it('turns on: permission, the worker, the server’s key, the subscription, then the server keeps it', async () => {
    const browser = fakeBrowser();
    const fetch = mockFetch()
      .on('GET', '/push/public-key', json(200, { status: 'success', data: { publicKey: PUBLIC_KEY } }))
      .on('POST', '/push/subscriptions', json(201, { status: 'success', message: 'Subscribed.' }));
    const { user } = renderWithProviders(<DevicePushSwitch />);
    await waitFor(() => {
      expect(deviceSwitch()).toBeEnabled();
    });
    expect(deviceSwitch()).not.toBeChecked();

    await user.click(deviceSwitch());
    expect(await screen.findByRole('status')).toHaveTextContent('Notifications are on for this device.');
    expect(deviceSwitch()).toBeChecked();
    expect(browser.notification.requestPermission).toHaveBeenCalledTimes(1);
    const options = browser.pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect(options.applicationServerKey).toEqual(keyBytes(PUBLIC_KEY));
    expect(keyBytes(PUBLIC_KEY)).toHaveLength(65);
    expect(fetch.callsTo('POST', '/push/subscriptions')[0]!.body).toEqual({
      endpoint: ENDPOINT,
      keys: { p256dh: 'browser-key', auth: 'browser-secret' },
      expirationTime: null,
    });
  });

  it('stays off and explains when the person blocks the prompt, or just closes it', async () => {
    const browser = fakeBrowser({ answer: 'default' });
    const { user } = renderWithProviders(<DevicePushSwitch />);
    await waitFor(() => {
      expect(deviceSwitch()).toBeEnabled();
    });
    await user.click(deviceSwitch());
    expect(await screen.findByText(i18n._(DEVICE_MESSAGES.dismissed))).toBeInTheDocument();
    expect(deviceSwitch()).not.toBeChecked();

    browser.notification.requestPermission.mockImplementation(() => {
      browser.notification.permission = 'denied';
      return Promise.resolve('denied');
    });
    await user.click(deviceSwitch());
    await waitFor(() => {
      expect(deviceSwitch()).toBeDisabled();
    });
    expect(deviceSwitch()).toHaveAccessibleDescription(/site settings/);
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('a refused subscription (over the limit) is dropped by the browser too, and said', async () => {
    const browser = fakeBrowser();
    mockFetch()
      .on('GET', '/push/public-key', json(200, { status: 'success', data: { publicKey: PUBLIC_KEY } }))
      .on('POST', '/push/subscriptions', json(409, { status: 'fail', code: 'LIMIT_REACHED', message: 'At most 10 devices can get notifications.' }));
    const { user } = renderWithProviders(<DevicePushSwitch />);
    await waitFor(() => {
      expect(deviceSwitch()).toBeEnabled();
    });
    await user.click(deviceSwitch());
    expect(await screen.findByRole('alert')).toHaveTextContent('At most 10 devices can get notifications.');
    expect(deviceSwitch()).not.toBeChecked();
    expect(browser.subscription.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('turns off: the server forgets the endpoint first, then the browser drops it', async () => {
    const browser = fakeBrowser({ permission: 'granted', subscribed: true });
    const fetch = mockFetch().on('DELETE', '/push/subscriptions', noContent());
    const { user } = renderWithProviders(<DevicePushSwitch />);
    await waitFor(() => {
      expect(deviceSwitch()).toBeChecked();
    });
    await user.click(deviceSwitch());
    expect(await screen.findByRole('status')).toHaveTextContent('Notifications are off for this device.');
    expect(deviceSwitch()).not.toBeChecked();
    expect(fetch.callsTo('DELETE', '/push/subscriptions')[0]!.body).toEqual({ endpoint: ENDPOINT });
    expect(browser.subscription.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('stays on when the server could not be told', async () => {
    const browser = fakeBrowser({ permission: 'granted', subscribed: true });
    mockFetch().on('DELETE', '/push/subscriptions', networkError());
    const { user } = renderWithProviders(<DevicePushSwitch />);
    await waitFor(() => {
      expect(deviceSwitch()).toBeChecked();
    });
    await user.click(deviceSwitch());
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Notifications are still on for this device. Could not reach the server/);
    expect(deviceSwitch()).toBeChecked();
    expect(browser.subscription.unsubscribe).not.toHaveBeenCalled();
  });
});

describe('the device’s subscription, without a worker and at sign-out', () => {
  it('says clearly when no service worker becomes active', async () => {
    fakeBrowser({ worker: false });
    const attempt = subscribeThisDevice(20);
    await expect(attempt).rejects.toBeInstanceOf(DeviceError);
    await expect(attempt).rejects.toThrow(i18n._(DEVICE_MESSAGES.noWorker));
  });

  it('at sign-out the browser drops the subscription even when the server cannot be told', async () => {
    const browser = fakeBrowser({ permission: 'granted', subscribed: true });
    const fetch = mockFetch().on('DELETE', '/push/subscriptions', json(401, { status: 'fail', code: 'UNAUTHORIZED', message: 'Signed out.' }));
    await forgetThisDevice();
    expect(fetch.callsTo('DELETE', '/push/subscriptions')[0]!.body).toEqual({ endpoint: ENDPOINT });
    expect(browser.subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(browser.state.subscription).toBeNull();
  });
});
