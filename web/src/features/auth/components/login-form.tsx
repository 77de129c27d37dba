import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, useRef, useState, type SubmitEvent } from 'react';
import { checkEmail } from '#shared/validation.ts';
import { Button } from '#web/components/button.tsx';
import { FormAlert } from '#web/components/form-alert.tsx';
import { EmailField, TextField } from '#web/components/field.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useLogin } from '../api/login.ts';
import { lazyComponent } from '#web/lib/lazy-component.tsx';
import { useSession } from './session-provider.tsx';
import './auth.css';

/** Only accounts with two-step sign-in need it: a chunk of its own keeps /login light. */
const SecondStepForm = lazyComponent(() => import('./second-step-form.tsx').then((m) => m.SecondStepForm));

interface FieldErrors {
  email?: string;
  password?: string;
}

/**
 * Sign-in form. Success signs the session in; the guest-only route around this form then
 * sends the user on (to the page they came for, or home).
 */
export function LoginForm({ initialEmail = '' }: { initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  /** Set once the password was right for an account with two-step sign-in. */
  // A provider sign-in of an account with two-step sign-in comes back as /login#second-step=TOKEN
  // (a fragment: never sent to a server, never in a log).
  const [secondStepToken, setSecondStepToken] = useState<string | null>(() => /^#second-step=([\w-]{43})$/.exec(location.hash)?.[1] ?? null);
  const errorRef = useRef<HTMLDivElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const { signIn, expectSignIn } = useSession();
  const loginMutation = useLogin();
  const { t } = useLingui();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checkedEmail = checkEmail(email);
    const errors: FieldErrors = {};
    if (email.trim() === '') errors.email = t`Enter your e-mail address.`;
    else if (!checkedEmail.ok) errors.email = checkedEmail.message;
    if (password === '') errors.password = t`Enter your password.`;
    setFieldErrors(errors);
    setFormError(null);
    if (errors.email) {
      emailRef.current?.focus();
      return;
    }
    if (errors.password || !checkedEmail.ok) {
      passwordRef.current?.focus();
      return;
    }

    expectSignIn();
    loginMutation.mutate(
      { email: checkedEmail.value, password },
      {
        onSuccess: (result) => {
          if ('secondStep' in result) {
            setPassword('');
            setSecondStepToken(result.secondStep.token);
          } else signIn(result.user);
        },
        onError: (error) => {
          setFormError(errorText(error));
          requestAnimationFrame(() => errorRef.current?.focus());
        },
      },
    );
  };

  if (secondStepToken !== null) {
    return (
      <Suspense fallback={null}>
        <SecondStepForm
          token={secondStepToken}
          onSignedIn={signIn}
          onRestart={() => {
            setSecondStepToken(null);
          }}
        />
      </Suspense>
    );
  }

  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-label={t`Sign in`}>
      <FormAlert error={formError} errorRef={errorRef} className="auth-form__alert" />
      <EmailField
        ref={emailRef}
        label={t`E-mail`}
        name="email"
        autoComplete="email"
        required
        value={email}
        error={fieldErrors.email}
        onChange={(event) => {
          setEmail(event.target.value);
        }}
      />
      <TextField
        ref={passwordRef}
        label={t`Password`}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        error={fieldErrors.password}
        onChange={(event) => {
          setPassword(event.target.value);
        }}
      />
      <Button type="submit" variant="primary" size="lg" block busy={loginMutation.isPending}>
        {loginMutation.isPending ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
      </Button>
      {/* The WebAuthn library comes with the click, in a chunk of its own: /login's script has a budget. */}
      <Button type="button" size="lg" block onClick={() => void import('../api/passkey-sign-in.ts').then((m) => m.signInWithPasskey(signIn, setFormError))}>
        <Trans>Sign in with a passkey</Trans>
      </Button>
    </form>
  );
}
