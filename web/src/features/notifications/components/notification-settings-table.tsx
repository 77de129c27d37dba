import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

export const TYPE_LABELS: Record<NotificationType, MessageDescriptor> = {
  assigned: msg({ message: 'Assigned to me', comment: 'A kind of notification: a task was assigned to me' }),
  mentioned: msg({ message: 'Mentions', comment: 'A kind of notification: someone mentioned me in a comment' }),
  commented: msg({ message: 'Comments on my tasks', comment: 'A kind of notification' }),
  completed: msg({ message: 'My tasks completed', comment: 'A kind of notification: a task I assigned was completed' }),
  due_soon: msg({ message: 'Due soon', comment: 'A kind of notification: a task’s deadline is near' }),
  overdue: msg({ message: 'Overdue', comment: 'A kind of notification: a task’s deadline has passed' }),
  board_added: msg({ message: 'Added to a board', comment: 'A kind of notification: someone added me to a board' }),
};

type Channel = NotificationChannel | 'mail';
const CHANNEL_LABELS: Record<Channel, MessageDescriptor> = {
  app: msg({ message: 'In the app', comment: 'Where a notification goes: the app’s own list (the bell)' }),
  push: msg({ message: 'Push', comment: 'Where a notification goes: the device’s system notifications' }),
  mail: msg({ message: 'Mail', comment: 'Where a notification goes: an e-mail' }),
};

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
  const { t, i18n } = useLingui();

  /** A switch's name: its row and its column. */
  const switchName = (type: NotificationType, channel: Channel): string => {
    const kind = i18n._(TYPE_LABELS[type]);
    const where = i18n._(CHANNEL_LABELS[channel]);
    return t({ message: `${kind}: ${where}`, comment: 'A switch of the notification settings: kind: the kind of notification; where: where it goes' });
  };

  /** Names the switches a change moves: both reminder rows for the one reminders setting. */
  const changeName = (type: NotificationType, channel: Channel): string => {
    if (channel === 'mail' && MAIL_SETTING[type] === 'notifyReminders') {
      const dueSoon = i18n._(TYPE_LABELS.due_soon);
      const overdue = i18n._(TYPE_LABELS.overdue);
      const where = i18n._(CHANNEL_LABELS.mail);
      return t({ message: `${dueSoon} and ${overdue}: ${where}`, comment: 'The two reminder switches of the Mail column, changed together' });
    }
    return switchName(type, channel);
  };

  if (settings.isPending || mail.status === 'pending') {
    return (
      <p>
        <Spinner /> <Trans>Loading your settings…</Trans>
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
        <Trans>Your notification settings could not be loaded.</Trans>
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
        const name = changeName(type, channel);
        settle({ tone: 'success', text: value ? t`Saved: ${name} on.` : t`Saved: ${name} off.` });
      },
      (error: unknown) => {
        const name = changeName(type, channel);
        const reason = errorText(error);
        settle({ tone: 'error', text: t({ message: `${name} was not changed. ${reason}`, comment: 'reason: why, in the server’s or the app’s words' }) });
      },
    );
  };

  return (
    <>
      <p className="account-section__text">
        <Trans>
          Choose what reaches you, and where. Push goes to every device where you turned notifications on (below). Sign-up and password-reset codes are
          always mailed.
        </Trans>
      </p>
      <div className="notif-settings__scroll">
        <table className="notif-settings">
          <caption className="visually-hidden">
            <Trans>Notifications by type and channel</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans comment="The column of the kinds of notification">Type</Trans>
              </th>
              {(['app', 'push', 'mail'] as const).map((channel) => (
                <th key={channel} scope="col">
                  {i18n._(CHANNEL_LABELS[channel])}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_TYPES.map((type) => (
              <tr key={type}>
                <th scope="row">{i18n._(TYPE_LABELS[type])}</th>
                {(['app', 'push', 'mail'] as const).map((channel) => {
                  const value = valueOf(type, channel);
                  const name = switchName(type, channel);
                  return (
                    <td key={channel}>
                      {value === null ? (
                        <span className="notif-settings__none" title={t`Never sent by mail`}>
                          <span aria-hidden="true">—</span>
                          <span className="visually-hidden">
                            <Trans comment="name: a switch’s row and column, e.g. Comments on my tasks: Mail">{name}: never sent by mail</Trans>
                          </span>
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
        <Trans>Mail for “Due soon” and “Overdue” is one setting, the deadline reminders: switching one switches both.</Trans>
      </p>
      <p className="notif-settings__note">
        <Trans>“—”: comments and completed tasks are never sent by mail.</Trans>
      </p>
      {message !== null ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </>
  );
}
