import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { checkEmail, checkOtp, checkPassword } from '#shared/validation.ts';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useConfirmPasswordReset, useRequestPasswordReset } from '../api/reset-password.ts';
import './account.css';
import { i18n } from '@lingui/core';

interface Errors {
  email?: string;
  otp?: string;
  password?: string;
  confirm?: string;
}

/**
 * Two steps: the address (a code is mailed), then the code and a new password. Success signs
 * out every device and goes to the sign-in page with the address filled in.
 */
export function ResetPasswordForm() {
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [otp, setOtp] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const request = useRequestPasswordReset();
  const confirmReset = useConfirmPasswordReset();
  const navigate = useNavigate();
  const { notify } = useNotices();
  const otpRef = useRef<HTMLInputElement>(null);
  const { t } = useLingui();

  const failed = (failure: unknown) => {
    setFormError(errorText(failure));
  };

  const onRequest = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const checked = checkEmail(email);
    if (!checked.ok) {
      setErrors({ email: email.trim() === '' ? t`Enter your e-mail address.` : checked.message });
      return;
    }
    setErrors({});
    request.mutate(
      { email: checked.value },
      {
        onSuccess: (answer) => {
          setEmail(checked.value);
          // The server's sentence (already in the reader's language), then what to do next.
          const sent = answer.message;
          setInfo(t`${sent} Enter the 6-digit code from the mail and choose a new password.`);
          setStep('code');
          requestAnimationFrame(() => otpRef.current?.focus());
        },
        onError: failed,
      },
    );
  };

  const onConfirm = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const next: Errors = {};
    const code = checkOtp(otp);
    if (!code.ok) next.otp = i18n._(code.message);
    const checked = checkPassword(password, email);
    if (!checked.ok) next.password = i18n._(checked.message);
    else if (confirm !== password) next.confirm = i18n._(CLIENT_MESSAGES.passwordMismatch);
    setErrors(next);
    if (Object.keys(next).length > 0 || !code.ok) return;
    confirmReset.mutate(
      { email, otp: code.value, password },
      {
        onSuccess: (answer) => {
          notify('success', answer.message);
          void navigate('/login', { state: { email } });
        },
        onError: failed,
      },
    );
  };

  if (step === 'email') {
    return (
      <form className="account-form" onSubmit={onRequest} noValidate aria-label={t`Reset password: your e-mail`}>
        {formError !== null ? <Alert tone="error">{formError}</Alert> : null}
        <TextField label={t`E-mail`} type="email" name="email" autoComplete="email" inputMode="email" spellCheck={false} required value={email} error={errors.email} onChange={(e) => { setEmail(e.target.value); }} />
        <Button type="submit" variant="primary" size="lg" block busy={request.isPending}>
          <Trans>Send reset code</Trans>
        </Button>
      </form>
    );
  }

  return (
    <form className="account-form" onSubmit={onConfirm} noValidate aria-label={t`Reset password: code and new password`}>
      {info !== null ? <Alert tone="info">{info}</Alert> : null}
      {formError !== null ? <Alert tone="error">{formError}</Alert> : null}
      <TextField label={t`E-mail`} type="email" name="email" value={email} readOnly />
      <TextField ref={otpRef} label={t({ message: 'Code', comment: 'The one-time code from the password-reset mail' })} name="otp" inputMode="numeric" autoComplete="one-time-code" required value={otp} error={errors.otp} onChange={(e) => { setOtp(e.target.value); }} />
      <TextField label={t`New password`} type="password" name="password" autoComplete="new-password" hint={t`8 to 128 characters.`} required value={password} error={errors.password} onChange={(e) => { setPassword(e.target.value); }} />
      <TextField label={t`Confirm new password`} type="password" name="confirmPassword" autoComplete="new-password" required value={confirm} error={errors.confirm} onChange={(e) => { setConfirm(e.target.value); }} />
      <Button type="submit" variant="primary" size="lg" block busy={confirmReset.isPending}>
        <Trans>Set new password</Trans>
      </Button>
      <Button
        variant="ghost"
        onClick={() => {
          setStep('email');
          setInfo(null);
          setFormError(null);
          setOtp('');
        }}
      >
        <Trans>Use another address or send a new code</Trans>
      </Button>
    </form>
  );
}
