import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '#web/components/alert.tsx';
import { useRegistration } from '#web/features/auth/api/registration.ts';
import { SignUpForm } from '#web/features/auth/components/sign-up-form.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';

export function SignUpPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Sign up`);
  // Mails to an address without an account link here with `?email=` (the address they went to).
  const [params] = useSearchParams();
  // Who may register, said before anyone types; the server refuses the first step all the same.
  const registration = useRegistration().data;
  const closed = registration?.mode === 'closed';
  const policy = registration?.message;
  return (
    <AuthLayout
      title={t`Create your account`}
      providers
      subtitle={t`It takes a minute: confirm your e-mail with a one-time code, then choose a password.`}
      footer={
        <Trans>
          Already have an account? <Link to="/login">Sign in</Link>
        </Trans>
      }
    >
      {policy ? (
        <Alert tone="info" className="auth-card__policy">
          {closed ? (
            <Trans comment="policy: the server’s words on who may register">{policy} An administrator of this server can make you an account.</Trans>
          ) : (
            policy
          )}
        </Alert>
      ) : null}
      {closed ? null : <SignUpForm initialEmail={params.get('email') ?? ''} />}
    </AuthLayout>
  );
}
