import { useEffect } from 'react';

export const APP_NAME = 'Taskwise';

/** Sets `document.title` to "{page} · Taskwise" (or just the app name) while mounted. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    document.title = page ? `${page} · ${APP_NAME}` : APP_NAME;
  }, [page]);
}
