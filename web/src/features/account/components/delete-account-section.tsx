import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { useDeleteAccount } from '../api/delete-account.ts';
import { AccountSection } from './account-section.tsx';

/** Delete the account: asked first, confirmed with the password. */
export function DeleteAccountSection({ onSignedOut }: { onSignedOut: () => void }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const remove = useDeleteAccount();
  const { notify } = useNotices();
  const passwordRef = useRef<HTMLInputElement>(null);
  const { t } = useLingui();

  const close = () => {
    setOpen(false);
    setPassword('');
    setError(undefined);
  };

  const onConfirm = () => {
    if (password === '') {
      setError(t`Enter your password to confirm.`);
      passwordRef.current?.focus();
      return;
    }
    setError(undefined);
    return remove.mutateAsync({ password }).then(
      () => {
        notify('success', ACCOUNT_MESSAGES.accountDeleted);
        onSignedOut();
      },
      (failure: unknown) => {
        // A wrong password is shown on the field; anything else in the dialog.
        const field = isApiError(failure) ? failure.errors.find((item) => item.field === 'password') : undefined;
        if (!field) throw failure;
        setError(field.message);
        passwordRef.current?.focus();
        return false;
      },
    );
  };

  return (
    <AccountSection id="account-delete" title={t`Delete account`} danger>
      <p className="account-section__text">
        <Trans>
          Your sign-in and the tasks only you can see are deleted. Tasks you created for other people, and your comments on them,
          stay with your name. Mails you turned off stay off for your address. You can sign up again with the same address later.
        </Trans>
      </p>
      <div className="account-form__actions">
        <Button
          variant="danger"
          onClick={() => {
            setOpen(true);
          }}
        >
          <Trans>Delete my account…</Trans>
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onClose={close}
        title={t`Delete your account?`}
        body={t`This cannot be undone. Enter your password to confirm.`}
        confirmLabel={t`Delete my account`}
        initialFocusRef={passwordRef}
        onConfirm={onConfirm}
      >
        <TextField ref={passwordRef} label={t`Password`} type="password" name="password" autoComplete="current-password" required value={password} error={error} onChange={(e) => { setPassword(e.target.value); }} />
      </ConfirmDialog>
    </AccountSection>
  );
}
