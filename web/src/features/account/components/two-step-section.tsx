import { useState, type SubmitEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TwoStepSetupEnvelope } from '#shared/schemas/two-step.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { TextField } from '#web/components/field.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { twoStepKey, useConfirmTwoStep, useDisableTwoStep, useStartTwoStepSetup, useTwoStep } from '../api/two-step.ts';
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

/** Turning it off: the password and a code (or a recovery code). */
function DisableForm() {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const disable = useDisableTwoStep();
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = code.trim();
    const next: { password?: string; code?: string } = {};
    if (password === '') next.password = 'Enter your password.';
    if (entered === '') next.code = 'Enter a code from your app, or a recovery code.';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const proof = /^\d[\d\s]*$/.test(entered) ? { code: entered.replace(/\s+/g, '') } : { recoveryCode: entered };
    disable.mutate(
      { password, ...proof },
      {
        onError: (failure) => {
          if (isApiError(failure) && failure.errors.length > 0) setErrors(Object.fromEntries(failure.errors.map((f) => [f.field, f.message])));
          else setErrors({ code: errorText(failure, { retryHint: true }) });
        },
      },
    );
  };
  return (
    <form className="account-form" onSubmit={onSubmit} noValidate aria-label="Turn off two-step sign-in">
      <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} error={errors.password} onChange={(e) => { setPassword(e.target.value); }} />
      <TextField label="Code from the app, or a recovery code" name="code" autoComplete="one-time-code" required value={code} error={errors.code} onChange={(e) => { setCode(e.target.value); }} />
      <div className="account-form__actions">
        <Button type="submit" variant="danger" busy={disable.isPending}>
          Turn off
        </Button>
      </div>
    </form>
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
  const [codes, setCodes] = useState<string[] | null>(null);

  const body = () => {
    if (codes !== null) {
      return (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            start.reset();
            void client.invalidateQueries({ queryKey: twoStepKey });
            onTurnedOn?.();
          }}
        />
      );
    }
    if (status.data === undefined) return status.isError ? <Alert tone="error">{errorText(status.error)}</Alert> : null;
    if (status.data.enabled) {
      return (
        <>
          <p className="account-section__text">
            Two-step sign-in is on: signing in asks for a code from your authenticator app. Recovery codes left: {status.data.recoveryCodesLeft}.
          </p>
          <DisableForm />
        </>
      );
    }
    if (start.data !== undefined) return <SetupForm setup={start.data} onConfirmed={setCodes} />;
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
