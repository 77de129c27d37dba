import type { ReactNode } from 'react';
import { cx } from '#web/lib/cx.ts';
import './alert.css';

export type Tone = 'error' | 'success' | 'info';

const ICONS: Record<Tone, string> = {
  error: 'M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm0 11.2a1.1 1.1 0 1 0 0 2.2 1.1 1.1 0 0 0 0-2.2ZM10 5a1 1 0 0 0-1 1.05l.23 5a.77.77 0 0 0 1.54 0l.23-5A1 1 0 0 0 10 5Z',
  success: 'M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm3.53 5.47a.75.75 0 0 0-1.06 0L9 10.94 7.53 9.47a.75.75 0 1 0-1.06 1.06l2 2a.75.75 0 0 0 1.06 0l4-4a.75.75 0 0 0 0-1.06Z',
  info: 'M10 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm0 7a.9.9 0 0 0-.9.9v4.2a.9.9 0 0 0 1.8 0V9.9A.9.9 0 0 0 10 9Zm0-3.6a1.1 1.1 0 1 0 0 2.2 1.1 1.1 0 0 0 0-2.2Z',
};

export function AlertIcon({ tone }: { tone: Tone }) {
  return (
    <svg className="alert__icon" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
      <path fill="currentColor" d={ICONS[tone]} />
    </svg>
  );
}

interface AlertProps {
  tone: Tone;
  children: ReactNode;
  /** An action such as "Try again", shown after the text. */
  action?: ReactNode;
  className?: string;
}

/**
 * An in-page message: errors are `role="alert"` (announced at once), success and
 * information `role="status"` (announced politely).
 */
export function Alert({ tone, children, action, className }: AlertProps) {
  return (
    <div className={cx('alert', `alert--${tone}`, className)} role={tone === 'error' ? 'alert' : 'status'}>
      <AlertIcon tone={tone} />
      <div className="alert__body">{children}</div>
      {action ? <div className="alert__action">{action}</div> : null}
    </div>
  );
}
