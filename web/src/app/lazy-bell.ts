import { lazyComponent } from '#web/lib/lazy-component.tsx';
import { withAppCatalog } from './i18n.ts';

/**
 * The inbox's bell, in a chunk of its own: loaded once the session is confirmed, and preloaded by
 * main.tsx for a tab that starts signed in; with the app catalog of the language in use.
 */
export const NotificationBell = lazyComponent(
  withAppCatalog(() => import('#web/features/notifications/components/notification-bell.tsx').then((m) => m.NotificationBell)),
);
