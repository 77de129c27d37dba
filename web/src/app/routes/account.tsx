import { Trans, useLingui } from '@lingui/react/macro';
import { PageHeading } from '#web/components/page-heading.tsx';
import { AccountSettings } from '#web/features/account/components/account-settings.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { NotificationSettingsSections } from '../notification-settings-host.tsx';

export function AccountPage() {
  const { t } = useLingui();
  useDocumentTitle(t({ message: 'Account', comment: 'The title of one’s account page' }));
  const { session, signIn, signOut } = useSession();
  return (
    <div className="account">
      <div>
        <PageHeading>
          <Trans comment="The title of one’s account page">Account</Trans>
        </PageHeading>
        <p className="account__intro">
          <Trans>Your name, password, which notifications you get and where, and your data.</Trans>
        </p>
      </div>
      {session.status === 'signedIn' ? (
        <AccountSettings
          user={session.user}
          onUserChanged={signIn}
          onSignedOut={() => {
            signOut('logout');
          }}
          notifications={<NotificationSettingsSections />}
        />
      ) : null}
    </div>
  );
}
