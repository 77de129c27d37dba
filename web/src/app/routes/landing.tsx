import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { ButtonLink } from '#web/components/button.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { numberFormat } from '#web/lib/locale-format.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import './landing.css';

export const PARTICLE_COUNT = 50;

/** Small deterministic PRNG (mulberry32): the particles look random but never shift between renders. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(20_260_501);
const PARTICLES = Array.from({ length: PARTICLE_COUNT }, (_, i) => ({
  id: i,
  style: {
    '--x': `${(random() * 100).toFixed(2)}%`,
    '--y': `${(random() * 100).toFixed(2)}%`,
    '--size': `${(3 + random() * 7).toFixed(1)}px`,
    '--duration': `${(14 + random() * 18).toFixed(1)}s`,
    '--delay': `${(-random() * 30).toFixed(1)}s`,
    '--drift': `${(random() * 60 - 30).toFixed(0)}px`,
    '--alpha': (0.25 + random() * 0.5).toFixed(2),
  } as CSSProperties,
  tone: i % 3,
}));

interface Feature {
  id: string;
  title: MessageDescriptor;
  text: MessageDescriptor;
  icon: ReactNode;
}

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

const FEATURES: readonly Feature[] = [
  {
    id: 'automation',
    title: msg`Smart automation`,
    text: msg`Let routine hand-offs run themselves, so the board stays current without anyone chasing updates.`,
    icon: <path {...stroke} d="M13 3 5 14h6l-1 7 8-11h-6l1-7Z" />,
  },
  {
    id: 'analytics',
    title: msg`Real-time analytics`,
    text: msg`See what is open, what is late and what got done this week, at a glance and without a spreadsheet.`,
    icon: <path {...stroke} d="M4 20V10M10 20V4M16 20v-7M22 20H2" />,
  },
  {
    id: 'goals',
    title: msg`Goal tracking`,
    text: msg`Group tasks under a piece of work and watch it move from first to-do to last tick.`,
    icon: (
      <>
        <circle {...stroke} cx="12" cy="12" r="8" />
        <circle {...stroke} cx="12" cy="12" r="4" />
        <circle cx="12" cy="12" r="1.2" fill="currentColor" />
      </>
    ),
  },
  {
    id: 'team',
    title: msg`Team sync`,
    text: msg`Assign by e-mail address. Everyone sees what they owe and what they asked of others.`,
    icon: (
      <>
        <circle {...stroke} cx="9" cy="8" r="3.2" />
        <path {...stroke} d="M3 19c.6-3.2 3-5 6-5s5.4 1.8 6 5" />
        <path {...stroke} d="M16 5.2a3 3 0 0 1 0 5.6M18 14.4c1.7.7 2.7 2.3 3 4.6" />
      </>
    ),
  },
  {
    id: 'workflows',
    title: msg`Custom workflows`,
    text: msg`Priorities from low to urgent and deadlines in each person’s own time zone fit the way you work.`,
    icon: (
      <>
        <rect {...stroke} x="3" y="3" width="7" height="7" rx="2" />
        <rect {...stroke} x="14" y="14" width="7" height="7" rx="2" />
        <path {...stroke} d="M10 6.5h4a3 3 0 0 1 3 3V14" />
      </>
    ),
  },
  {
    id: 'integrations',
    title: msg`Integration hub`,
    text: msg`A documented JSON API and your own server: connect Taskwise to the tools you already run.`,
    icon: (
      <>
        <path {...stroke} d="M9 7V3M15 7V3M6 7h12v4a6 6 0 0 1-12 0V7ZM12 17v4" />
      </>
    ),
  },
];

/** A band of the landing page below the hero: `name` gives its BEM block and its title's id. */
function LandingSection({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  return (
    <section className={name} aria-labelledby={`${name}-title`}>
      <div className={`${name}__inner`}>
        <h2 id={`${name}-title`} className={`${name}__title`}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

export function LandingPage() {
  useDocumentTitle(null);
  const { t, i18n } = useLingui();
  const [thisYear] = useState(() => new Date().getFullYear());
  const year = numberFormat({ useGrouping: false }).format(thisYear);

  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero__particles" aria-hidden="true">
          {PARTICLES.map((p) => (
            <span key={p.id} className={`particle particle--${p.tone}`} style={p.style} />
          ))}
        </div>
        <div className="hero__content">
          <p className="hero__eyebrow">
            <Trans>Your team’s task board, on your own server</Trans>
          </p>
          <PageHeading className="hero__title" id="hero-title">
            <Trans>
              Work, assigned and <span className="hero__accent">done</span>.
            </Trans>
          </PageHeading>
          <p className="hero__lead">
            <Trans>
              Taskwise keeps every task in one calm place: assign it by e-mail, set a priority and a deadline, and watch it move from to do to
              completed.
            </Trans>
          </p>
          <div className="hero__actions">
            <ButtonLink to="/tasks" variant="primary" size="lg">
              <Trans>Open your board</Trans>
            </ButtonLink>
            <ButtonLink to="/sign-up" variant="secondary" size="lg">
              <Trans>Create an account</Trans>
            </ButtonLink>
          </div>
        </div>
      </section>

      <LandingSection name="features" title={t`Everything a busy team needs, nothing it doesn’t`}>
        <ul className="features__grid">
          {FEATURES.map((feature) => (
            <li key={feature.id} className="feature-card">
              <span className="feature-card__icon">
                <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
                  {feature.icon}
                </svg>
              </span>
              <h3 className="feature-card__title">{i18n._(feature.title)}</h3>
              <p className="feature-card__text">{i18n._(feature.text)}</p>
            </li>
          ))}
        </ul>
      </LandingSection>

      <LandingSection name="cta" title={t`Ready when you are`}>
        <p className="cta__text">
          <Trans>Your board is one click away. Bring a teammate along: all they need is an e-mail address.</Trans>
        </p>
        <div className="hero__actions">
          <ButtonLink to="/tasks" variant="primary" size="lg">
            <Trans>Go to my tasks</Trans>
          </ButtonLink>
        </div>
      </LandingSection>

      <footer className="landing-footer">
        <p>
          <Trans comment="year: this year">© {year} Taskwise. Self-hosted, open, yours.</Trans>
        </p>
      </footer>
    </div>
  );
}
