import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type SubmitEvent } from 'react';
import { PASSKEY_POLICY } from '#shared/passkeys.ts';
import type { Passkey } from '#shared/schemas/passkeys.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { defaultPasskeyName, passkeyErrorText } from '#web/lib/passkey-browser.ts';
import { useNow } from '#web/lib/use-now.ts';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys.ts';
import { AccountFormFooter, AccountSection } from './account-section.tsx';
import { When } from './when.tsx';

function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone: () => void }) {
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>(undefined);
  const rename = useRenamePasskey();
  const { t } = useLingui();
  const passkeyName = passkey.name;
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    rename.mutate(
      { id: passkey.id, name },
      {
        onSuccess: onDone,
        onError: (failure) => {
          setError(errorText(failure, { firstField: true }));
        },
      },
    );
  };
  return (
    <form className="account-form" onSubmit={onSubmit} noValidate aria-label={t`Rename “${passkeyName}”`}>
      <TextField
        label={t`New name`}
        name="passkeyNewName"
        autoComplete="off"
        required
        value={name}
        error={error}
        onChange={(e) => {
          setName(e.target.value);
        }}
      />
      <div className="account-form__actions">
        <Button type="submit" variant="primary" size="sm" busy={rename.isPending}>
          <Trans comment="Button that saves a passkey's new name">Save</Trans>
        </Button>
        <Button size="sm" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

function PasskeyRow({ passkey, now, onRemove }: { passkey: Passkey; now: Date; onRemove: (passkey: Passkey) => void }) {
  const [renaming, setRenaming] = useState(false);
  const { t } = useLingui();
  const passkeyName = passkey.name;
  return (
    <li className="token-list__item">
      <div className="token-list__main">
        <span className="token-list__name">{passkey.name}</span>
        {passkey.backedUp ? <span className="token-list__access">
            <Trans comment="A passkey that the device's password manager keeps in sync across devices">Synced</Trans>
          </span> : null}
      </div>
      <dl className="token-list__facts">
        <div>
          <dt>
            <Trans comment="When a passkey was added">Added</Trans>
          </dt>
          <dd>
            <When iso={passkey.createdAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Last used</Trans>
          </dt>
          <dd>{passkey.lastUsedAt === null ? t({ message: 'Never', comment: 'A passkey that was never used' }) : <When iso={passkey.lastUsedAt} relative now={now} />}</dd>
        </div>
      </dl>
      {renaming ? (
        <RenameForm
          passkey={passkey}
          onDone={() => {
            setRenaming(false);
          }}
        />
      ) : (
        <div className="account-form__actions">
          <Button
            size="sm"
            aria-label={t`Rename “${passkeyName}”`}
            onClick={() => {
              setRenaming(true);
            }}
          >
            <Trans comment="Button that renames a passkey">Rename</Trans>
          </Button>
          <Button
            size="sm"
            variant="danger"
            aria-label={t`Remove “${passkeyName}”`}
            onClick={() => {
              onRemove(passkey);
            }}
          >
            <Trans comment="Button that removes a passkey">Remove</Trans>
          </Button>
        </div>
      )}
    </li>
  );
}

/**
 * Passkeys: add one (named; the browser and system when no name is typed), the list with when
 * each was added and last used, rename, remove (asked first; the server refuses the last way to
 * sign in). `onAdded`: the REQUIRE_2FA set-up gate lets the pages load again.
 */
export function PasskeysSection({ onAdded }: { onAdded?: () => void }) {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const { notify } = useNotices();
  const now = useNow();
  const [name, setName] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const { t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    setDone(null);
    add.mutate(name.trim() === '' ? defaultPasskeyName() : name, {
      onSuccess: (answer) => {
        setName('');
        setDone(answer.message);
        onAdded?.();
      },
      onError: (failure) => {
        setFormError(passkeyErrorText(failure, t`No passkey was added: it was cancelled, or the device did not answer.`));
      },
    });
  };

  const onConfirmRemove = () => {
    if (removing === null) return;
    const passkey = removing;
    const name = passkey.name;
    return remove.mutateAsync(passkey.id).then(() => {
      notify('success', t`The passkey “${name}” was removed.`);
    });
  };

  const list = passkeys.data;
  const nameMax = PASSKEY_POLICY.nameMaxLength;
  const removingName = removing?.name ?? '';
  return (
    <AccountSection id="account-passkeys" title={t`Passkeys`}>
      <p className="account-section__text">
        <Trans>A passkey signs you in with your device’s screen lock or security key, without your e-mail or password, and needs no code from an app.</Trans>
      </p>
      <form className="account-form" onSubmit={onSubmit} noValidate aria-label={t`Add a passkey`}>
        {formError !== null ? <Alert tone="error">{formError}</Alert> : null}
        <TextField
          label={t`Passkey name`}
          name="passkeyName"
          hint={t`Where it is kept, so you know which to remove. ${plural(nameMax, { one: 'Up to # character', other: 'Up to # characters' })}; left empty, the browser and system.`}
          autoComplete="off"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
          }}
        />
        <AccountFormFooter submitLabel={t`Add a passkey`} busy={add.isPending} done={done} />
      </form>
      <h3 className="token-list__title" id="account-passkeys-list">
        <Trans>Your passkeys</Trans>
      </h3>
      {passkeys.isError ? (
        <RetryAlert
          onRetry={() => {
            void passkeys.refetch();
          }}
        >
          {errorText(passkeys.error)}
        </RetryAlert>
      ) : list === undefined ? (
        <p className="account-section__text">
          <Trans>Loading your passkeys…</Trans>
        </p>
      ) : list.length === 0 ? (
        <p className="account-section__text">
          <Trans>No passkeys yet.</Trans>
        </p>
      ) : (
        <ul className="token-list" aria-labelledby="account-passkeys-list">
          {list.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} now={now} onRemove={setRemoving} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        onClose={() => {
          setRemoving(null);
        }}
        title={t`Remove “${removingName}”?`}
        body={t`It will no longer sign you in. Remove it from the device too, in its passkey settings.`}
        confirmLabel={t`Remove passkey`}
        onConfirm={onConfirmRemove}
      />
    </AccountSection>
  );
}
