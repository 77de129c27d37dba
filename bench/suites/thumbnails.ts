/**
 * Thumbnails: `makeThumbnail` (server/files/inspect.ts) on a 24-megapixel JPEG (6000×4000, a
 * colour gradient with noise, so it compresses like a photo rather than to nothing), given as the
 * server gives it: by its file's path (disk storage) and as a stream of its bytes (S3). p50 and
 * max of a few runs after one warm-up, each under 1 s.
 * sharp decodes a JPEG at a fraction of its size when the output is that much smaller
 * (shrink-on-load), which is what keeps this fast.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { makeThumbnail } from '../../server/files/inspect.ts';
import type { BenchSection, BenchSuite, TargetResult } from '../suite.ts';
import { kb, loadAverage, mb, median, ms, table } from '../lib/env.ts';

const WIDTH = 6000;
const HEIGHT = 4000;
const TARGET_MS = 1000;

/** A gradient across the picture with ±32 of noise on every channel. */
async function photoLikeJpeg(): Promise<Buffer> {
  const raw = randomBytes(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      const base = [(x * 255) / WIDTH, (y * 255) / HEIGHT, ((x + y) * 255) / (WIDTH + HEIGHT)];
      for (let c = 0; c < 3; c++) raw[i + c] = Math.max(0, Math.min(255, base[c]! + (raw[i + c]! >> 2) - 32));
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

export const suite: BenchSuite = {
  name: 'thumbnails',
  async run(opts): Promise<BenchSection[]> {
    const file = join(opts.tmpDir, 'photo-24mp.jpg');
    writeFileSync(file, await photoLikeJpeg());
    const runs = opts.quick ? 2 : 5;
    const inputs = [
      { name: 'its file’s path (disk storage)', input: () => file },
      { name: 'a stream of its bytes (S3)', input: () => createReadStream(file) },
    ];
    const targets: TargetResult[] = [];
    const rows: string[][] = [];
    for (const { name, input } of inputs) {
      const times: number[] = [];
      let thumbnail = { bytes: 0, width: 0, height: 0 };
      for (let i = 0; i <= runs; i++) {
        const started = performance.now();
        const made = await makeThumbnail(input());
        const elapsed = performance.now() - started;
        if (made === undefined) throw new Error(`makeThumbnail gave no thumbnail for the 24-megapixel JPEG from ${name}`);
        const meta = await sharp(made.webp).metadata();
        thumbnail = { bytes: made.webp.length, width: meta.width, height: meta.height };
        // The first run (i = 0) warms sharp up (libvips start, code loading) and is not counted.
        if (i > 0) times.push(elapsed);
      }
      const p50 = median(times);
      const max = Math.max(...times);
      opts.log(`thumbnails: 24 MP JPEG from ${name} → WebP ${thumbnail.width}×${thumbnail.height}: p50 ${ms(p50)} ms, max ${ms(max)} ms`);
      targets.push({
        name: `makeThumbnail, ${WIDTH}×${HEIGHT} JPEG (24 MP) from ${name} → ${thumbnail.width} px wide WebP: max of ${runs} runs`,
        target: `< ${TARGET_MS / 1000} s`,
        figure: `${ms(max)} ms`,
        met: opts.quick ? null : max < TARGET_MS,
      });
      rows.push([name, `${thumbnail.width}×${thumbnail.height} WebP, ${kb(thumbnail.bytes)} KiB`, `${ms(p50)} ms`, `${ms(max)} ms`, times.map((t) => ms(t)).join(', ')]);
    }
    const markdown = [
      `A ${WIDTH}×${HEIGHT} JPEG (quality 90, ${mb(statSync(file).size)} MiB: a gradient with noise), given by its file's path and as a file stream, ` +
        `${runs} runs of each after one warm-up, one after another. Load average after: ${loadAverage()}.`,
      '',
      table(['input', 'thumbnail', 'p50', 'max', 'runs (ms)'], rows),
    ].join('\n');
    return [{ title: 'Thumbnails: a 24-megapixel JPEG', markdown, targets }];
  },
};
