import type { ReactNode } from 'react';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { CalendarSection } from './calendar-section.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SessionsAndDataSection } from './sessions-data-section.tsx';
import './account.css';

/**
 * Everything on the account page below its heading. The notification settings belong to the
 * notifications feature; the app passes them in (features do not import each other).
 */
export function AccountSettings({ notifications }: { notifications?: ReactNode }) {
  const { session } = useSession();
  if (session.status !== 'signedIn') return null;
  const { fullName, email } = session.user;
  return (
    <>
      <ProfileSection fullName={fullName} email={email} />
      <PasswordSection email={email} />
      {notifications}
      <CalendarSection />
      <SessionsAndDataSection />
      <DeleteAccountSection />
    </>
  );
}
