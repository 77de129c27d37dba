import { useId, useRef, useState } from 'react';
import type { MailSettings, UpdateMailSettingsBody } from '#shared/schemas/account.ts';
import { NOTIFICATION_TYPES, type NotificationChannel, type NotificationType } from '#shared/schemas/notifications.ts';
import { Alert } from '#web/components/alert.tsx';
import { RetryAlert } from '#web/components/retry-alert.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { Switch } from '#web/components/switch.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { useNotificationSettings, useUpdateNotificationSettings } from '../api/notification-settings.ts';
import './notification-settings.css';

/** The mail settings (another feature's), as the app hands them to the table. */
export interface MailColumn {
  settings: MailSettings | undefined;
  status: 'pending' | 'error' | 'success';
  retry: () => void;
  /** Saves a change; resolves when saved. */
  save: (change: UpdateMailSettingsBody) => Promise<unknown>;
}

export const TYPE_LABELS: Record<NotificationType, string> = {
  assigned: 'Assigned to me',
  mentioned: 'Mentions',
  commented: 'Comments on my tasks',
  completed: 'My tasks completed',
  due_soon: 'Due soon',
  overdue: 'Overdue',
  board_added: 'Added to a board',
};

type Channel = NotificationChannel | 'mail';
const CHANNEL_LABELS: Record<Channel, string> = { app: 'In the app', push: 'Push', mail: 'Mail' };

/**
 * Which mail setting sends each type by mail. "Due soon" and "Overdue" share one (the deadline
 * reminders); comments and completions are never mailed.
 */
export const MAIL_SETTING: Partial<Record<NotificationType, keyof MailSettings>> = {
  assigned: 'notifyAssigned',
  mentioned: 'notifyMentions',
  due_soon: 'notifyReminders',
  overdue: 'notifyReminders',
  board_added: 'notifyBoards',
};

/** Names the switches a change moves: both reminder rows for the one reminders setting. */
function changeName(type: NotificationType, channel: Channel): string {
  if (channel === 'mail' && MAIL_SETTING[type] === 'notifyReminders') return `${TYPE_LABELS.due_soon} and ${TYPE_LABELS.overdue}: ${CHANNEL_LABELS.mail}`;
  return `${TYPE_LABELS[type]}: ${CHANNEL_LABELS[channel]}`;
}

/** A switch's cell: the reminders' mail switches are one cell (one setting). */
const cellKey = (type: NotificationType, channel: Channel) => (channel === 'mail' ? `mail:${MAIL_SETTING[type] ?? type}` : `${channel}:${type}`);

/**
 * Every type × channel as a table of switches. Each switch saves on its own at once: it shows
 * the new state while the save is under way, and goes back (saying why) if the save fails.
 */
export function NotificationSettingsTable({ mail }: { mail: MailColumn }) {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const remindersNote = useId();
  // Switches moved and not yet saved, by cell; a newer move of the same cell wins.
  const [moved, setMoved] = useState<Record<string, boolean>>({});
  const moves = useRef(new Map<string, number>());
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  if (settings.isPending || mail.status === 'pending') {
    return (
      <p>
        <Spinner /> Loading your settings…
      </p>
    );
  }
  if (settings.isError || mail.status === 'error' || mail.settings === undefined) {
    return (
      <RetryAlert
        onRetry={() => {
          if (settings.isError) void settings.refetch();
          if (mail.status === 'error') mail.retry();
        }}
      >
        Your notification settings could not be loaded.
      </RetryAlert>
    );
  }
  const saved = settings.data;
  const mailSaved = mail.settings;

  const valueOf = (type: NotificationType, channel: Channel): boolean | null => {
    const pending = moved[cellKey(type, channel)];
    if (pending !== undefined) return pending;
    if (channel !== 'mail') return saved[channel][type];
    const key = MAIL_SETTING[type];
    return key === undefined ? null : mailSaved[key];
  };

  const onToggle = (type: NotificationType, channel: Channel, value: boolean) => {
    const key = cellKey(type, channel);
    const move = (moves.current.get(key) ?? 0) + 1;
    moves.current.set(key, move);
    setMoved((current) => ({ ...current, [key]: value }));
    setMessage(null);
    const mailKey = MAIL_SETTING[type];
    const saving = channel === 'mail' ? (mailKey === undefined ? Promise.resolve() : mail.save({ [mailKey]: value })) : update.mutateAsync({ [channel]: { [type]: value } });
    const settle = (next: { tone: 'success' | 'error'; text: string }) => {
      if (moves.current.get(key) !== move) return;
      setMoved(({ [key]: _, ...rest }) => rest);
      setMessage(next);
    };
    saving.then(
      () => {
        settle({ tone: 'success', text: `Saved: ${changeName(type, channel)} ${value ? 'on' : 'off'}.` });
      },
      (error: unknown) => {
        settle({ tone: 'error', text: `${changeName(type, channel)} was not changed. ${errorText(error)}` });
      },
    );
  };

  return (
    <>
      <p className="account-section__text">
        Choose what reaches you, and where. Push goes to every device where you turned notifications on (below). Sign-up and password-reset codes are always
        mailed.
      </p>
      <div className="notif-settings__scroll">
        <table className="notif-settings">
          <caption className="visually-hidden">Notifications by type and channel</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              {(['app', 'push', 'mail'] as const).map((channel) => (
                <th key={channel} scope="col">
                  {CHANNEL_LABELS[channel]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_TYPES.map((type) => (
              <tr key={type}>
                <th scope="row">{TYPE_LABELS[type]}</th>
                {(['app', 'push', 'mail'] as const).map((channel) => {
                  const value = valueOf(type, channel);
                  const name = `${TYPE_LABELS[type]}: ${CHANNEL_LABELS[channel]}`;
                  return (
                    <td key={channel}>
                      {value === null ? (
                        <span className="notif-settings__none" title="Never sent by mail">
                          <span aria-hidden="true">—</span>
                          <span className="visually-hidden">{name}: never sent by mail</span>
                        </span>
                      ) : (
                        <Switch
                          aria-label={name}
                          aria-describedby={channel === 'mail' && MAIL_SETTING[type] === 'notifyReminders' ? remindersNote : undefined}
                          checked={value}
                          onChange={(event) => {
                            onToggle(type, channel, event.target.checked);
                          }}
                        />
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p id={remindersNote} className="notif-settings__note">
        Mail for “Due soon” and “Overdue” is one setting, the deadline reminders: switching one switches both.
      </p>
      <p className="notif-settings__note">
        “—”: comments and completed tasks are never sent by mail.
      </p>
      {message !== null ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </>
  );
}
