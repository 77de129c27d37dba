import { Trans, useLingui } from '@lingui/react/macro';
import { useSearchParams } from 'react-router';
import { PageHeading } from '#web/components/page-heading.tsx';
import { UnsubscribeResult } from '#web/features/account/components/unsubscribe-result.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export function UnsubscribePage() {
  const { t } = useLingui();
  useDocumentTitle(t({ message: 'Unsubscribe', comment: 'The title of the page that stops a kind of mail' }));
  const [params] = useSearchParams();
  return (
    <div className="account">
      <div className="account-section">
        <PageHeading>
          <Trans comment="The title of the page that stops a kind of mail">Unsubscribe</Trans>
        </PageHeading>
        <UnsubscribeResult token={params.get('token') ?? ''} />
      </div>
    </div>
  );
}
