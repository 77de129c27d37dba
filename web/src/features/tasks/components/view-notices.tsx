import { Trans } from '@lingui/react/macro';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { VIEW_TASKS_MAX } from '../api/view-tasks.ts';

interface ViewNoticesProps {
  /** What the last move did, read out by screen readers. */
  said: string;
  /** The server's refusal of the last move, until dismissed. */
  moveError: string | null;
  onDismiss: () => void;
  /** The view's list could not be read. */
  error: Error | null;
  onRetry: () => void;
  /** More tasks match than the view reads. */
  truncated: boolean;
  noteClassName: string;
}

/** What the calendar and the timeline say above their grid: a move read out or refused, a list not read, a list cut short. */
export function ViewNotices({ said, moveError, onDismiss, error, onRetry, truncated, noteClassName }: ViewNoticesProps) {
  const most = formatNumber(VIEW_TASKS_MAX);
  return (
    <>
      <p className="visually-hidden" role="status">
        {said}
      </p>
      {moveError ? (
        <Alert
          tone="error"
          action={
            <Button size="sm" variant="ghost" onClick={onDismiss}>
              <Trans>Dismiss</Trans>
            </Button>
          }
        >
          {moveError}
        </Alert>
      ) : null}
      {error ? <RetryAlert onRetry={onRetry}>{errorText(error)}</RetryAlert> : null}
      {truncated ? (
        <p className={noteClassName}>
          <Trans>Only the first {most} tasks of this filter are shown.</Trans>
        </p>
      ) : null}
    </>
  );
}
