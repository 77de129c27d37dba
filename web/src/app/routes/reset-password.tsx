import { Link } from 'react-router';
import { ResetPasswordForm } from '#web/features/account/components/reset-password-form.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';

export function ResetPasswordPage() {
  useDocumentTitle('Reset password');
  return (
    <AuthLayout
      title="Reset your password"
      subtitle="We mail a 6-digit code to your address; with it you choose a new password."
      footer={
        <>
          Remembered it? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <ResetPasswordForm />
    </AuthLayout>
  );
}
