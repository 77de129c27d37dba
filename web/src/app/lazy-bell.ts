import { lazyComponent } from '#web/lib/lazy-component.tsx';

/** The inbox's bell, in a chunk of its own: loaded once the session is confirmed, and preloaded by main.tsx for a tab that starts signed in. */
export const NotificationBell = lazyComponent(() => import('#web/features/notifications/components/notification-bell.tsx').then((m) => m.NotificationBell));
