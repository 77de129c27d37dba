import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { cx } from '#web/lib/cx.ts';
import { useOnline } from '#web/lib/use-online.ts';
import { countQueuedWrites } from '#web/lib/write-queue.ts';
import './sync-status.css';

/** How long "All changes saved" stays spelled out before it folds to a quiet check. */
export const SAVED_NOTICE_MS = 4000;

export interface SyncState {
  online: boolean;
  waiting: number;
}

/** What the status line says: where this device's changes stand. */
export function syncText({ online, waiting }: SyncState): string {
  if (!online) {
    return waiting > 0
      ? plural(waiting, { one: 'Offline — # change waiting', other: 'Offline — # changes waiting' })
      : t({ message: 'Offline', comment: 'The status line: this device has no connection' });
  }
  return waiting > 0 ? t`Syncing…` : t`All changes saved`;
}

/** How many changes this device has not had answered yet. */
export function useQueuedWrites(): number {
  const queryClient = useQueryClient();
  return useSyncExternalStore(
    useCallback(
      (onChange: () => void) =>
        queryClient.getMutationCache().subscribe((event) => {
          // Only a change of a mutation's state can change the count. Observers come and go while
          // other components render (useMutation builds one in its first render): reacting to
          // those would update this component during another's render.
          if (event.type === 'added' || event.type === 'removed' || event.type === 'updated') onChange();
        }),
      [queryClient],
    ),
    () => countQueuedWrites(queryClient),
  );
}

/**
 * The nav bar's status line: "Offline — N changes waiting" / "Offline", "Syncing…", "All
 * changes saved". Once everything is saved it folds to a check after a few seconds; the words
 * stay in the live region for screen readers (polite: it never interrupts).
 */
export function SyncStatus({ className }: { className?: string }) {
  // Rendered again when the language changes: the words come from syncText.
  useLingui();
  const online = useOnline();
  const waiting = useQueuedWrites();
  const text = syncText({ online, waiting });
  const saved = online && waiting === 0;
  // Quiet from the start when nothing is happening; spelled out after a sync finishes.
  const [quiet, setQuiet] = useState(saved);
  const [wasSaved, setWasSaved] = useState(saved);
  if (wasSaved !== saved) {
    setWasSaved(saved);
    if (!saved) setQuiet(false);
  }
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => {
      setQuiet(true);
    }, SAVED_NOTICE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [saved]);

  const state = !online ? 'offline' : waiting > 0 ? 'syncing' : 'saved';
  return (
    <p className={cx('sync-status', className, `sync-status--${state}`, quiet && saved && 'sync-status--quiet')} role="status" aria-live="polite" title={text}>
      <SyncIcon state={state} />
      <span className="sync-status__text">{text}</span>
    </p>
  );
}

function SyncIcon({ state }: { state: 'offline' | 'syncing' | 'saved' }) {
  if (state === 'saved') {
    return (
      <svg className="sync-status__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  if (state === 'syncing') {
    return (
      <svg className="sync-status__icon sync-status__icon--spin" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path d="M13.5 8a5.5 5.5 0 1 1-1.6-3.9" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
    );
  }
  return (
    <svg className="sync-status__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path d="M2 6.2a9 9 0 0 1 12 0M4.3 8.6a5.6 5.6 0 0 1 7.4 0M6.6 11a2.2 2.2 0 0 1 2.8 0" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      <path d="M2.5 2.5l11 11" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
