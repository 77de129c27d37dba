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
  useDocumentTitle('Sign in');
  const location = useLocation();
  const [params] = useSearchParams();
  const returning = params.has(RETURN_PARAM);
  return (
    <AuthLayout
      title="Sign in"
      providers="Sign in"
      subtitle={returning ? 'Sign in to continue where you left off.' : 'Welcome back. Sign in to see your board.'}
      footer={
        <>
          New to Taskwise? <Link to="/sign-up">Create an account</Link>
        </>
      }
    >
      <LoginForm initialEmail={emailFromState(location.state)} />
      <p className="auth-card__footer">
        <Link to="/reset-password">Forgot password?</Link>
      </p>
    </AuthLayout>
  );
}
