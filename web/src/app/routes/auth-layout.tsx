import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { PageHeading } from '#web/components/page-heading.tsx';
// Imported here only, so it travels in this page shell's chunk (no chunk of its own for /login).
import { ProviderLinks } from '#web/features/auth/components/provider-links.tsx';
import './auth-layout.css';

/** The addresses on the showcase's sample cards (not words: the same in every language). */
const SAMPLE_ASSIGNEES = { ops: 'ops@acme.io', lena: 'lena@acme.io' };

/**
 * Shell of the sign-in and sign-up pages: the form card, and a product showcase on wide screens.
 * `providers`: whether the server's sign-in provider links ("Sign in with …") go under the form.
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
  providers?: boolean;
}) {
  const { t } = useLingui();
  const { ops, lena } = SAMPLE_ASSIGNEES;
  return (
    <div className="auth-page">
      <div className="auth-page__main">
        <div className="auth-card">
          <PageHeading className="auth-card__title">{title}</PageHeading>
          <p className="auth-card__subtitle">{subtitle}</p>
          {children}
          {providers ? <ProviderLinks /> : null}
          <p className="auth-card__footer">{footer}</p>
        </div>
      </div>
      <aside className="auth-page__aside" aria-label={t`About Taskwise`}>
        <div className="auth-aside">
          <p className="auth-aside__eyebrow">
            <Trans>Self-hosted task board</Trans>
          </p>
          <p className="auth-aside__headline">
            <Trans>Assign it by e-mail. Watch it move to done.</Trans>
          </p>
          <ul className="auth-aside__points">
            <li>
              <Trans>Your own columns, from to do to done</Trans>
            </li>
            <li>
              <Trans>Deadlines in everyone’s own time zone</Trans>
            </li>
            <li>
              <Trans>Priorities you can read at a glance</Trans>
            </li>
          </ul>
          <div className="auth-aside__mock" aria-hidden="true">
            <div className="mock-card">
              <span className="mock-card__badge mock-card__badge--urgent">
                <Trans comment="A task’s priority">Urgent</Trans>
              </span>
              <span className="mock-card__title">
                <Trans comment="The title of a sample task">Renew the TLS certificate</Trans>
              </span>
              <span className="mock-card__meta">
                <Trans comment="A sample task card: the address it is assigned to, and when it is due">{ops} · due in 2 hours</Trans>
              </span>
            </div>
            <div className="mock-card mock-card--offset">
              <span className="mock-card__badge mock-card__badge--normal">
                <Trans comment="A task’s priority">Normal</Trans>
              </span>
              <span className="mock-card__title">
                <Trans comment="The title of a sample task">Draft the Q3 roadmap</Trans>
              </span>
              <span className="mock-card__meta">
                <Trans comment="A sample task card: the address it is assigned to, and when it is due (Friday, shortened)">{lena} · due Fri</Trans>
              </span>
            </div>
          </div>
        </div>
      </aside>
    </div>
  );
}
