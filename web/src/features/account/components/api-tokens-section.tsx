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
import { i18n } from '@lingui/core';

const ACCESS_LABELS: Record<TokenAccess, string> = { read: 'Read only', write: 'Read and write' };

/** The secret of the token just made: shown this once, with a Copy button. */
function NewTokenSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => {
        setCopied('Copied to the clipboard.');
      },
      () => {
        input.current?.select();
        setCopied('Could not copy: the token is selected, copy it with your keyboard.');
      },
    );
  };
  return (
    <div className="token-secret" role="group" aria-labelledby="token-secret-title">
      <h3 id="token-secret-title" className="token-secret__title">
        Your new token “{name}”
      </h3>
      <p id="token-secret-warning" className="account-section__text">
        <strong>Copy it now: you will not see it again.</strong> Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <div className="token-secret__row">
        <input
          ref={input}
          className="input token-secret__value"
          readOnly
          value={secret}
          aria-label={`New API token “${name}”`}
          aria-describedby="token-secret-warning"
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => {
            e.target.select();
          }}
        />
        <Button variant="primary" onClick={copy}>
          Copy
        </Button>
      </div>
      <p className="token-secret__copied" role="status">
        {copied}
      </p>
      <div className="account-form__actions">
        <Button onClick={onDone}>I have copied it</Button>
      </div>
    </div>
  );
}

function TokenRow({ token, now, onRevoke }: { token: ApiToken; now: Date; onRevoke: (token: ApiToken) => void }) {
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now.getTime();
  return (
    <li className="token-list__item">
      <div className="token-list__main">
        <span className="token-list__name">{token.name}</span>
        <span className="token-list__access">{ACCESS_LABELS[token.access]}</span>
      </div>
      <dl className="token-list__facts">
        <div>
          <dt>Created</dt>
          <dd>
            <When iso={token.createdAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>{expired ? 'Expired' : 'Expires'}</dt>
          <dd className={expired ? 'token-list__expired' : undefined}>{token.expiresAt === null ? 'Never' : <When iso={token.expiresAt} now={now} />}</dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{token.lastUsedAt === null ? 'Never' : <When iso={token.lastUsedAt} relative now={now} />}</dd>
        </div>
      </dl>
      <Button
        size="sm"
        variant="danger"
        aria-label={`Revoke “${token.name}”`}
        onClick={() => {
          onRevoke(token);
        }}
      >
        Revoke
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
    return revoke.mutateAsync(token._id).then(() => {
      notify('success', `The token “${token.name}” was revoked.`);
    });
  };

  const list = tokens.data?.data.tokens;
  return (
    <AccountSection id="account-tokens" title="API tokens">
      <p className="account-section__text">
        Let a script or another app use Taskwise as you. A token can do what you can (a read-only one only reads), but never manage tokens, your password,
        sessions or account. Signing out everywhere or changing your password revokes every token.
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
      <form className="account-form" onSubmit={onSubmit} noValidate aria-label="Create an API token">
        {formError !== null ? <Alert tone="error">{formError}</Alert> : null}
        <TextField
          label="Name"
          name="tokenName"
          hint={`What uses it, so you know which to revoke. Up to ${TOKEN_POLICY.nameMaxLength} characters.`}
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
            label="Access"
            name="tokenAccess"
            value={access}
            error={errors.access}
            onChange={(e) => {
              setAccess(e.target.value as TokenAccess);
            }}
          >
            <option value="read">{ACCESS_LABELS.read}</option>
            <option value="write">{ACCESS_LABELS.write}</option>
          </SelectField>
          <SelectField
            label="Expires"
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
                  Never
                </option>
              ) : (
                <option key={days} value={String(days)}>
                  In {days} days
                </option>
              ),
            )}
          </SelectField>
        </div>
        <div ref={createButton}>
          <AccountFormFooter submitLabel="Create token" busy={create.isPending} done={null} />
        </div>
      </form>
      <h3 className="token-list__title" id="account-tokens-list">
        Your tokens
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
        <p className="account-section__text">Loading your tokens…</p>
      ) : list.length === 0 ? (
        <p className="account-section__text">No tokens yet.</p>
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
        title={`Revoke “${revoking?.name ?? ''}”?`}
        body="Anything that uses this token stops working at once. This cannot be undone."
        confirmLabel="Revoke token"
        onConfirm={onConfirmRevoke}
      />
    </AccountSection>
  );
}
