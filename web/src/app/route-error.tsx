import { Button } from '#web/components/button.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import './routes/status-page.css';

/** What a page shows when it fails to render or its code cannot be loaded: a way out. */
export function RouteError({ error }: { error: unknown }) {
  useDocumentTitle('Something went wrong');
  const detail = error instanceof Error ? error.message : 'Unknown error';
  return (
    <div className="page status-page" role="alert">
      <p className="status-page__code">Error</p>
      <h1 className="status-page__title">Something went wrong</h1>
      <p className="status-page__text">The page could not be shown; reloading usually helps. ({detail})</p>
      <div className="status-page__actions">
        <Button
          variant="primary"
          onClick={() => {
            window.location.reload();
          }}
        >
          Reload the page
        </Button>
        <a className="btn btn--secondary btn--md" href="/">
          Go home
        </a>
      </div>
    </div>
  );
}
