import { onlineManager } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';

/** Online or not, as TanStack Query sees it (the app feeds it the browser's online events; it pauses queries and changes while offline). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    useCallback((onChange: () => void) => onlineManager.subscribe(onChange), []),
    () => onlineManager.isOnline(),
  );
}
