import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { createLiveBoardState, LiveBoardContext, taskConflicts, useLiveStreamOpen, type Viewer } from '../api/live-board-context.ts';
import { connectLiveEvents, type LiveEventHandlers } from '../api/live-events.ts';
import { ConflictDialog } from './conflict-dialog.tsx';

/** The polite live region that says who did what; data-stream tells tests (and a curious developer) whether the stream is open. */
function LiveRegion({ announcement }: { announcement: { id: number; text: string } | null }) {
  const streamOpen = useLiveStreamOpen();
  return (
    <div className="visually-hidden" aria-live="polite" data-testid="live-activity" data-stream={streamOpen ? 'open' : 'closed'}>
      {/* Always in the page, so a message added later is read out; a new node per message. */}
      {announcement ? <p key={announcement.id}>{announcement.text}</p> : null}
    </div>
  );
}

/**
 * Everything a signed-in tab needs to keep its board live: the one event stream (opened on
 * mount, closed on unmount — that is, on sign-out), the polite live region that says who did
 * what, and the conflict dialog. Mount it only once the session is confirmed. `handlers`: other
 * features' events on the same stream (the app passes the comments').
 *
 * Changes the viewer made themselves (in this tab or another) are applied without a word or a
 * highlight: they know what they did, and this tab already shows it.
 */
export function LiveBoardProvider({ viewer, handlers, children }: { viewer: Viewer; handlers?: readonly LiveEventHandlers[]; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state] = useState(() => createLiveBoardState(viewer));
  const [announcement, setAnnouncement] = useState<{ id: number; text: string } | null>(null);

  // Conflicts the queue's answers found (also those of changes restored from the device before this mounted).
  useEffect(
    () =>
      taskConflicts.attach(queryClient, (conflict) => {
        state.conflicts.add(conflict);
      }),
    [queryClient, state],
  );

  useEffect(() => {
    let sequence = 0;
    const close = connectLiveEvents(queryClient, state.viewer, {
      onChange: (change) => {
        if (change.own) return;
        state.editors.set(change.taskId, change.by);
        if (change.shown) state.highlights.flash(change.taskId);
        setAnnouncement({ id: ++sequence, text: change.message });
      },
      onStatus: state.stream.set,
      handlers,
    });
    return () => {
      close();
      state.highlights.clear();
    };
  }, [queryClient, state, handlers]);

  return (
    <LiveBoardContext value={state}>
      {children}
      <ConflictDialog />
      <LiveRegion announcement={announcement} />
    </LiveBoardContext>
  );
}
