import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { ResetPasswordForm } from '#web/features/account/components/reset-password-form.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';

export function ResetPasswordPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Reset password`);
  return (
    <AuthLayout
      title={t`Reset your password`}
      subtitle={t`We mail a 6-digit code to your address; with it you choose a new password.`}
      footer={
        <Trans>
          Remembered it? <Link to="/login">Sign in</Link>
        </Trans>
      }
    >
      <ResetPasswordForm />
    </AuthLayout>
  );
}
