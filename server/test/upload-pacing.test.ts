import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { paced, paceUpload, TURN_BYTES } from '../files/upload-pacing.ts';

/** Resolves after the current turn of the event loop (its check phase). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

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

  it("passes the body's error on", async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection cut'));
      },
    });
    await expect(paced(failing).toArray()).rejects.toThrow('connection cut');
  });
});
