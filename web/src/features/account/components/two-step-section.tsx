import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type SubmitEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TwoStepSetupEnvelope } from '#shared/schemas/two-step.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { TextField } from '#web/components/field.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { twoStepKey, useConfirmTwoStep, useDisableTwoStep, useRenewRecoveryCodes, useStartTwoStepSetup, useTwoStep } from '../api/two-step.ts';
import { AccountFormFooter, AccountSection } from './account-section.tsx';

/** The recovery codes just made: shown this once, with Copy and "I saved them". */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const { t } = useLingui();
  const copy = () => {
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => {
        setCopied(t`Copied to the clipboard.`);
      },
      () => {
        setCopied(t`Could not copy: select the codes and copy them with your keyboard.`);
      },
    );
  };
  return (
    <div className="token-secret" role="group" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="token-secret__title">
        <Trans>Your recovery codes</Trans>
      </h3>
      <p className="account-section__text">
        <Trans>
          <strong>Save them now: you will not see them again.</strong> Each one signs you in once if you lose your authenticator app.
        </Trans>
      </p>
      <ul className="recovery-codes" aria-label={t`Recovery codes`}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="account-form__actions">
        <Button variant="primary" onClick={copy}>
          <Trans comment="Button that copies the recovery codes to the clipboard">Copy</Trans>
        </Button>
        <Button onClick={onDone}>
          <Trans>I saved them</Trans>
        </Button>
      </div>
      <p className="token-secret__copied" role="status">
        {copied}
      </p>
    </div>
  );
}

/** The new secret as a QR code and as text, and the first code that turns it on. */
function SetupForm({ setup, onConfirmed }: { setup: TwoStepSetupEnvelope['data']; onConfirmed: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const confirm = useConfirmTwoStep();
  const { t } = useLingui();
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(entered)) {
      setError(t`Enter the 6-digit code your app shows.`);
      return;
    }
    setError(undefined);
    confirm.mutate(
      { code: entered },
      {
        onSuccess: onConfirmed,
        onError: (failure) => {
          setError(errorText(failure));
        },
      },
    );
  };
  const secret = setup.secret;
  const secretLabel = t`Secret key`;
  return (
    <form className="account-form" onSubmit={onSubmit} noValidate aria-label={t`Confirm two-step sign-in`}>
      <p className="account-section__text">
        <Trans>Scan this QR code with your authenticator app, or type the key into it. Then enter the code the app shows.</Trans>
      </p>
      <img className="two-step__qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} alt={t`QR code for your authenticator app`} width={200} height={200} />
      <p className="account-section__text">
        <Trans>
          Key: <code aria-label={secretLabel}>{secret}</code>
        </Trans>
      </p>
      <TextField label={t`Code from the app`} name="code" inputMode="numeric" autoComplete="one-time-code" required value={code} error={error} onChange={(e) => { setCode(e.target.value); }} />
      <AccountFormFooter submitLabel={t({ message: 'Turn on', comment: 'Button that turns two-step sign-in on' })} busy={confirm.isPending} done={null} />
    </form>
  );
}

interface Proof {
  password: string;
  code?: string;
  recoveryCode?: string;
}

/**
 * The password and a code from the app (or, where `recovery`, a recovery code): what turning the
 * second step off and making new recovery codes ask for. Field errors from the server land on
 * their fields; anything else under the code.
 */
