import type { ReactNode } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
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

interface AccountFormFooterProps {
  submitLabel: string;
  busy: boolean;
  /** The server's confirmation after a save, shown under the button. */
  done: string | null;
}

/** The end of an account form: its submit button, then what the last save said. */
export function AccountFormFooter({ submitLabel, busy, done }: AccountFormFooterProps) {
  return (
    <>
      <div className="account-form__actions">
        <Button type="submit" variant="primary" busy={busy}>
          {submitLabel}
        </Button>
      </div>
      {done !== null ? <Alert tone="success">{done}</Alert> : null}
    </>
  );
}
