import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useLocation, useSearchParams } from 'react-router';
import { LoginForm } from '#web/features/auth/components/login-form.tsx';
import { RETURN_PARAM } from '#web/lib/return-path.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthLayout } from './auth-layout.tsx';

function emailFromState(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'email' in state && typeof state.email === 'string') return state.email;
  return '';
}

export function LoginPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Sign in`);
  const location = useLocation();
  const [params] = useSearchParams();
  const returning = params.has(RETURN_PARAM);
  return (
    <AuthLayout
      title={t`Sign in`}
      providers
      subtitle={returning ? t`Sign in to continue where you left off.` : t`Welcome back. Sign in to see your board.`}
      footer={
        <Trans>
          New to Taskwise? <Link to="/sign-up">Create an account</Link>
        </Trans>
      }
    >
      <LoginForm initialEmail={emailFromState(location.state)} />
      <p className="auth-card__footer">
        <Link to="/reset-password">
          <Trans>Forgot password?</Trans>
        </Link>
      </p>
    </AuthLayout>
  );
}
