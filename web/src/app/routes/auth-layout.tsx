import type { ReactNode } from 'react';
import { PageHeading } from '#web/components/page-heading.tsx';
// Imported here only, so it travels in this page shell's chunk (no chunk of its own for /login).
import { ProviderLinks } from '#web/features/auth/components/provider-links.tsx';
import './auth-layout.css';

/**
 * Shell of the sign-in and sign-up pages: the form card, and a product showcase on wide screens.
 * `providers`: the verb of the server's sign-in provider links under the form ("Sign in with …").
 */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
  providers,
}: {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  providers?: 'Sign in' | 'Sign up';
}) {
  return (
    <div className="auth-page">
      <div className="auth-page__main">
        <div className="auth-card">
          <PageHeading className="auth-card__title">{title}</PageHeading>
          <p className="auth-card__subtitle">{subtitle}</p>
          {children}
          {providers === undefined ? null : <ProviderLinks verb={providers} />}
          <p className="auth-card__footer">{footer}</p>
        </div>
      </div>
      <aside className="auth-page__aside" aria-label="About Taskwise">
        <div className="auth-aside">
          <p className="auth-aside__eyebrow">Self-hosted task board</p>
          <p className="auth-aside__headline">Assign it by e-mail. Watch it move to done.</p>
          <ul className="auth-aside__points">
            <li>Your own columns, from to do to done</li>
            <li>Deadlines in everyone’s own time zone</li>
            <li>Priorities you can read at a glance</li>
          </ul>
          <div className="auth-aside__mock" aria-hidden="true">
            <div className="mock-card">
              <span className="mock-card__badge mock-card__badge--urgent">Urgent</span>
              <span className="mock-card__title">Renew the TLS certificate</span>
              <span className="mock-card__meta">ops@acme.io · due in 2 hours</span>
            </div>
            <div className="mock-card mock-card--offset">
              <span className="mock-card__badge mock-card__badge--normal">Normal</span>
              <span className="mock-card__title">Draft the Q3 roadmap</span>
              <span className="mock-card__meta">lena@acme.io · due Fri</span>
            </div>
          </div>
        </div>
      </aside>
    </div>
  );
}