function ProofForm({
  name,
  submitLabel,
  danger = false,
  recovery,
  busy,
  onProof,
}: {
  name: string;
  submitLabel: string;
  danger?: boolean;
  recovery: boolean;
  busy: boolean;
  onProof: (proof: Proof, onError: (failure: unknown) => void) => void;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const { t } = useLingui();
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = code.trim();
    const next: { password?: string; code?: string } = {};
    if (password === '') next.password = t`Enter your password.`;
    if (entered === '') next.code = recovery ? t`Enter a code from your app, or a recovery code.` : t`Enter the 6-digit code your app shows.`;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const digits = /^\d[\d\s]*$/.test(entered);
    onProof({ password, ...(digits || !recovery ? { code: entered.replace(/\s+/g, '') } : { recoveryCode: entered }) }, (failure) => {
      if (isApiError(failure) && failure.errors.length > 0) setErrors(Object.fromEntries(failure.errors.map((f) => [f.field === 'recoveryCode' ? 'code' : f.field, f.message])));
      else setErrors({ code: errorText(failure, { retryHint: true }) });
    });
  };
  return (
    <form className="account-form" onSubmit={onSubmit} noValidate aria-label={name}>
      <TextField label={t`Password`} type="password" name="password" autoComplete="current-password" required value={password} error={errors.password} onChange={(e) => { setPassword(e.target.value); }} />
      <TextField
        label={recovery ? t`Code from the app, or a recovery code` : t`Code from the app`}
        name="code"
        autoComplete="one-time-code"
        {...(recovery ? {} : { inputMode: 'numeric' as const })}
        required
        value={code}
        error={errors.code}
        onChange={(e) => { setCode(e.target.value); }}
      />
      <div className="account-form__actions">
        <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** On: how many recovery codes are left, new ones (they replace the old), or turn it off. */
function TwoStepOn({ left, onNewCodes }: { left: number; onNewCodes: (codes: string[]) => void }) {
  const disable = useDisableTwoStep();
  const renew = useRenewRecoveryCodes();
  const [renewing, setRenewing] = useState(false);
  const { t } = useLingui();
  const codesLeft = formatNumber(left);
  return (
    <>
      <p className="account-section__text">
        <Trans>Two-step sign-in is on: signing in asks for a code from your authenticator app. Recovery codes left: {codesLeft}.</Trans>
      </p>
      {renewing ? (
        <>
          <p className="account-section__text">
            <Trans>New recovery codes replace all the ones you have.</Trans>
          </p>
          <ProofForm
            name={t`Make new recovery codes`}
            submitLabel={t`Make new codes`}
            recovery={false}
            busy={renew.isPending}
            onProof={(proof, onError) => {
              renew.mutate({ password: proof.password, code: proof.code ?? '' }, { onSuccess: onNewCodes, onError });
            }}
          />
        </>
      ) : (
        <div className="account-form__actions">
          <Button
            onClick={() => {
              setRenewing(true);
            }}
          >
            <Trans>New recovery codes…</Trans>
          </Button>
        </div>
      )}
      <ProofForm
        name={t`Turn off two-step sign-in`}
        submitLabel={t({ message: 'Turn off', comment: 'Button that turns two-step sign-in off' })}
        danger
        recovery
        busy={disable.isPending}
        onProof={(proof, onError) => {
          disable.mutate(proof, { onError });
        }}
      />
    </>
  );
}

/**
 * Two-step sign-in: off (a button starts the set-up), being set up (QR code, key, first code),
 * just turned on (the recovery codes, once), or on (how many recovery codes are left; turn off).
 */
export function TwoStepSection({ onTurnedOn }: { onTurnedOn?: () => void } = {}) {
  const status = useTwoStep();
  const client = useQueryClient();
  const start = useStartTwoStepSetup();
  // The recovery codes to show once: those of the set-up just confirmed (`first`), or new ones.
  const [codes, setCodes] = useState<{ list: string[]; first: boolean } | null>(null);
  const { t } = useLingui();

  const body = () => {
    if (codes !== null) {
      return (
        <RecoveryCodes
          codes={codes.list}
          onDone={() => {
            setCodes(null);
            start.reset();
            void client.invalidateQueries({ queryKey: twoStepKey });
            if (codes.first) onTurnedOn?.();
          }}
        />
      );
    }
    if (status.data === undefined) return status.isError ? <Alert tone="error">{errorText(status.error)}</Alert> : null;
    if (status.data.enabled) {
      return <TwoStepOn left={status.data.recoveryCodesLeft} onNewCodes={(list) => { setCodes({ list, first: false }); }} />;
    }
    if (start.data !== undefined) return <SetupForm setup={start.data} onConfirmed={(list) => { setCodes({ list, first: true }); }} />;
    return (
      <>
        <p className="account-section__text">
          {status.data.required ? (
            <Trans>This server requires two-step sign-in. Protect your account with a code from an authenticator app at every sign-in.</Trans>
          ) : (
            <Trans>Protect your account with a code from an authenticator app at every sign-in.</Trans>
          )}
        </p>
        {start.isError ? <Alert tone="error">{errorText(start.error)}</Alert> : null}
        <div className="account-form__actions">
          <Button
            variant="primary"
            busy={start.isPending}
            onClick={() => {
              start.mutate();
            }}
          >
            <Trans>Set up two-step sign-in</Trans>
          </Button>
        </div>
      </>
    );
  };

  return (
    <AccountSection id="account-two-step" title={t`Two-step sign-in`}>
      {body()}
    </AccountSection>
  );
}
