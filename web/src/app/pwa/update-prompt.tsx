import { Trans } from '@lingui/react/macro';
import { useState, useSyncExternalStore } from 'react';
import { AlertIcon } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { pendingUpdate, subscribeToUpdate } from './update-store.ts';
import './update-prompt.css';

/**
 * "A new version is available" with a Reload button, among the app's notices, from the moment
 * a new version is waiting until the person reloads: it never goes away by itself and never
 * reloads without the click.
 */
export function UpdatePrompt() {
  const apply = useSyncExternalStore(subscribeToUpdate, pendingUpdate, () => null);
  const [reloading, setReloading] = useState(false);
  if (apply === null) return null;
  return (
    <div className="notice notice--info update-prompt">
      <AlertIcon tone="info" />
      <p className="notice__text" role="status">
        <Trans>A new version is available.</Trans>
      </p>
      <Button
        variant="primary"
        size="sm"
        busy={reloading}
        onClick={() => {
          setReloading(true);
          apply();
        }}
      >
        <Trans comment="Loads the new version of the app">Reload</Trans>
      </Button>
    </div>
  );
}
