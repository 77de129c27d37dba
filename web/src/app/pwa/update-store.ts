/**
 * Whether a new version of the app is waiting, and the action that switches to it. The
 * registration (register-service-worker.ts, loaded after the page) sets it; the prompt
 * (update-prompt.tsx) reads it. Kept apart from the registration so the first page load
 * carries only these few lines.
 */
export type ApplyUpdate = () => void;

let apply: ApplyUpdate | null = null;
const listeners = new Set<() => void>();

export function offerUpdate(action: ApplyUpdate): void {
  apply = action;
  for (const listener of listeners) listener();
}

export function subscribeToUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The action that loads the new version, or null while the running one is current. */
export const pendingUpdate = (): ApplyUpdate | null => apply;
