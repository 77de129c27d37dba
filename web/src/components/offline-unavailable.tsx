import { Trans } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';

/**
 * Offline, a query with nothing in the device copy waits (fetchStatus `paused`) until the network
 * returns: the page says so plainly instead of showing a spinner for ever.
 */
export function notAvailableOffline(query: Pick<UseQueryResult, 'data' | 'fetchStatus'>): boolean {
  return query.data === undefined && query.fetchStatus === 'paused';
}

/** What a page says offline when this device has no copy of it. */
export function OfflineUnavailable({ className }: { className?: string }) {
  return (
    <p className={className ?? 'offline-unavailable'} role="status">
      <Trans>You’re offline. This page hasn’t been opened on this device yet. It will load when you’re back online.</Trans>
    </p>
  );
}
