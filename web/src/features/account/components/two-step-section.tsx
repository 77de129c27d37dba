import { useState, type SubmitEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TwoStepSetupEnvelope } from '#shared/schemas/two-step.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { TextField } from '#web/components/field.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { twoStepKey, useConfirmTwoStep, useDisableTwoStep, useRenewRecoveryCodes, useStartTwoStepSetup, useTwoStep } from '../api/two-step.ts';
import { AccountFormFooter, AccountSection } from './account-section.tsx';

/** The recovery codes just made: shown this once, with Copy and "I saved them". */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => {
        setCopied('Copied to the clipboard.');
      },
      () => {
        setCopied('Could not copy: select the codes and copy them with your keyboard.');
      },
    );
  };
  return (
    <div className="token-secret" role="group" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="token-secret__title">
        Your recovery codes
      </h3>
      <p className="account-section__text">
        <strong>Save them now: you will not see them again.</strong> Each one signs you in once if you lose your authenticator app.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="account-form__actions">
        <Button variant="primary" onClick={copy}>
          Copy
        </Button>
        <Button onClick={onDone}>I saved them</Button>
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
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(entered)) {
      setError('Enter the 6-digit code your app shows.');
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
  return (
    <form className="account-form" onSubmit={onSubmit} noValidate aria-label="Confirm two-step sign-in">
      <p className="account-section__text">Scan this QR code with your authenticator app, or type the key into it. Then enter the code the app shows.</p>
      <img className="two-step__qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} alt="QR code for your authenticator app" width={200} height={200} />
      <p className="account-section__text">
        Key: <code aria-label="Secret key">{setup.secret}</code>
      </p>
      <TextField label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required value={code} error={error} onChange={(e) => { setCode(e.target.value); }} />
      <AccountFormFooter submitLabel="Turn on" busy={confirm.isPending} done={null} />
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
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = code.trim();
    const next: { password?: string; code?: string } = {};
    if (password === '') next.password = 'Enter your password.';
    if (entered === '') next.code = recovery ? 'Enter a code from your app, or a recovery code.' : 'Enter the 6-digit code your app shows.';
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
      <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} error={errors.password} onChange={(e) => { setPassword(e.target.value); }} />
      <TextField
        label={recovery ? 'Code from the app, or a recovery code' : 'Code from the app'}
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
  return (
    <>
      <p className="account-section__text">
        Two-step sign-in is on: signing in asks for a code from your authenticator app. Recovery codes left: {left}.
      </p>
      {renewing ? (
        <>
          <p className="account-section__text">New recovery codes replace all the ones you have.</p>
          <ProofForm
            name="Make new recovery codes"
            submitLabel="Make new codes"
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
            New recovery codes…
          </Button>
        </div>
      )}
      <ProofForm
        name="Turn off two-step sign-in"
        submitLabel="Turn off"
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
          {status.data.required ? 'This server requires two-step sign-in. ' : ''}
          Protect your account with a code from an authenticator app at every sign-in.
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
            Set up two-step sign-in
          </Button>
        </div>
      </>
    );
  };

  return (
    <AccountSection id="account-two-step" title="Two-step sign-in">
      {body()}
    </AccountSection>
  );
}
