/** What the runner gives each lane. */
export interface LaneContext {
  /** Set once shutdown has begun: start nothing new. */
  stopping(): boolean;
  /** Asks for a round of every lane soon (e.g. after a lane wrote a mail itself). */
  wake(): void;
}

/**
 * One lane of the outbox: the rows it claims (its own `kind`s, on its own index), the sender it
 * hands them to and how it records what came of them. The runner decides when it runs.
 */
export interface Lane {
  /** A round (after a wake or a poll): claim what is due and deliver it, without waiting. Never throws. */
  start(): void;
  /**
   * For `drain`: one claim and the deliveries it starts, resolved once they are all recorded.
   * True when it claimed anything (the drain then goes round once more).
   */
  drainPass(): Promise<boolean>;
  /**
   * How many deliveries of the lane have ended so far, when an ended one may have written rows
   * of its own (a failing webhook that is paused mails its admins): a change during a drain's
   * passes makes it go round once more.
   */
  ended(): number;
  /** Nothing of the lane is running (a round started during another lane's pass keeps the drain going). */
  idle(): boolean;
  /** Shutdown (`stopping()` is already true): lets the sends in progress finish, gives back what it claimed and did not start. */
  stop(): Promise<void>;
}

/**
 * Runs the outbox lanes: a round of every lane `gatherMs` after a wake (a local commit calls
 * `wake`; a burst of commits makes one round) and every `pollMs` (rows written by other
 * instances, retries coming due); `drain` until nothing is due; `stop` on shutdown. It knows
 * nothing of what a lane sends.
 */
export function createLaneRunner(options: { gatherMs: number; pollMs: number }, makeLanes: (context: LaneContext) => Lane[]) {
  let stopping = false;
  let gathering: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;

  const startRound = () => {
    gathering = undefined;
    if (stopping) return;
    for (const lane of lanes) lane.start();
  };
  const wake = () => {
    if (stopping || gathering !== undefined) return;
    gathering = setTimeout(startRound, options.gatherMs);
  };
  const lanes = makeLanes({ stopping: () => stopping, wake });

  return {
    /** Starts a round of every lane `gatherMs` from now; never waits, never throws. */
    wake,
    /** Starts the lanes: a round now, and one every `pollMs`. */
    start() {
      wake();
      poll = setInterval(wake, options.pollMs);
      poll.unref();
    },
    /** Delivers every due row, and resolves once this instance has nothing due left in any lane. */
    async drain(): Promise<void> {
      for (;;) {
        const ended = lanes.map((lane) => lane.ended());
        let claimed = false;
        for (const lane of lanes) if (await lane.drainPass()) claimed = true;
        if (!claimed && lanes.every((lane, i) => lane.ended() === ended[i] && lane.idle())) return;
      }
    },
    /** Shutdown: no new rounds; each lane finishes its sends in progress and gives back the rest. */
    async stop(): Promise<void> {
      stopping = true;
      clearInterval(poll);
      clearTimeout(gathering);
      for (const lane of lanes) await lane.stop();
    },
  };
}
