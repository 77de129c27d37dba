import { i18n } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { CLIENT_MESSAGES } from '#shared/messages.ts';
import { ButtonLink } from '#web/components/button.tsx';
import { PageHeading } from '#web/components/page-heading.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import './status-page.css';

export function NotFoundPage() {
  useDocumentTitle(i18n._(CLIENT_MESSAGES.pageNotFound));
  return (
    <div className="page status-page">
      <p className="status-page__code" aria-hidden="true">
        404
      </p>
      <PageHeading className="status-page__title">{i18n._(CLIENT_MESSAGES.pageNotFound)}</PageHeading>
      <p className="status-page__text">
        <Trans>The address may be mistyped, or the page has moved.</Trans>
      </p>
      <div className="status-page__actions">
        <ButtonLink to="/" variant="primary">
          <Trans>Go home</Trans>
        </ButtonLink>
      </div>
    </div>
  );
}
