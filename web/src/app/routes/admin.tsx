import { Trans, useLingui } from '@lingui/react/macro';
import { PageHeading } from '#web/components/page-heading.tsx';
import { AccountsSection, AuditSection, InviteSection, SettingsSection } from '#web/features/admin/components/admin-sections.tsx';
import { useSession } from '#web/features/auth/components/session-provider.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** /admin: the instance admin's page (its API answers anyone else 404, which the sections show). */
export function AdminPage() {
  const { t } = useLingui();
  useDocumentTitle(t({ message: 'Admin', comment: 'The title of the instance admin’s page' }));
  const { session } = useSession();
  return (
    <div className="admin">
      <div>
        <PageHeading>
          <Trans comment="The title of the instance admin’s page">Admin</Trans>
        </PageHeading>
        <p className="account__intro">
          <Trans>Accounts on this server, invitations, the server's settings, and what admins did.</Trans>
        </p>
      </div>
      <AccountsSection myEmail={session.status === 'signedIn' ? session.user.email : ''} />
      <InviteSection />
      <SettingsSection />
      <AuditSection />
    </div>
  );
}
