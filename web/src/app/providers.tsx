import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { useMemo, type ReactNode } from 'react';
import { NoticeProvider } from '#web/components/notices.tsx';
import { attachmentKeys } from '#web/features/attachments/api/query-keys.ts';
import { SessionProvider } from '#web/features/auth/components/session-provider.tsx';
import { boardKeys } from '#web/features/boards/api/query-keys.ts';
import { checklistKeys } from '#web/features/checklists/api/get-checklist.ts';
import { commentKeys } from '#web/features/comments/api/get-comments.ts';
import { peopleKeys } from '#web/features/comments/api/get-people.ts';
import { labelKeys } from '#web/features/labels/api/query-keys.ts';
import { OWN_VERSIONS_KEY } from '#web/features/tasks/api/own-versions.ts';
import { taskKeys } from '#web/features/tasks/api/query-keys.ts';
import { DeviceCopyContext, keepRestoredStaleUntilFetched, type DeviceCopy } from '#web/lib/device-copy.ts';
import { forgetAccountLanguage } from './i18n.ts';
import { QueueNotices } from './queue-notices.tsx';

/**
 * The parts of the cache kept on the device: what the board, its task pages and their comments,
 * checklists and lists of files show, and the versions this device's own saves produced (so a change waiting
 * behind another one of the same task is sent with the right version after a reload).
 */
const PERSISTED_ROOTS = [boardKeys.all, taskKeys.all, commentKeys.all, checklistKeys.all, attachmentKeys.all, labelKeys.all, peopleKeys.all, OWN_VERSIONS_KEY].map((key) => key[0]);

/** The account's language goes with the session: the page speaks the browser's again (offline, it stays as it is). */
function afterSignOut(): void {
  forgetAccountLanguage().catch(() => undefined);
}

/**
 * Everything the routes need around them. Tests wrap a memory router in the same stack.
 * The query client is restored from the device copy first (queries wait for it), then the
 * changes that were waiting are sent again: their handlers (app/write-queue.ts) must be
 * registered on the client before this renders — main.tsx does it for a tab that starts signed
 * in, SignedInOutlet (app/signed-in.tsx) for one that signs in later — so that /login and
 * /sign-up never download them.
 */
export function AppProviders({ queryClient, deviceCopy, children }: { queryClient: QueryClient; deviceCopy: DeviceCopy; children: ReactNode }) {
  const persistOptions = useMemo(() => deviceCopy.persistOptions(PERSISTED_ROOTS), [deviceCopy]);
  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      onSuccess={() => {
        keepRestoredStaleUntilFetched(queryClient);
        void queryClient.resumePausedMutations();
      }}
    >
      <I18nProvider i18n={i18n}>
        <DeviceCopyContext value={deviceCopy}>
          <NoticeProvider>
            <QueueNotices />
            <SessionProvider onSignedOut={afterSignOut}>{children}</SessionProvider>
          </NoticeProvider>
        </DeviceCopyContext>
      </I18nProvider>
    </PersistQueryClientProvider>
  );
}
