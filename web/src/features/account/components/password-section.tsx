import { useLingui } from '@lingui/react/macro';
import { useState, type SubmitEvent } from 'react';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { checkPassword } from '#shared/validation.ts';
import { Alert } from '#web/components/alert.tsx';
import { TextField } from '#web/components/field.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useChangePassword } from '../api/change-password.ts';
import { AccountFormFooter, AccountSection } from './account-section.tsx';
import { i18n } from '@lingui/core';

interface Errors {
  currentPassword?: string;
  newPassword?: string;
  confirm?: string;
}

/** Password change: the current password, the new one twice; other devices are signed out. */
export function PasswordSection({ email }: { email: string }) {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const change = useChangePassword();
  const { t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(null);
    setFormError(null);
    const next: Errors = {};
    if (currentPassword === '') next.currentPassword = t`Enter your current password.`;
    const checked = checkPassword(newPassword, email);
    if (!checked.ok) next.newPassword = i18n._(checked.message);
    else if (confirm !== newPassword) next.confirm = i18n._(CLIENT_MESSAGES.passwordMismatch);
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (answer) => {
          setCurrent('');
          setNew('');
          setConfirm('');
          setDone(answer.message);
        },
        onError: (failure) => {
          if (isApiError(failure) && failure.errors.length > 0) {
            setErrors(Object.fromEntries(failure.errors.map((f) => [f.field, f.message])));
          } else {
            setFormError(errorText(failure));
          }
        },
      },
    );
  };

  return (
    <AccountSection id="account-password" title={t`Password`}>
      <form className="account-form" onSubmit={onSubmit} noValidate aria-label={t`Change password`}>
        {formError !== null ? <Alert tone="error">{formError}</Alert> : null}
        <TextField label={t`Current password`} type="password" name="currentPassword" autoComplete="current-password" required value={currentPassword} error={errors.currentPassword} onChange={(e) => { setCurrent(e.target.value); }} />
        <TextField label={t`New password`} type="password" name="newPassword" autoComplete="new-password" hint={t`8 to 128 characters.`} required value={newPassword} error={errors.newPassword} onChange={(e) => { setNew(e.target.value); }} />
        <TextField label={t`Confirm new password`} type="password" name="confirmPassword" autoComplete="new-password" required value={confirm} error={errors.confirm} onChange={(e) => { setConfirm(e.target.value); }} />
        <AccountFormFooter submitLabel={t`Change password`} busy={change.isPending} done={done} />
      </form>
    </AccountSection>
  );
}
