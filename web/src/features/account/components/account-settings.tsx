import type { ReactNode } from 'react';
import type { PublicUser } from '#shared/schemas/users.ts';
import { CalendarSection } from './calendar-section.tsx';
import { ApiTokensSection } from './api-tokens-section.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { LanguageSection } from './language-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SessionsAndDataSection } from './sessions-data-section.tsx';
import { TwoStepSection } from './two-step-section.tsx';
import { LinkedProvidersSection } from './linked-providers-section.tsx';
import { PasskeysSection } from './passkeys-section.tsx';
import './account.css';

interface AccountSettingsProps {
  /** Who is signed in. */
  user: PublicUser;
  /** After the name changed: the session takes the new user (the navigation bar shows it). */
  onUserChanged: (user: PublicUser) => void;
  /** After signing out everywhere or deleting the account: the session ends here too. */
  onSignedOut: () => void;
  notifications?: ReactNode;
}

/**
 * Everything on the account page below its heading. The session belongs to the auth feature and
 * the notification settings to the notifications feature; the app passes them in (features do
 * not import each other).
 */
export function AccountSettings({ user, onUserChanged, onSignedOut, notifications }: AccountSettingsProps) {
  const { fullName, email } = user;
  return (
    <>
      <ProfileSection fullName={fullName} email={email} onSaved={onUserChanged} />
      <LanguageSection />
      <PasswordSection email={email} />
      <TwoStepSection />
      <LinkedProvidersSection />
      <PasskeysSection />
      {notifications}
      <CalendarSection />
      <SessionsAndDataSection onSignedOut={onSignedOut} />
      <ApiTokensSection />
      <DeleteAccountSection onSignedOut={onSignedOut} />
    </>
  );
}
