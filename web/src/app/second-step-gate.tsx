import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PageHeading } from '#web/components/page-heading.tsx';
import { TwoStepSection } from '#web/features/account/components/two-step-section.tsx';
import { onSecondStepRequired } from '#web/lib/api-client.ts';

/**
 * With REQUIRE_2FA on, an account without two-step sign-in gets 403 SECOND_STEP_REQUIRED from
 * every call but the set-up: once one answers so, this shows the set-up instead of the pages
 * (the navigation bar still signs out), until the recovery codes were saved; then the pages load again.
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
  return (
    <div className="account">
      <div>
        <PageHeading>Set up two-step sign-in</PageHeading>
        <p className="account__intro">This server asks every account for a code from an authenticator app at sign-in. Set it up to continue.</p>
      </div>
      <TwoStepSection
        onTurnedOn={() => {
          setRequired(false);
          void client.invalidateQueries();
        }}
      />
    </div>
  );
}
