import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { checkTokenName, TOKEN_EXPIRY_CHOICES, TOKEN_POLICY, type ApiToken, type TokenAccess } from '#shared/schemas/tokens.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { SelectField, TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useNow } from '#web/lib/use-now.ts';
import { useCreateToken } from '../api/create-token.ts';
import { useTokens } from '../api/get-tokens.ts';
import { useRevokeToken } from '../api/revoke-token.ts';
import { AccountFormFooter, AccountSection } from './account-section.tsx';
import { When } from './when.tsx';

const ACCESS_LABELS: Record<TokenAccess, MessageDescriptor> = { read: msg`Read only`, write: msg`Read and write` };

/** How a token is sent: typed as is, never translated. */
const AUTHORIZATION_HEADER = 'Authorization: Bearer <token>';

/** The secret of the token just made: shown this once, with a Copy button. */
function NewTokenSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const { t } = useLingui();
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => {
        setCopied(t`Copied to the clipboard.`);
      },
      () => {
        input.current?.select();
        setCopied(t`Could not copy: the token is selected, copy it with your keyboard.`);
      },
    );
  };
  return (
    <div className="token-secret" role="group" aria-labelledby="token-secret-title">
      <h3 id="token-secret-title" className="token-secret__title">
        <Trans>Your new token “{name}”</Trans>
      </h3>
      <p id="token-secret-warning" className="account-section__text">
        <Trans>
          <strong>Copy it now: you will not see it again.</strong> Send it as <code>{AUTHORIZATION_HEADER}</code>.
        </Trans>
      </p>
      <div className="token-secret__row">
        <input
          ref={input}
          className="input token-secret__value"
          readOnly
          value={secret}
          aria-label={t`New API token “${name}”`}
          aria-describedby="token-secret-warning"
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => {
            e.target.select();
          }}
        />
        <Button variant="primary" onClick={copy}>
          <Trans comment="Button that copies the new API token to the clipboard">Copy</Trans>
        </Button>
      </div>
      <p className="token-secret__copied" role="status">
        {copied}
      </p>
      <div className="account-form__actions">
        <Button onClick={onDone}>
          <Trans>I have copied it</Trans>
        </Button>
      </div>
    </div>
  );
}

