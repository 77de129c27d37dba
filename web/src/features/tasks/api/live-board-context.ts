import { createContext, use, useSyncExternalStore } from 'react';
import type { Person } from '#shared/schemas/comments.ts';
import type { Task, UpdateTaskBody } from '#shared/schemas/tasks.ts';
import { createOutlet } from '#web/lib/write-queue.ts';

/**
 * Per-tab state of the live board, shared by the board, its cards and the task mutations:
 * who is looking, whether the event stream is open, which cards just changed (highlighted for
 * a moment), who last changed a task (named in the conflict dialog), and the conflicts waiting
 * for the person's decision.
 */

/** Who is looking at the board: decides the "assigned to you" wording of live messages. */
export type Viewer = Person;

/** How long a card changed by someone else stays highlighted. */
export const HIGHLIGHT_MS = 2_500;

/** A save the server refused with 409: the task changed since the client last saw it. */
export interface Conflict {
  kind: 'update' | 'delete' | 'move';
  /** The copy the change was based on. */
  base: Task;
  /** The task as it is now on the server. */
  theirs: Task;
  /** What this person tried (empty for a delete). */
  mine: UpdateTaskBody;
  /** For a move: where this person put the card ("Apply mine on top" moves it there again). */
  move?: TaskPlace;
}

/** A spot on a board: the column, its category (the status a task has there), and the task it follows (null: the top). */
export interface TaskPlace {
  columnId: string;
  category: Task['status'];
  afterId: string | null;
}

/**
 * Conflicts found by the queue's answer handlers (queued-task-writes.ts), which run outside
 * React: the live board takes them into its list as it mounts, and as they come.
 */
export const taskConflicts = createOutlet<Conflict>();

type Listener = () => void;

function createEmitter() {
  const listeners = new Set<Listener>();
  return {
    subscribe: (listener: Listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit: () => {
      for (const listener of listeners) listener();
    },
  };
}

/**
 * How long a fetched list or count counts as current. While the event stream is open, for
 * good: every change reaches the cache, and what the cache cannot place is asked again
 * (list-refresh.ts). Without the stream, a second: long enough that a filter change takes the
 * answer its click asked for (task-board.tsx), short enough that a list shown again is asked again.
 */
export const JUST_FETCHED_MS = 1000;

export function createLiveBoardState(viewer: Viewer) {
  const streamEmitter = createEmitter();
  let streamOpen = false;
  const highlightEmitter = createEmitter();
  const highlighted = new Map<string, ReturnType<typeof setTimeout>>();
  const conflictEmitter = createEmitter();
  let conflicts: readonly Conflict[] = [];
  const editors = new Map<string, Viewer>();

  return {
    viewer,
    stream: {
      subscribe: streamEmitter.subscribe,
      isOpen: () => streamOpen,
      set: (open: boolean) => {
        if (open === streamOpen) return;
        streamOpen = open;
        streamEmitter.emit();
      },
    },
    highlights: {
      subscribe: highlightEmitter.subscribe,
      has: (id: string) => highlighted.has(id),
      flash(id: string) {
        clearTimeout(highlighted.get(id));
        highlighted.set(
          id,
          setTimeout(() => {
            highlighted.delete(id);
            highlightEmitter.emit();
          }, HIGHLIGHT_MS),
        );
        highlightEmitter.emit();
      },
      clear() {
        for (const timer of highlighted.values()) clearTimeout(timer);
        highlighted.clear();
      },
    },
    conflicts: {
      subscribe: conflictEmitter.subscribe,
      current: () => conflicts[0] ?? null,
      add(conflict: Conflict) {
        // One decision per task: a newer conflict about the same task replaces the older one.
        conflicts = [...conflicts.filter((c) => c.base._id !== conflict.base._id), conflict];
        conflictEmitter.emit();
      },
      resolve(conflict: Conflict) {
        conflicts = conflicts.filter((c) => c !== conflict);
        conflictEmitter.emit();
      },
    },
    /** The last person other than the viewer whose change to a task arrived live. */
    editors: {
      get: (id: string) => editors.get(id),
      set: (id: string, by: Viewer) => editors.set(id, by),
    },
  };
}

export type LiveBoardState = ReturnType<typeof createLiveBoardState>;

export const LiveBoardContext = createContext<LiveBoardState | null>(null);

export function useLiveBoard(): LiveBoardState {
  const state = use(LiveBoardContext);
  if (!state) throw new Error('useLiveBoard() needs a <LiveBoardProvider>.');
  return state;
}

/** Whether the tab's event stream is open now. */
export function useLiveStreamOpen(): boolean {
  const { stream } = useLiveBoard();
  return useSyncExternalStore(stream.subscribe, stream.isOpen);
}

/** The `staleTime` of the board's lists and counts now (see JUST_FETCHED_MS). */
export function useBoardStaleTime(): number {
  return useLiveStreamOpen() ? Infinity : JUST_FETCHED_MS;
}

/** Whether the card of task `id` is highlighted right now. */
export function useTaskHighlight(id: string): boolean {
  const { highlights } = useLiveBoard();
  return useSyncExternalStore(highlights.subscribe, () => highlights.has(id));
}

/** The conflict the person should decide first, if any. */
export function useCurrentConflict(): Conflict | null {
  const { conflicts } = useLiveBoard();
  return useSyncExternalStore(conflicts.subscribe, conflicts.current);
}
