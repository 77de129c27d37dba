import { Link, useSearchParams } from 'react-router';
import { Alert } from '#web/components/alert.tsx';
import { useRegistration } from '#web/features/auth/api/registration.ts';
import { SignUpForm } from '#web/features/auth/components/sign-up-form.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';

export function SignUpPage() {
  useDocumentTitle('Sign up');
  // Mails to an address without an account link here with `?email=` (the address they went to).
  const [params] = useSearchParams();
  // Who may register, said before anyone types; the server refuses the first step all the same.
  const registration = useRegistration().data;
  const closed = registration?.mode === 'closed';
  return (
    <AuthLayout
      title="Create your account"
      providers="Sign up"
      subtitle="It takes a minute: confirm your e-mail with a one-time code, then choose a password."
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {registration?.message ? (
        <Alert tone="info" className="auth-card__policy">
          {closed ? `${registration.message} An administrator of this server can make you an account.` : registration.message}
        </Alert>
      ) : null}
      {closed ? null : <SignUpForm initialEmail={params.get('email') ?? ''} />}
    </AuthLayout>
  );
}
