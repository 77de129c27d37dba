import { Trans } from '@lingui/react/macro';
import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PageHeading } from '#web/components/page-heading.tsx';
import { PasskeysSection } from '#web/features/account/components/passkeys-section.tsx';
import { TwoStepSection } from '#web/features/account/components/two-step-section.tsx';
import { onSecondStepRequired } from '#web/lib/api-client.ts';

/**
 * With REQUIRE_2FA on, an account without two-step sign-in gets 403 SECOND_STEP_REQUIRED from
 * every call but the set-up: once one answers so, this shows the set-up instead of the pages
 * (the navigation bar still signs out), until the recovery codes were saved or a passkey was
 * added; then the pages load again.
 */
export function SecondStepGate({ children }: { children: ReactNode }) {
  const [required, setRequired] = useState(false);
  const client = useQueryClient();
  useEffect(
    () =>
      onSecondStepRequired(() => {
        setRequired(true);
      }),
    [],
  );
  if (!required) return children;
  const release = () => {
    setRequired(false);
    void client.invalidateQueries();
  };
  return (
    <div className="account">
      <div>
        <PageHeading>
          <Trans>Set up two-step sign-in</Trans>
        </PageHeading>
        <p className="account__intro">
          <Trans>
            This server asks every account for a second step at sign-in: a code from an authenticator app, or a passkey. Set one up to continue.
          </Trans>
        </p>
      </div>
      <TwoStepSection onTurnedOn={release} />
      <PasskeysSection onAdded={release} />
    </div>
  );
}
