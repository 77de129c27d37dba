import { useState } from 'react';
import type { MailSettings } from '#shared/schemas/account.ts';
import { Alert } from '#web/components/alert.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { isApiError, NETWORK_ERROR_MESSAGE } from '#web/lib/api-client.ts';
import { useSettings } from '../api/get-settings.ts';
import { useUpdateSettings } from '../api/update-settings.ts';
import { AccountSection } from './account-section.tsx';

const OPTIONS: { key: keyof MailSettings; label: string; hint: string }[] = [
  { key: 'notifyAssigned', label: 'Mail me when someone assigns me a task', hint: 'Never for tasks you assign to yourself.' },
  {
    key: 'notifyReminders',
    label: 'Mail me reminders about deadlines',
    hint: '"Due soon" under 24 hours before, and "overdue" after, for tasks you created or are assigned.',
  },
  { key: 'notifyBoards', label: 'Mail me when someone adds me to a board', hint: 'With a link to the board.' },
  { key: 'notifyMentions', label: 'When someone mentions me', hint: 'A mail when someone writes @ and your address in a comment on a task you can see.' },
];

/** Which optional mails to get; each change saves at once and says so. Codes always arrive. */
export function NotificationsSection() {
  const settings = useSettings();
  const update = useUpdateSettings();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // The box follows the click at once; a refused save puts it back and says why.
  const [pending, setPending] = useState<MailSettings | null>(null);
  const shown = pending ?? settings.data?.data.settings;

  const onToggle = (key: keyof MailSettings, value: boolean) => {
    setMessage(null);
    if (shown !== undefined) setPending({ ...shown, [key]: value });
    update.mutate(
      { [key]: value },
      {
        onSuccess: (answer) => {
          setPending(null);
          setMessage({ tone: 'success', text: answer.message ?? 'Saved.' });
        },
        onError: (failure) => {
          setPending(null);
          setMessage({ tone: 'error', text: isApiError(failure) ? failure.message : NETWORK_ERROR_MESSAGE });
        },
      },
    );
  };

  return (
    <AccountSection id="account-notifications" title="Notifications">
      {settings.isPending ? (
        <p>
          <Spinner /> Loading your settings…
        </p>
      ) : settings.isError || shown === undefined ? (
        <Alert tone="error">Your notification settings could not be loaded. Reload the page to try again.</Alert>
      ) : (
        <fieldset className="account-form">
          <legend className="account-section__text">Sign-up and password-reset codes are always sent.</legend>
          {OPTIONS.map((option) => (
            <label key={option.key} className="account-check">
              <input
                type="checkbox"
                name={option.key}
                checked={shown[option.key]}
                onChange={(event) => {
                  onToggle(option.key, event.target.checked);
                }}
              />
              <span>
                {option.label}
                <span className="account-check__hint">{option.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {message !== null ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </AccountSection>
  );
}
