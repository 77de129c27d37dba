import { useRef, useState, type SubmitEvent } from 'react';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { Dialog } from '#web/components/dialog.tsx';
import { TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { NETWORK_ERROR_MESSAGE } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useDeleteAccount } from '../api/delete-account.ts';
import { AccountSection } from './account-section.tsx';

/** Delete the account: asked first, confirmed with the password. */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const remove = useDeleteAccount();
  const { signOut } = useSession();
  const { notify } = useNotices();
  const passwordRef = useRef<HTMLInputElement>(null);

  const close = () => {
    setOpen(false);
    setPassword('');
    setError(undefined);
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password === '') {
      setError('Enter your password to confirm.');
      return;
    }
    remove.mutate(
      { password },
      {
        onSuccess: () => {
          close();
          notify('success', ACCOUNT_MESSAGES.accountDeleted);
          signOut('logout');
        },
        onError: (failure) => {
          setError(errorText(failure, { firstField: true }));
          passwordRef.current?.focus();
        },
      },
    );
  };

  return (
    <AccountSection id="account-delete" title="Delete account" danger>
      <p className="account-section__text">
        Your sign-in and the tasks only you can see are deleted. Tasks you created for other people, and your comments on them,
        stay with your name. Mails you turned off stay off for your address. You can sign up again with the same address later.
      </p>
      <div className="account-form__actions">
        <Button
          variant="danger"
          onClick={() => {
            setOpen(true);
          }}
        >
          Delete my account…
        </Button>
      </div>
      <Dialog
        open={open}
        onClose={close}
        variant="center"
        role="alertdialog"
        title="Delete your account?"
        description="This cannot be undone. Enter your password to confirm."
        initialFocusRef={passwordRef}
      >
        <form className="account-form" onSubmit={onSubmit} noValidate aria-label="Delete account">
          <TextField ref={passwordRef} label="Password" type="password" name="password" autoComplete="current-password" required value={password} error={error} onChange={(e) => { setPassword(e.target.value); }} />
          <div className="account-form__actions">
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="danger" busy={remove.isPending}>
              Delete my account
            </Button>
          </div>
        </form>
      </Dialog>
      {remove.isError && !open ? <Alert tone="error">{NETWORK_ERROR_MESSAGE}</Alert> : null}
    </AccountSection>
  );
}
