import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

interface RetryAlertProps {
  /** What the "Try again" button does: usually the query's refetch. */
  onRetry: () => void;
  className?: string;
  children: ReactNode;
}

/** The error shown where data failed to load, with a "Try again" button beside it. */
export function RetryAlert({ onRetry, className, children }: RetryAlertProps) {
  return (
    <Alert
      tone="error"
      className={className}
      action={
        <Button size="sm" onClick={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
