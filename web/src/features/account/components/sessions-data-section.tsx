import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { API_BASE } from '#web/lib/api-client.ts';
import { useLogoutAll } from '../api/logout-all.ts';
import { AccountSection } from './account-section.tsx';

/** Sign out everywhere (asked first), and the download of everything the account holds. */
export function SessionsAndDataSection({ onSignedOut }: { onSignedOut: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const logoutAll = useLogoutAll();
  const { notify } = useNotices();
  const { t } = useLingui();

  const onConfirm = () =>
    logoutAll.mutateAsync(undefined).then((answer) => {
      notify('success', answer.message);
      onSignedOut();
    });

  return (
    <>
      <AccountSection id="account-sessions" title={t`Devices`}>
        <p className="account-section__text">
          <Trans>Lost a phone, or signed in on a shared computer? Sign out on every device at once, this one included.</Trans>
        </p>
        <div className="account-form__actions">
          <Button
            onClick={() => {
              setConfirming(true);
            }}
          >
            <Trans>Sign out everywhere</Trans>
          </Button>
        </div>
      </AccountSection>
      <AccountSection id="account-data" title={t`Your data`}>
        <p className="account-section__text">
          <Trans>One JSON file with your account, every task you created or are assigned, and every comment you wrote.</Trans>
        </p>
        <div className="account-form__actions">
          <a className="btn btn--secondary btn--md" href={`${API_BASE}/users/me/export`} download>
            <Trans>Download my data</Trans>
          </a>
        </div>
      </AccountSection>
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title={t`Sign out everywhere?`}
        body={t`Every device signed in to your account, this one included, will have to sign in again.`}
        confirmLabel={t`Sign out everywhere`}
        onConfirm={onConfirm}
      />
    </>
  );
}
