import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '#web/components/button.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import './routes/status-page.css';

/** What a page shows when it fails to render or its code cannot be loaded: a way out. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useLingui();
  useDocumentTitle(t`Something went wrong`);
  const detail = error instanceof Error ? error.message : t`Unknown error`;
  return (
    <div className="page status-page" role="alert">
      <p className="status-page__code">
        <Trans comment="Above the heading of a page that failed to show">Error</Trans>
      </p>
      <h1 className="status-page__title">
        <Trans>Something went wrong</Trans>
      </h1>
      <p className="status-page__text">
        <Trans comment="detail: the browser’s or the app’s own words for the failure (often English)">
          The page could not be shown; reloading usually helps. ({detail})
        </Trans>
      </p>
      <div className="status-page__actions">
        <Button
          variant="primary"
          onClick={() => {
            window.location.reload();
          }}
        >
          <Trans>Reload the page</Trans>
        </Button>
        <a className="btn btn--secondary btn--md" href="/">
          <Trans>Go home</Trans>
        </a>
      </div>
    </div>
  );
}
