import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { NoticeProvider } from '#web/components/notices.tsx';
import { SessionProvider } from '#web/features/auth/components/session-provider.tsx';
import { DeviceCopyContext, type DeviceCopy } from '#web/lib/device-copy.ts';
import type { DataLayer } from './data-layer.tsx';
import { DataLayerHostProvider, loadDataLayer, useDataLayerHost } from './data-slot.tsx';
import { forgetAccountLanguage } from './i18n.ts';

/** Its chunk on its way while the password is checked, so that the signed-in page does not wait for it after. */
function prefetchDataLayer(): void {
  loadDataLayer().catch(() => undefined);
}

/** The account's language goes with the session: the page speaks the browser's again (offline, it stays as it is). */
function afterSignOut(): void {
  forgetAccountLanguage().catch(() => undefined);
}

/**
 * Everything the routes need around them. Tests wrap a memory router in the same stack. The
 * signed-in app's data layer (app/data-layer.tsx) comes in below the router, in the routes'
 * DataSlot: `dataLayer` is the one loaded before the first render (a tab that starts signed in,
 * or a test), else it is loaded when someone signs in.
 */
export function AppProviders({ deviceCopy, dataLayer, children }: { deviceCopy: DeviceCopy; dataLayer?: DataLayer | undefined; children: ReactNode }) {
  const host = useDataLayerHost(dataLayer);
  return (
    <I18nProvider i18n={i18n}>
      <DeviceCopyContext value={deviceCopy}>
        <NoticeProvider>
          <DataLayerHostProvider host={host}>
            <SessionProvider cache={host.layer?.cache} onSignInExpected={prefetchDataLayer} onSignedOut={afterSignOut}>
              {children}
            </SessionProvider>
          </DataLayerHostProvider>
        </NoticeProvider>
      </DeviceCopyContext>
    </I18nProvider>
  );
}
