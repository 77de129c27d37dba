import { Link, useSearchParams } from 'react-router';
import { SignUpForm } from '#web/features/auth/components/sign-up-form.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';

export function SignUpPage() {
  useDocumentTitle('Sign up');
  // Mails to an address without an account link here with `?email=` (the address they went to).
  const [params] = useSearchParams();
  return (
    <AuthLayout
      title="Create your account"
      subtitle="It takes a minute: confirm your e-mail with a one-time code, then choose a password."
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <SignUpForm initialEmail={params.get('email') ?? ''} />
    </AuthLayout>
  );
}
