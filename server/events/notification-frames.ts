import type { Notification } from '#shared/schemas/notifications.ts';
import { DEFAULT_LANGUAGE } from '#shared/languages.ts';
import type { ReaderLanguage } from '../i18n/translate.ts';
import type { LoggedEvent } from '../repositories/events-repository.ts';
import { notificationText } from '../services/notifications.ts';
import { eventFrame, frame } from './sse.ts';

const frames = new WeakMap<LoggedEvent, Map<ReaderLanguage, string>>();

/**
 * The frame of a `notification.created` event for a stream read in `language`: the notification's
 * text written in it (the logged event holds the English one). Made once per event and language.
 */
export function notificationFrame(event: LoggedEvent, language: ReaderLanguage): string {
  if (language === DEFAULT_LANGUAGE) return frame(event);
  let byLanguage = frames.get(event);
  if (byLanguage === undefined) {
    byLanguage = new Map();
    frames.set(event, byLanguage);
  }
  let text = byLanguage.get(language);
  if (text === undefined) {
    const data = JSON.parse(event.payload) as { notification: Notification; unreadCount: number };
    const payload = JSON.stringify({ ...data, notification: { ...data.notification, text: notificationText(data.notification, language) } });
    text = eventFrame(event.id, event.type, payload);
    byLanguage.set(language, text);
  }
  return text;
}
