import type { PushPayload } from '#shared/schemas/notifications.ts';
import { safeReturnPath } from '#web/lib/return-path.ts';

/**
 * The pure parts of the service worker (web/src/sw.ts): what a pushed message shows and where a
 * click on it leads. No worker or DOM APIs, so they run under Vitest as they are.
 */

/** Where a notification leads when its message named no usable place. */
export const DEFAULT_TARGET = '/tasks';

/** Shown for a push whose payload is missing or not the JSON the server sends. */
export const FALLBACK_NOTIFICATION = { title: 'Taskwise', body: 'You have a new notification.' } as const;

export interface NotificationContent {
  title: string;
  body: string;
  /** The notification's id: a second push of the same one replaces it instead of stacking. */
  tag: string | undefined;
  /** A same-origin path of the app (DEFAULT_TARGET when the payload had none). */
  url: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * Reads a push message's text, the JSON {title, body, url, id} the server sends (PushPayload).
 * Anything else (no data, not JSON, no title) still shows something: Chromium requires every
 * push to show a notification (`userVisibleOnly`), and a silent failure would hide the message.
 */
export function notificationFromPush(data: string | null | undefined): NotificationContent {
  let parsed: Partial<Record<keyof PushPayload, unknown>> | null = null;
  try {
    const value: unknown = JSON.parse(data ?? '');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) parsed = value;
  } catch {
    parsed = null;
  }
  const title = text(parsed?.title);
  if (parsed === null || title === undefined) {
    return { ...FALLBACK_NOTIFICATION, tag: undefined, url: DEFAULT_TARGET };
  }
  return {
    title,
    body: typeof parsed.body === 'string' ? parsed.body : '',
    tag: text(parsed.id),
    url: safeReturnPath(text(parsed.url), DEFAULT_TARGET),
  };
}

/**
 * The absolute URL a click on a notification opens: its `url` when that is a path on our own
 * origin, else DEFAULT_TARGET. A payload can never send a click to another site.
 */
export function clickTarget(data: unknown, origin: string): string {
  const url = typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined;
  const path = safeReturnPath(typeof url === 'string' ? url : null, DEFAULT_TARGET);
  return new URL(path, origin).href;
}

interface WindowLike {
  url: string;
  focused: boolean;
  visibilityState: DocumentVisibilityState;
}

/** Which open window of the app a click should bring forward: the focused one, else a visible one, else any. */
export function pickWindow<T extends WindowLike>(windows: readonly T[], origin: string): T | undefined {
  const own = windows.filter((w) => {
    try {
      return new URL(w.url).origin === origin;
    } catch {
      return false;
    }
  });
  return own.find((w) => w.focused) ?? own.find((w) => w.visibilityState === 'visible') ?? own[0];
}
