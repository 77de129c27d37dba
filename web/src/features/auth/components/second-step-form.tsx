import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type SubmitEvent } from 'react';
import type { PublicUser } from '#shared/schemas/users.ts';
import { Button } from '#web/components/button.tsx';
import { FormAlert } from '#web/components/form-alert.tsx';
import { TextField } from '#web/components/field.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useLoginSecondStep } from '../api/login-second-step.ts';

/**
 * The second step of a sign-in: the code the authenticator app shows, or (switched to) one of
 * the recovery codes. A token that had too many wrong codes or expired is refused like a wrong
 * code; "Start over" goes back to the password.
 */
export function SecondStepForm({ token, onSignedIn, onRestart }: { token: string; onSignedIn: (user: PublicUser) => void; onRestart: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const mutation = useLoginSecondStep();
  const { t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = value.replace(/\s+/g, '');
    setFormError(null);
    if (!recovery && !/^\d{6}$/.test(entered)) {
      setFieldError(t`Enter the 6-digit code from your authenticator app.`);
      inputRef.current?.focus();
      return;
    }
    if (recovery && entered === '') {
      setFieldError(t`Enter one of your recovery codes.`);
      inputRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    mutation.mutate(recovery ? { token, recoveryCode: entered } : { token, code: entered }, {
      onSuccess: onSignedIn,
      onError: (error) => {
        setFormError(errorText(error, { retryHint: true }));
        setValue('');
        requestAnimationFrame(() => errorRef.current?.focus());
      },
    });
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-label={t`Two-step sign-in`}>
      <FormAlert error={formError} errorRef={errorRef} className="auth-form__alert" />
      <TextField
        ref={inputRef}
        key={recovery ? 'recovery' : 'code'}
        label={recovery ? t`Recovery code` : t`Code from your authenticator app`}
        name={recovery ? 'recoveryCode' : 'code'}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        inputMode={recovery ? 'text' : 'numeric'}
        spellCheck={false}
        autoFocus
        required
        value={value}
        error={fieldError}
        onChange={(event) => {
          setValue(event.target.value);
        }}
      />
      <Button type="submit" variant="primary" size="lg" block busy={mutation.isPending}>
        {mutation.isPending ? <Trans>Checking…</Trans> : <Trans>Verify</Trans>}
      </Button>
      <Button
        type="button"
        variant="ghost"
        block
        onClick={() => {
          setRecovery(!recovery);
          setValue('');
          setFieldError(undefined);
        }}
      >
        {recovery ? <Trans>Use a code from the app</Trans> : <Trans>Use a recovery code</Trans>}
      </Button>
      <Button type="button" variant="ghost" block onClick={onRestart}>
        <Trans>Start over</Trans>
      </Button>
    </form>
  );
}
