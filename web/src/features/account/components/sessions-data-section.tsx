import { useState } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { API_BASE } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useLogoutAll } from '../api/logout-all.ts';
import { AccountSection } from './account-section.tsx';

/** Sign out everywhere (asked first), and the download of everything the account holds. */
export function SessionsAndDataSection() {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const logoutAll = useLogoutAll();
  const { signOut } = useSession();
  const { notify } = useNotices();

  const onConfirm = () => {
    logoutAll.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        notify('success', answer.message);
        signOut('logout');
      },
      onError: (failure) => {
        setConfirming(false);
        setError(errorText(failure));
      },
    });
  };

  return (
    <>
      <AccountSection id="account-sessions" title="Devices">
        <p className="account-section__text">Lost a phone, or signed in on a shared computer? Sign out on every device at once, this one included.</p>
        <div className="account-form__actions">
          <Button
            onClick={() => {
              setError(null);
              setConfirming(true);
            }}
          >
            Sign out everywhere
          </Button>
        </div>
        {error !== null ? <Alert tone="error">{error}</Alert> : null}
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
      <Dialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        variant="center"
        role="alertdialog"
        hideCloseButton
        title="Sign out everywhere?"
        description="Every device signed in to your account, this one included, will have to sign in again."
        footer={
          <>
            <Button
              onClick={() => {
                setConfirming(false);
              }}
            >
              Cancel
            </Button>
            <Button variant="danger" busy={logoutAll.isPending} onClick={onConfirm}>
              Sign out everywhere
            </Button>
          </>
        }
      />
    </>
  );
}
