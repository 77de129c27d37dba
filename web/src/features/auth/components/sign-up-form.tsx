import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS, OTP_POLICY } from '#shared/constants.ts';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { checkEmail, checkFullName, checkOtp, checkPassword } from '#shared/validation.ts';
import { Button } from '#web/components/button.tsx';
import { FormAlert } from '#web/components/form-alert.tsx';
import { EmailField, TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { formatCountdown, useCooldown } from '#web/lib/use-cooldown.ts';
import { useRegister } from '../api/register.ts';
import { useRequestOtp } from '../api/request-otp.ts';
import './auth.css';
import { i18n } from '@lingui/core';

type Step = 'details' | 'verify';

interface FieldErrors {
  fullName?: string;
  email?: string;
  otp?: string;
  password?: string;
  confirm?: string;
}

const DEFAULT_COOLDOWN_S = OTP_POLICY.resendCooldownMs / 1000;

/** The OTP failure texts users know: "Error: " + the server's message, or the network text. */
function otpErrorText(error: unknown): string {
  if (!isApiError(error) || error.isNetworkError) return i18n._(CLIENT_MESSAGES.otpNetworkFailure);
  return `${i18n._(CLIENT_MESSAGES.otpErrorPrefix)}${error.message}`;
}

/**
 * Two-step registration: details → one-time code and password. The code request is rate
 * limited by the server; its `Retry-After` (or the known 60 s policy after a send) drives a
 * visible countdown on "Resend code".
 */
export function SignUpForm({ initialEmail = '' }: { initialEmail?: string }) {
  const [step, setStep] = useState<Step>('details');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState(initialEmail);
  const [otp, setOtp] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [cooldownEmail, setCooldownEmail] = useState<string | null>(null);
  const cooldown = useCooldown();
  const requestOtpMutation = useRequestOtp();
  const registerMutation = useRegister();
  const navigate = useNavigate();
  const { notify } = useNotices();
  const { t } = useLingui();

  const fullNameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const otpRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const stepChanged = useRef(false);

  const normalizedEmail = email.trim().toLowerCase();
  const coolingDown = cooldown.secondsLeft > 0 && cooldownEmail === normalizedEmail;

  useEffect(() => {
    if (!stepChanged.current) return;
    if (step === 'verify') otpRef.current?.focus();
    else emailRef.current?.focus();
  }, [step]);

  const showError = (text: string) => {
    setFormError(text);
    requestAnimationFrame(() => alertRef.current?.focus());
  };

  const startCooldown = (forEmail: string, seconds: number) => {
    setCooldownEmail(forEmail);
    cooldown.start(seconds);
  };

  const sendCode = (forEmail: string, onSent: (message: string) => void) => {
    setFormError(null);
    setInfo(null);
    requestOtpMutation.mutate(
      { email: forEmail },
      {
        onSuccess: (answer) => {
          startCooldown(forEmail, DEFAULT_COOLDOWN_S);
          onSent(answer.message);
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 429) startCooldown(forEmail, error.retryAfter ?? DEFAULT_COOLDOWN_S);
          showError(otpErrorText(error));
        },
      },
    );
  };

  const onSubmitDetails = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = checkFullName(fullName);
    const mail = checkEmail(email);
    const errors: FieldErrors = {};
    if (!name.ok) errors.fullName = i18n._(name.message);
    if (!mail.ok) errors.email = email.trim() === '' ? t`Enter your e-mail address.` : mail.message;
    setFieldErrors(errors);
    if (!name.ok || !mail.ok) {
      (errors.fullName ? fullNameRef : emailRef).current?.focus();
      return;
    }
    if (coolingDown) return;
    sendCode(mail.value, (message) => {
      setEmail(mail.value);
      setFullName(name.value);
      setInfo(message);
      stepChanged.current = true;
      setStep('verify');
    });
  };

  const onResend = () => {
    if (coolingDown) return;
    sendCode(normalizedEmail, (message) => {
      setInfo(message);
    });
  };

  const onChangeEmail = () => {
    setOtp('');
    setPassword('');
    setConfirm('');
    setFieldErrors({});
    setFormError(null);
    setInfo(null);
    stepChanged.current = true;
    setStep('details');
  };

  const onSubmitVerify = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    if (password !== confirm) {
      setFieldErrors({});
      showError(i18n._(CLIENT_MESSAGES.passwordMismatch));
      return;
    }
    const code = checkOtp(otp);
    const pass = checkPassword(password, email);
    const errors: FieldErrors = {};
    if (!code.ok) errors.otp = otp.trim() === '' ? t`Enter the code from the e-mail.` : i18n._(code.message);
    if (!pass.ok) errors.password = i18n._(pass.message);
    setFieldErrors(errors);
    if (!code.ok || !pass.ok) {
      (errors.otp ? otpRef : passwordRef).current?.focus();
      return;
    }
    registerMutation.mutate(
      { email: normalizedEmail, fullName: fullName.trim(), otp: code.value, password },
      {
        onSuccess: () => {
          notify('success', i18n._(CLIENT_MESSAGES.accountCreated));
          void navigate('/login', { state: { email: normalizedEmail } });
        },
        onError: (error) => {
          showError(errorText(error));
        },
      },
    );
  };

  const wait = formatCountdown(cooldown.secondsLeft);
  const digits = formatNumber(LIMITS.otpLength);
  const minutes = OTP_POLICY.ttlMs / 60_000;
  const minLength = LIMITS.passwordMin;
  const alert = <FormAlert error={formError} errorRef={alertRef} note={{ tone: 'info', text: info }} className="auth-form__alert" />;

  if (step === 'details') {
    return (
      <form className="auth-form" onSubmit={onSubmitDetails} noValidate aria-label={t`Sign up: your details`}>
        <p className="auth-form__step">
          <Trans>Step 1 of 2 · Your details</Trans>
        </p>
        {alert}
        <TextField
          ref={fullNameRef}
          label={t`Full name`}
          name="fullName"
          autoComplete="name"
          required
          maxLength={LIMITS.fullNameMax}
          value={fullName}
          error={fieldErrors.fullName}
          onChange={(event) => {
            setFullName(event.target.value);
          }}
        />
        <EmailField
          ref={emailRef}
          label={t`E-mail`}
          name="email"
          autoComplete="email"
          required
          maxLength={LIMITS.emailMax}
          value={email}
          error={fieldErrors.email}
          hint={t`We'll send a 6-digit code to this address.`}
          onChange={(event) => {
            setEmail(event.target.value);
          }}
        />
        <Button type="submit" variant="primary" size="lg" block busy={requestOtpMutation.isPending} disabled={coolingDown}>
          {requestOtpMutation.isPending ? <Trans>Sending code…</Trans> : <Trans>Send OTP</Trans>}
        </Button>
        {coolingDown ? (
          <p className="auth-form__cooldown">
            <Trans comment="wait: minutes and seconds, e.g. 0:42">You can request a new code in {wait}.</Trans>
          </p>
        ) : null}
      </form>
    );
  }

  return (
    <form className="auth-form" onSubmit={onSubmitVerify} noValidate aria-label={t`Sign up: verify your e-mail`}>
      <p className="auth-form__step">
        <Trans>Step 2 of 2 · Verify your e-mail</Trans>
      </p>
      {alert}
      <div className="auth-form__identity">
        <TextField label={t`E-mail`} type="email" name="email" value={email} readOnly autoComplete="email" />
        <Button variant="ghost" size="sm" className="auth-form__change" onClick={onChangeEmail}>
          <Trans>Change e-mail</Trans>
        </Button>
      </div>
      <TextField label={t`Full name`} name="fullName" value={fullName} readOnly autoComplete="name" />
      <TextField
        ref={otpRef}
        label={t`One-time code`}
        name="otp"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={LIMITS.otpLength}
        required
        className="input--code"
        value={otp}
        error={fieldErrors.otp}
        hint={t({
          message: `The ${digits}-digit code we sent to ${email}. It is valid for ${plural(minutes, { one: '# minute', other: '# minutes' })}.`,
          comment: 'digits: how long the code is (6); email: the address it went to',
        })}
        onChange={(event) => {
          setOtp(event.target.value.replace(/\D/g, '').slice(0, LIMITS.otpLength));
        }}
      />
      <div className="auth-form__resend">
        <Button variant="ghost" size="sm" onClick={onResend} disabled={coolingDown} busy={requestOtpMutation.isPending}>
          <Trans>Resend code</Trans>
        </Button>
        {coolingDown ? (
          <span className="auth-form__cooldown">
            <Trans comment="When a new code can be asked for; wait: minutes and seconds, e.g. 0:42">Available in {wait}</Trans>
          </span>
        ) : null}
      </div>
      <TextField
        ref={passwordRef}
        label={t`Password`}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        minLength={LIMITS.passwordMin}
        maxLength={LIMITS.passwordMax}
        value={password}
        error={fieldErrors.password}
        hint={t`${plural(minLength, { one: 'At least # character.', other: 'At least # characters.' })} A long phrase is easier to remember than symbols.`}
        onChange={(event) => {
          setPassword(event.target.value);
        }}
      />
      <TextField
        label={t`Confirm password`}
        type="password"
        name="confirmPassword"
        autoComplete="new-password"
        required
        value={confirm}
        error={fieldErrors.confirm}
        onChange={(event) => {
          setConfirm(event.target.value);
        }}
      />
      <Button type="submit" variant="primary" size="lg" block busy={registerMutation.isPending}>
        {registerMutation.isPending ? <Trans>Creating account…</Trans> : <Trans>Create Account</Trans>}
      </Button>
    </form>
  );
}
