import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type SubmitEvent } from 'react';
import type { PublicUser } from '#shared/schemas/users.ts';
import { checkFullName } from '#shared/validation.ts';
import { TextField } from '#web/components/field.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { AccountFormFooter, AccountSection } from './account-section.tsx';
import { i18n } from '@lingui/core';

/** Name: saved with a confirmation; the navigation bar shows the new name at once. */
export function ProfileSection({ fullName, email, onSaved }: { fullName: string; email: string; onSaved: (user: PublicUser) => void }) {
  const [name, setName] = useState(fullName);
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | null>(null);
  const update = useUpdateProfile();
  const { t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(null);
    const checked = checkFullName(name);
    if (!checked.ok) {
      setError(i18n._(checked.message));
      return;
    }
    setError(undefined);
    update.mutate(
      { fullName: checked.value },
      {
        onSuccess: (answer) => {
          onSaved(answer.data.user);
          setName(answer.data.user.fullName);
          setDone(answer.message);
        },
        onError: (failure) => {
          setError(errorText(failure));
        },
      },
    );
  };

  return (
    <AccountSection id="account-profile" title={t`Profile`}>
      <p className="account-section__text">
        <Trans>
          Signed in as <strong dir="auto">{email}</strong>.
        </Trans>
      </p>
      <form className="account-form" onSubmit={onSubmit} noValidate aria-label={t`Profile`}>
        <TextField label={t`Full name`} name="fullName" autoComplete="name" required value={name} error={error} onChange={(e) => { setName(e.target.value); }} />
        <AccountFormFooter submitLabel={t`Save name`} busy={update.isPending} done={done} />
      </form>
    </AccountSection>
  );
}
