import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useEffect } from 'react';

export const APP_NAME = 'Taskwise';

/** The browser tab's title for a page: "{page} · Taskwise" (or just the app name), in the language in use. */
export function documentTitle(page: string | null): string {
  return page ? t({ message: `${page} · Taskwise`, comment: 'The browser tab’s title: the page’s name, then the app’s' }) : APP_NAME;
}

/** Sets `document.title` to `documentTitle(page)` while mounted; callers pass the page's name as a message. */
export function useDocumentTitle(page: string | null): void {
  // Rendered again when the language changes, so the title follows.
  useLingui();
  const title = documentTitle(page);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
