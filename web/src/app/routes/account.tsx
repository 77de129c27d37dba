import { PageHeading } from '#web/components/page-heading.tsx';
import { AccountSettings } from '#web/features/account/components/account-settings.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export function AccountPage() {
  useDocumentTitle('Account');
  return (
    <div className="account">
      <div>
        <PageHeading>Account</PageHeading>
        <p className="account__intro">Your name, password, which mails you get, and your data.</p>
      </div>
      <AccountSettings />
    </div>
  );
}
