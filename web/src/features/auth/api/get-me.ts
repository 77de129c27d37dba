import type { PublicUser, UserEnvelope } from '#shared/schemas/users.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * The signed-in user. A 401 goes to the session's handler (signed out quietly), unless
 * `authenticated` is false: then the caller handles it.
 */
export async function getMe(signal?: AbortSignal, authenticated = true): Promise<PublicUser> {
  const envelope = await apiRequest<UserEnvelope>('/users/me', { signal, authenticated });
  return envelope.data.user;
}

let early: Promise<PublicUser> | undefined;

/**
 * Asks who is signed in as the page starts, before the first render, side by side with the
 * first screen's chunks (main.tsx), in a tab that starts signed in: the session's check would
 * otherwise wait for the render, and every page's data for the check. A 401 is not routed to
 * the session's handler, which is not listening yet: the session takes the answer
 * (`takeEarlyMe`) and handles it, with the same rules as its own check (a page being left
 * included: its `pagehide` makes it ignore the answer).
 */
export function askEarly(): Promise<void> {
  early = getMe(undefined, false);
  // Taken and handled by the session; never an unhandled rejection meanwhile. Resolves once
  // answered, either way (for tests that need the answer in before the first render).
  return early.then(
    () => undefined,
    () => undefined,
  );
}

/** The start-up question, once: the next caller gets `undefined` and asks again itself. */
export function takeEarlyMe(): Promise<PublicUser> | undefined {
  const taken = early;
  early = undefined;
  return taken;
}
