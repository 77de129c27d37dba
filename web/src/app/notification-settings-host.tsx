import { useLingui } from '@lingui/react/macro';
import { AccountSection } from '#web/features/account/components/account-section.tsx';
import { useSettings } from '#web/features/account/api/get-settings.ts';
import { useUpdateSettings } from '#web/features/account/api/update-settings.ts';
import { DevicePushSwitch } from '#web/features/notifications/components/device-push-switch.tsx';
import { NotificationSettingsTable, type MailColumn } from '#web/features/notifications/components/notification-settings-table.tsx';

/**
 * The account page's notification settings, joined here (features do not import each other):
 * the notifications feature's table shows the account's mail settings as its Mail column.
 */
export function NotificationSettingsSections() {
  const settings = useSettings();
  const update = useUpdateSettings();
  const { t } = useLingui();
  const mail: MailColumn = {
    settings: settings.data?.data.settings,
    status: settings.status,
    retry: () => {
      void settings.refetch();
    },
    save: (change) => update.mutateAsync(change),
  };
  return (
    <>
      <AccountSection id="account-notifications" title={t`Notifications`}>
        <NotificationSettingsTable mail={mail} />
      </AccountSection>
      <AccountSection id="account-device" title={t`Notifications on this device`}>
        <DevicePushSwitch />
      </AccountSection>
    </>
  );
}
