import { useState } from 'react';
import { Alert } from '#web/components/alert.tsx';
import { Button } from '#web/components/button.tsx';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { TextField } from '#web/components/field.tsx';
import { useNotices } from '#web/components/notices.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { LoadingLine } from '#web/components/spinner.tsx';
import { useCalendarFeed, useRotateCalendarFeed } from '../api/calendar-feed.ts';
import { AccountSection } from './account-section.tsx';

/**
 * The calendar feed: my open tasks with a deadline as a calendar that apps subscribe to by URL.
 * The URL is the secret (no sign-in), so it is shown read-only with Copy, and can be replaced
 * after a warning that the old one stops working.
 */
export function CalendarSection() {
  const feed = useCalendarFeed();
  const rotate = useRotateCalendarFeed();
  const { notify } = useNotices();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const url = feed.data?.data.url;

  const copy = async () => {
    if (url === undefined) return;
    try {
      await navigator.clipboard.writeText(url);
      notify('success', 'The calendar URL was copied.');
    } catch {
      setError('The URL could not be copied: select it and copy it by hand.');
    }
  };

  const onConfirm = () =>
    rotate.mutateAsync(undefined).then(() => {
      notify('success', 'A new calendar URL was made. Subscribe to it again where you used the old one.');
    });

  return (
    <AccountSection id="account-calendar" title="Calendar">
      <p className="account-section__text">
        Subscribe to this address in a calendar app (Google Calendar, Apple Calendar, Outlook, Thunderbird) to see your open tasks with a
        deadline there. Anyone who has the address can read it, so keep it to yourself.
      </p>
      {feed.isPending ? (
        <LoadingLine>Loading your calendar address…</LoadingLine>
      ) : feed.isError || url === undefined ? (
        <RetryAlert onRetry={() => void feed.refetch()}>Your calendar address could not be loaded.</RetryAlert>
      ) : (
        <>
          <TextField
            label="Calendar address"
            value={url}
            readOnly
            spellCheck={false}
            onFocus={(event) => {
              event.currentTarget.select();
            }}
          />
          <div className="account-form__actions">
            <Button variant="primary" onClick={() => void copy()}>
              Copy
            </Button>
            <Button
              onClick={() => {
                setError(null);
                setConfirming(true);
              }}
            >
              Make a new URL
            </Button>
          </div>
        </>
      )}
      {error !== null ? <Alert tone="error">{error}</Alert> : null}
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title="Make a new calendar URL?"
        body="The current address stops working at once: calendars subscribed to it no longer get your tasks until you subscribe to the new one."
        confirmLabel="Make a new URL"
        onConfirm={onConfirm}
      />
    </AccountSection>
  );
}
