import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import type { PublicUser } from '#shared/schemas/users.ts';
import { LiveBoardProvider } from '#web/features/tasks/components/live-board.tsx';
import { AccountPreferences } from './account-preferences.tsx';
import { BoardScopeProvider } from './board-scope.tsx';
import { LIVE_EVENT_HANDLERS } from './live-events.ts';
import { SecondStepGate } from './second-step-gate.tsx';
import { registerQueuedWrites } from './write-queue.ts';

export { BoardSidebar } from '#web/features/boards/components/board-switcher.tsx';
export { SignedInNav } from './signed-in-nav.tsx';

/*
 * What only a signed-in person's pages need, in a chunk of its own (loaded lazily by guards.tsx
 * and root-layout.tsx, and early by main.tsx when the tab starts signed in): the live stream and
 * its event handlers, the conflict dialog, the boards and their switcher, the queue of changes
 * (app/write-queue.ts) and the task cache writes they share. /login and /sign-up never download it.
 */

/** The pages of a confirmed session: the live stream (one per signed-in person) and the board scope around them. */
export function SignedInOutlet({ viewer }: { viewer: PublicUser }) {
  // Before any page below can make a change (a tab that started signed in registered them in
  // main.tsx already; a second call does nothing).
  registerQueuedWrites(useQueryClient());
  return (
    <>
      {/* The account's language also for the second-step set-up screen. */}
      <AccountPreferences />
      {/* The board scope is outside the live board: its conflict dialog names a board's columns. */}
      <SecondStepGate>
        <BoardScopeProvider>
          <LiveBoardProvider key={viewer.email} viewer={viewer} handlers={LIVE_EVENT_HANDLERS}>
            <Outlet />
          </LiveBoardProvider>
        </BoardScopeProvider>
      </SecondStepGate>
    </>
  );
}