function TokenRow({ token, now, onRevoke }: { token: ApiToken; now: Date; onRevoke: (token: ApiToken) => void }) {
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now.getTime();
  const { i18n, t } = useLingui();
  const name = token.name;
  const never = t({ message: 'Never', comment: 'An API token that never expires, or was never used' });
  return (
    <li className="token-list__item">
      <div className="token-list__main">
        <span className="token-list__name">{token.name}</span>
        <span className="token-list__access">{i18n._(ACCESS_LABELS[token.access])}</span>
      </div>
      <dl className="token-list__facts">
        <div>
          <dt>
            <Trans comment="When an API token was created">Created</Trans>
          </dt>
          <dd>
            <When iso={token.createdAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>{expired ? <Trans comment="When an API token expired">Expired</Trans> : <Trans comment="When an API token expires">Expires</Trans>}</dt>
          <dd className={expired ? 'token-list__expired' : undefined}>{token.expiresAt === null ? never : <When iso={token.expiresAt} now={now} />}</dd>
        </div>
        <div>
          <dt>
            <Trans>Last used</Trans>
          </dt>
          <dd>{token.lastUsedAt === null ? never : <When iso={token.lastUsedAt} relative now={now} />}</dd>
        </div>
      </dl>
      <Button
        size="sm"
        variant="danger"
        aria-label={t`Revoke “${name}”`}
        onClick={() => {
          onRevoke(token);
        }}
      >
        <Trans comment="Button that revokes an API token">Revoke</Trans>
      </Button>
    </li>
  );
}

interface Errors {
  name?: string;
  access?: string;
  expiresInDays?: string;
}

/**
 * Personal API tokens: create one (its secret shown once), the list with each one's last use,
 * and revoking one (asked first). What a token may do is the server's to decide.
 */
export function ApiTokensSection() {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const { notify } = useNotices();
  const now = useNow();
  const [name, setName] = useState('');
  const [access, setAccess] = useState<TokenAccess>('read');
  const [expiry, setExpiry] = useState('90');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const createButton = useRef<HTMLDivElement>(null);
  const { i18n, t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const checked = checkTokenName(name);
    setErrors(checked.ok ? {} : { name: i18n._(checked.message) });
    if (!checked.ok) return;
    create.mutate(
      { name: checked.value, access, ...(expiry === 'never' ? {} : { expiresInDays: Number(expiry) }) },
      {
        onSuccess: (answer) => {
          setName('');
          setCreated({ name: answer.data.token.name, secret: answer.data.secret });
        },
        onError: (failure) => {
          if (isApiError(failure) && failure.errors.length > 0) setErrors(Object.fromEntries(failure.errors.map((f) => [f.field, f.message])));
          else setFormError(errorText(failure));
        },
      },
    );
  };

  const onConfirmRevoke = () => {
    if (revoking === null) return;
    const token = revoking;
    const name = token.name;
    return revoke.mutateAsync(token._id).then(() => {
      notify('success', t`The token “${name}” was revoked.`);
    });
  };

  const list = tokens.data?.data.tokens;
  const nameMax = TOKEN_POLICY.nameMaxLength;
  const revokingName = revoking?.name ?? '';
  return (
    <AccountSection id="account-tokens" title={t`API tokens`}>
      <p className="account-section__text">
        <Trans>
          Let a script or another app use Taskwise as you. A token can do what you can (a read-only one only reads), but never manage tokens, your password,
          sessions or account. Signing out everywhere or changing your password revokes every token.
        </Trans>
      </p>
      {created !== null ? (
        <NewTokenSecret
          name={created.name}
          secret={created.secret}
          onDone={() => {
            setCreated(null);
            createButton.current?.querySelector('button')?.focus();
          }}
        />
      ) : null}
      <form className="account-form" onSubmit={onSubmit} noValidate aria-label={t`Create an API token`}>
        {formError !== null ? <Alert tone="error">{formError}</Alert> : null}
        <TextField
          label={t({ message: 'Name', comment: 'The name of an API token' })}
          name="tokenName"
          hint={t`What uses it, so you know which to revoke. ${plural(nameMax, { one: 'Up to # character.', other: 'Up to # characters.' })}`}
          autoComplete="off"
          required
          value={name}
          error={errors.name}
          onChange={(e) => {
            setName(e.target.value);
          }}
        />
        <div className="token-form__choices">
          <SelectField
            label={t({ message: 'Access', comment: 'What an API token may do: read only, or read and write' })}
            name="tokenAccess"
            value={access}
            error={errors.access}
            onChange={(e) => {
              setAccess(e.target.value as TokenAccess);
            }}
          >
            <option value="read">{i18n._(ACCESS_LABELS.read)}</option>
            <option value="write">{i18n._(ACCESS_LABELS.write)}</option>
          </SelectField>
          <SelectField
            label={t({ message: 'Expires', comment: 'When an API token expires' })}
            name="tokenExpiry"
            value={expiry}
            error={errors.expiresInDays}
            onChange={(e) => {
              setExpiry(e.target.value);
            }}
          >
            {TOKEN_EXPIRY_CHOICES.map((days) =>
              days === null ? (
                <option key="never" value="never">
                  {t({ message: 'Never', comment: 'An API token that never expires, or was never used' })}
                </option>
              ) : (
                <option key={days} value={String(days)}>
                  {t`${plural(days, { one: 'In # day', other: 'In # days' })}`}
                </option>
              ),
            )}
          </SelectField>
        </div>
        <div ref={createButton}>
          <AccountFormFooter submitLabel={t`Create token`} busy={create.isPending} done={null} />
        </div>
      </form>
      <h3 className="token-list__title" id="account-tokens-list">
        <Trans>Your tokens</Trans>
      </h3>
      {tokens.isError ? (
        <RetryAlert
          onRetry={() => {
            void tokens.refetch();
          }}
        >
          {errorText(tokens.error)}
        </RetryAlert>
      ) : list === undefined ? (
        <p className="account-section__text">
          <Trans>Loading your tokens…</Trans>
        </p>
      ) : list.length === 0 ? (
        <p className="account-section__text">
          <Trans>No tokens yet.</Trans>
        </p>
      ) : (
        <ul className="token-list" aria-labelledby="account-tokens-list">
          {list.map((token) => (
            <TokenRow key={token._id} token={token} now={now} onRevoke={setRevoking} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => {
          setRevoking(null);
        }}
        title={t`Revoke “${revokingName}”?`}
        body={t`Anything that uses this token stops working at once. This cannot be undone.`}
        confirmLabel={t`Revoke token`}
        onConfirm={onConfirmRevoke}
      />
    </AccountSection>
  );
}
