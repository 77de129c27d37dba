import { Trans } from '@lingui/react/macro';
import { cx } from '#web/lib/cx.ts';
import { deadlineState, formatDeadline, formatDeadlineFull, formatRelative } from '../utils/deadline.ts';
import './deadline-text.css';

/**
 * A deadline in the viewer's language and time zone with a relative hint; an overdue task says
 * so in words ("Overdue"), not by colour alone.
 */
export function DeadlineText({ deadline, done, now }: { deadline: string | null; done: boolean; now: Date }) {
  if (deadline === null) {
    return (
      <span className="deadline deadline--none">
        <Trans>No deadline</Trans>
      </span>
    );
  }
  const date = new Date(deadline);
  if (Number.isNaN(date.getTime())) return <span className="deadline deadline--none">{deadline}</span>;
  const state = deadlineState(date, done, now);
  return (
    <span className={cx('deadline', `deadline--${state}`)}>
      <time dateTime={date.toISOString()} title={formatDeadlineFull(date)}>
        {formatDeadline(date, now)}
      </time>
      <span className="deadline__hint">
        {state === 'overdue' ? (
          <strong className="deadline__flag">
            <Trans>Overdue</Trans>
          </strong>
        ) : state === 'soon' ? (
          <strong className="deadline__flag">
            <Trans>Due soon</Trans>
          </strong>
        ) : null}
        <span className="deadline__relative">{formatRelative(date, now)}</span>
      </span>
    </span>
  );
}
