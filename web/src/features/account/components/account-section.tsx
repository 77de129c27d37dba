import type { ReactNode } from 'react';
import { cx } from '#web/lib/cx.ts';

interface AccountSectionProps {
  /** The heading's id; the section is labelled by it. */
  id: string;
  title: string;
  /** The red-edged look of an action that cannot be undone. */
  danger?: boolean;
  children: ReactNode;
}

/** One titled block of the account page. */
export function AccountSection({ id, title, danger = false, children }: AccountSectionProps) {
  return (
    <section className={cx('account-section', danger && 'account-section--danger')} aria-labelledby={id}>
      <h2 id={id} className="account-section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}
