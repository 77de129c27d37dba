import { useCallback, useState } from 'react';
import type { BoardGroup } from './board-group.ts';

/*
 * The lanes of a grouped board and the groups of a grouped table that are collapsed: the device
 * remembers them per board ("" for "All my tasks") and per grouping field, so a reload, or
 * coming back to the board, shows them as they were left. The board and the table share them:
 * a group collapsed in one is collapsed in the other.
 */

/** At most this many keys are kept for one board and field (groups long gone are dropped first). */
const KEPT_MAX = 200;

/** The device's collapsed groups of a board grouped by `group`. */
export const collapsedStorageKey = (boardId: string, group: BoardGroup) => `taskwise-collapsed:${boardId || 'all'}:${group}`;

export function rememberedCollapsed(boardId: string, group: BoardGroup): ReadonlySet<string> {
  if (group === 'none') return new Set();
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(collapsedStorageKey(boardId, group)) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : []);
  } catch {
    // Storage refused, or not what this module wrote: nothing remembered.
    return new Set();
  }
}

export function rememberCollapsed(boardId: string, group: BoardGroup, keys: ReadonlySet<string>): void {
  try {
    const storageKey = collapsedStorageKey(boardId, group);
    if (keys.size === 0) localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, JSON.stringify([...keys].slice(-KEPT_MAX)));
  } catch {
    // Not remembered; still collapsed on screen.
  }
}

/** The collapsed groups of a board grouped by `group`, and the way to collapse or expand one (remembered). */
export function useCollapsedGroups(boardId: string, group: BoardGroup): [ReadonlySet<string>, (key: string) => void] {
  const scope = collapsedStorageKey(boardId, group);
  const [state, setState] = useState(() => ({ scope, keys: rememberedCollapsed(boardId, group) }));
  // Another board or field: its own remembered groups (set while rendering, as React allows for state derived from props).
  let current = state;
  if (state.scope !== scope) {
    current = { scope, keys: rememberedCollapsed(boardId, group) };
    setState(current);
  }
  const toggle = useCallback(
    (key: string) => {
      setState((current) => {
        const next = new Set(current.scope === scope ? current.keys : rememberedCollapsed(boardId, group));
        if (!next.delete(key)) next.add(key);
        rememberCollapsed(boardId, group, next);
        return { scope, keys: next };
      });
    },
    [scope, boardId, group],
  );
  return [current.keys, toggle];
}
