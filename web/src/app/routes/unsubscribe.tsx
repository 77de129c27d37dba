import { useSearchParams } from 'react-router';
import { PageHeading } from '#web/components/page-heading.tsx';
import { UnsubscribeResult } from '#web/features/account/components/unsubscribe-result.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
  const [params] = useSearchParams();
  return (
    <div className="account">
      <div className="account-section">
        <PageHeading>Unsubscribe</PageHeading>
        <UnsubscribeResult token={params.get('token') ?? ''} />
      </div>
    </div>
  );
}
