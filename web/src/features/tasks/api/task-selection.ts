import { useCallback, useSyncExternalStore } from 'react';

/*
 * The tasks picked for a change of many at once: one selection per tab, shared by the table's
 * rows and the board's cards, read by the bulk bar. Kept outside React's tree so a card asks
 * only whether it is selected (it re-renders when that answer changes, not on every pick).
 * The board page clears it when its board or filter changes: a selection is of what is shown.
 */

export interface TaskSelection {
  ids: ReadonlySet<string>;
  /** The last task picked on its own: where a Shift+click range starts. */
  anchor: string | null;
}

const EMPTY: TaskSelection = { ids: new Set(), anchor: null };
let current: TaskSelection = EMPTY;
const listeners = new Set<() => void>();

function set(next: TaskSelection): void {
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const taskSelection = {
  get: (): TaskSelection => current,
  subscribe,
  /** Picks or drops one task; it becomes the anchor of a range. */
  toggle(id: string): void {
    const ids = new Set(current.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    set({ ids, anchor: id });
  },
  /**
   * Adds every task from the anchor to `id` (both included) in the order shown (`order`); with
   * no anchor among them, picks `id` alone. The anchor stays, so a second Shift+click re-ranges.
   */
  range(order: readonly string[], id: string): void {
    const from = current.anchor === null ? -1 : order.indexOf(current.anchor);
    const to = order.indexOf(id);
    if (from < 0 || to < 0) {
      taskSelection.toggle(id);
      return;
    }
    const ids = new Set(current.ids);
    for (const at of order.slice(Math.min(from, to), Math.max(from, to) + 1)) ids.add(at);
    set({ ids, anchor: current.anchor });
  },
  /** Exactly these tasks (select all). */
  only(ids: readonly string[]): void {
    set({ ids: new Set(ids), anchor: null });
  },
  /** Takes tasks out (deleted, or no longer shown). */
  drop(ids: readonly string[]): void {
    if (!ids.some((id) => current.ids.has(id))) return;
    const next = new Set(current.ids);
    for (const id of ids) next.delete(id);
    set({ ids: next, anchor: current.anchor !== null && next.has(current.anchor) ? current.anchor : null });
  },
  clear(): void {
    if (current.ids.size > 0 || current.anchor !== null) set(EMPTY);
  },
};

/** The whole selection (the bar, the table's header checkbox). */
export function useTaskSelection(): TaskSelection {
  return useSyncExternalStore(subscribe, taskSelection.get);
}

/** Whether one task is selected (a card, a row): changes only when that answer does. */
export function useIsSelected(id: string): boolean {
  return useSyncExternalStore(
    subscribe,
    useCallback(() => current.ids.has(id), [id]),
  );
}
