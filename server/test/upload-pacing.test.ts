import pLimit from 'p-limit';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { nextTurn, paced, paceUpload, TURN_BYTES } from '../files/upload-pacing.ts';

describe('upload pacing', () => {
  it('lets TURN_BYTES through in a turn and holds the rest for later turns, first come first served', async () => {
    await nextTurn();
    const order: string[] = [];
    const chunk = TURN_BYTES / 2;
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      const turn = paceUpload(chunk);
      if (turn === undefined) order.push(`${name} now`);
      else void turn.then(() => order.push(`${name} later`));
    }
    expect(order).toEqual(['a now', 'b now']);
    await nextTurn();
    expect(order).toEqual(['a now', 'b now', 'c later', 'd later']);
    await nextTurn();
    expect(order).toEqual(['a now', 'b now', 'c later', 'd later', 'e later']);
  });

  it('lets a chunk larger than a whole turn through on a turn of its own', async () => {
    await nextTurn();
    expect(paceUpload(TURN_BYTES * 3)).toBeUndefined();
    const big = paceUpload(TURN_BYTES * 3);
    const small = paceUpload(1);
    let done = '';
    void big?.then(() => (done += 'big '));
    void small?.then(() => (done += 'small'));
    await nextTurn();
    expect(done).toBe('big ');
    await nextTurn();
    expect(done).toBe('big small');
  });

  it('lets other callbacks run between the turns of a large body, and passes every byte in order', async () => {
    await nextTurn();
    const chunks = Array.from({ length: 16 }, (_, i) => Buffer.alloc(TURN_BYTES / 4, i));
    // Another piece of work that wants every turn of the loop.
    let othersRan = 0;
    let stopped = false;
    const other = () => {
      othersRan += 1;
      if (!stopped) setImmediate(other);
    };
    setImmediate(other);
    try {
      const received: Buffer[] = [];
      for await (const data of paced(Readable.from(chunks))) received.push(data as Buffer);
      expect(Buffer.concat(received).equals(Buffer.concat(chunks))).toBe(true);
      // Sixteen quarter-turns take four turns at least, and the other work ran in each.
      expect(othersRan).toBeGreaterThanOrEqual(3);
    } finally {
      stopped = true;
    }
  });

  it('starts queued writes in turns of their own, so the loop handles what arrived between them', async () => {
    await nextTurn();
    // The way an upload's row write waits: at most two at once, each starting with nextTurn.
    const writes = pLimit(2);
    const order: string[] = [];
    let stopped = false;
    const loop = () => {
      order.push('turn');
      if (!stopped) setImmediate(loop);
    };
    setImmediate(loop);
    // Six writes that finish at once, each "committing" synchronously, as a SQLite transaction does.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        writes(async () => {
          await nextTurn();
          order.push(`write ${i}`);
        }),
      ),
    );
    stopped = true;
    const runs = order.join(' ').split('turn').map((run) => run.trim()).filter((run) => run !== '');
    // Never more than the two running at once between two turns of the loop.
    expect(runs.every((run) => run.split('write').length - 1 <= 2)).toBe(true);
    expect(order.filter((step) => step.startsWith('write'))).toHaveLength(6);
  });

  it("passes the body's error on", async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection cut'));
      },
    });
    await expect(paced(failing).toArray()).rejects.toThrow('connection cut');
  });
});
