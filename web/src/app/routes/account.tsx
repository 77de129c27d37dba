import { PageHeading } from '#web/components/page-heading.tsx';
import { AccountSettings } from '#web/features/account/components/account-settings.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { NotificationSettingsSections } from '../notification-settings-host.tsx';

export function AccountPage() {
  useDocumentTitle('Account');
  const { session, signIn, signOut } = useSession();
  return (
    <div className="account">
      <div>
        <PageHeading>Account</PageHeading>
        <p className="account__intro">Your name, password, which notifications you get and where, and your data.</p>
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
