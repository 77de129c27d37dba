import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PublicKeyEnvelope, PushSubscriptionBody } from '#shared/schemas/notifications.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/*
 * Push on this device, with the browser's standard APIs only (Notification, the service
 * worker's PushManager). The service worker itself is registered by the app shell; here we
 * only wait for it to be active. Turning on: the person's permission, the worker, the server's
 * VAPID key, the browser's subscription, then the server keeps it. Turning off: the server
 * forgets the endpoint first (so nothing more is sent to it), then the browser drops it.
 * @see https://developer.mozilla.org/en-US/docs/Web/API/PushManager/subscribe
 */

/** How long to wait for an active service worker before saying there is none. */
export const WORKER_TIMEOUT_MS = 10_000;

export const DEVICE_MESSAGES = {
  unsupported: msg`This browser cannot show notifications from Taskwise. Most current browsers can; on an iPhone or iPad, add Taskwise to the Home Screen first.`,
  denied: msg`Notifications are blocked for this site. To allow them, open the site settings from the icon left of the address bar, set Notifications to Allow, and reload the page.`,
  dismissed: msg`Notifications were not allowed. Turn the switch on again to be asked once more.`,
  noWorker: msg`This device is not ready for notifications: the app’s background worker is not running. Reload the page and try again.`,
  failed: msg`Notifications could not be turned on for this device. Try again later.`,
} satisfies Record<string, MessageDescriptor>;

/** A failure with a sentence to show (in the language in use when it happened). */
export class DeviceError extends Error {
  constructor(message: MessageDescriptor) {
    super(i18n._(message));
    this.name = 'DeviceError';
  }
}

/** Whether this browser has what push needs at all. */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;
}

export const permissionBlocked = (): boolean => pushSupported() && Notification.permission === 'denied';

/** The browser's subscription on this device, if any (never waits for a worker). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

async function activeRegistration(timeoutMs: number): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DeviceError(DEVICE_MESSAGES.noWorker));
    }, timeoutMs);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The VAPID key (base64url) as the bytes `subscribe` wants. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function subscriptionBody(subscription: PushSubscription): PushSubscriptionBody {
  const json = subscription.toJSON();
  return { endpoint: json.endpoint ?? subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' }, expirationTime: json.expirationTime ?? null };
}

/**
 * Turns push on for this device. Resolves 'denied' or 'dismissed' when the person did not allow
 * notifications; throws a DeviceError or the server's ApiError otherwise.
 */
export async function subscribeThisDevice(timeoutMs = WORKER_TIMEOUT_MS): Promise<'on' | 'denied' | 'dismissed'> {
  if (!pushSupported()) throw new DeviceError(DEVICE_MESSAGES.unsupported);
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'dismissed';
  const registration = await activeRegistration(timeoutMs);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription === null) {
    const { data } = await apiRequest<PublicKeyEnvelope>('/push/public-key');
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(data.publicKey) });
  }
  try {
    await apiRequest('/push/subscriptions', { method: 'POST', body: subscriptionBody(subscription) });
  } catch (error) {
    // The server does not have it (over the limit, say): the browser must not keep it either.
    await subscription.unsubscribe().catch(() => false);
    throw error;
  }
  return 'on';
}

/** The server forgets this device's endpoint: nothing more is sent to it. */
function forgetOnServer(endpoint: string, authenticated = true): Promise<unknown> {
  return apiRequest('/push/subscriptions', { method: 'DELETE', body: { endpoint }, expectNoContent: true, authenticated });
}

/** Turns push off for this device: the server forgets the endpoint, then the browser drops it. */
export async function unsubscribeThisDevice(): Promise<void> {
  const subscription = await currentSubscription();
  if (subscription === null) return;
  await forgetOnServer(subscription.endpoint);
  await subscription.unsubscribe();
}

/**
 * Before signing out: this device stops getting the person's pushes (the next person to use the
 * browser must not see them). The browser drops the subscription even if the server could not
 * be told (its push service then answers 410 and the server deletes it). Best effort and at
 * most `timeoutMs`: signing out never waits longer.
 */
export async function forgetThisDevice(timeoutMs = 3_000): Promise<void> {
  const work = (async () => {
    const subscription = await currentSubscription();
    if (subscription === null) return;
    try {
      // Not `authenticated`: a session that has just ended must not sign out a second time.
      await forgetOnServer(subscription.endpoint, false);
    } finally {
      await subscription.unsubscribe();
    }
  })().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([work, timeout]);
  clearTimeout(timer);
}
