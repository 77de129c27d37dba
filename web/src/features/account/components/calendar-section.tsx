import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();

  const copy = async () => {
    if (url === undefined) return;
    try {
      await navigator.clipboard.writeText(url);
      notify('success', t`The calendar URL was copied.`);
    } catch {
      setError(t`The URL could not be copied: select it and copy it by hand.`);
    }
  };

  const onConfirm = () =>
    rotate.mutateAsync(undefined).then(() => {
      notify('success', t`A new calendar URL was made. Subscribe to it again where you used the old one.`);
    });

  return (
    <AccountSection id="account-calendar" title={t`Calendar`}>
      <p className="account-section__text">
        <Trans>
          Subscribe to this address in a calendar app (Google Calendar, Apple Calendar, Outlook, Thunderbird) to see your open tasks with a
          deadline there. Anyone who has the address can read it, so keep it to yourself.
        </Trans>
      </p>
      {feed.isPending ? (
        <LoadingLine>
          <Trans>Loading your calendar address…</Trans>
        </LoadingLine>
      ) : feed.isError || url === undefined ? (
        <RetryAlert onRetry={() => void feed.refetch()}>
          <Trans>Your calendar address could not be loaded.</Trans>
        </RetryAlert>
      ) : (
        <>
          <TextField
            label={t`Calendar address`}
            value={url}
            readOnly
            spellCheck={false}
            onFocus={(event) => {
              event.currentTarget.select();
            }}
          />
          <div className="account-form__actions">
            <Button variant="primary" onClick={() => void copy()}>
              <Trans comment="Button that copies the calendar address to the clipboard">Copy</Trans>
            </Button>
            <Button
              onClick={() => {
                setError(null);
                setConfirming(true);
              }}
            >
              <Trans>Make a new URL</Trans>
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
        title={t`Make a new calendar URL?`}
        body={t`The current address stops working at once: calendars subscribed to it no longer get your tasks until you subscribe to the new one.`}
        confirmLabel={t`Make a new URL`}
        onConfirm={onConfirm}
      />
    </AccountSection>
  );
}
