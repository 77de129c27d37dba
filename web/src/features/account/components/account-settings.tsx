import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SessionsAndDataSection } from './sessions-data-section.tsx';
import './account.css';

/** Everything on the account page below its heading. */
export function AccountSettings() {
  const { session } = useSession();
  if (session.status !== 'signedIn') return null;
  const { fullName, email } = session.user;
  return (
    <>
      <ProfileSection fullName={fullName} email={email} />
      <PasswordSection email={email} />
      <NotificationsSection />
      <SessionsAndDataSection />
      <DeleteAccountSection />
    </>
  );
}
