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

  const onConfirm = () =>
    logoutAll.mutateAsync(undefined).then((answer) => {
      notify('success', answer.message);
      onSignedOut();
    });

  return (
    <>
      <AccountSection id="account-sessions" title="Devices">
        <p className="account-section__text">Lost a phone, or signed in on a shared computer? Sign out on every device at once, this one included.</p>
        <div className="account-form__actions">
          <Button
            onClick={() => {
              setConfirming(true);
            }}
          >
            Sign out everywhere
          </Button>
        </div>
      </AccountSection>
      <AccountSection id="account-data" title="Your data">
        <p className="account-section__text">
          One JSON file with your account, every task you created or are assigned, and every comment you wrote.
        </p>
        <div className="account-form__actions">
          <a className="btn btn--secondary btn--md" href={`${API_BASE}/users/me/export`} download>
            Download my data
          </a>
        </div>
      </AccountSection>
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title="Sign out everywhere?"
        body="Every device signed in to your account, this one included, will have to sign in again."
        confirmLabel="Sign out everywhere"
        onConfirm={onConfirm}
      />
    </>
  );
}
