import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { INLINE_IMAGE_TYPES } from '#shared/schemas/attachments.ts';
import { detectType, hasThumbnail, makeThumbnail, TYPE_HEAD_BYTES } from '../files/inspect.ts';
import { isPostgres } from './helpers.ts';

/** Types from real bytes and thumbnails from real images. No database: the SQLite project only. */
const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });

/** Bytes that look like nothing: a hash chain, so the same every run, with NUL bytes and invalid UTF-8 in it. */
function noise(length: number): Buffer {
  const out = Buffer.alloc(length);
  let block = createHash('sha256').update('noise').digest();
  for (let i = 0; i < length; i += 32) {
    block.copy(out, i);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** A ZIP archive with one stored (uncompressed) file, as the format describes it. */
function zipOf(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name);
  const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  // From "version needed" to "extra field length": the same in the local header and the central directory.
  const fields = Buffer.concat([u16(20), u16(0), u16(0), u32(0), u32(crc32(content)), u32(content.length), u32(content.length), u16(fileName.length), u16(0)]);
  const local = Buffer.concat([u32(0x04034b50), fields, fileName, content]);
  // Made by, the fields, then comment length, disk, internal and external attributes, and the local header's offset (0).
  const central = Buffer.concat([u32(0x02014b50), u16(20), fields, u16(0), u16(0), u16(0), u32(0), u32(0), fileName]);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(1), u16(1), u32(central.length), u32(local.length), u16(0)]);
  return Buffer.concat([local, central, end]);
}

const headOf = (bytes: Buffer) => bytes.subarray(0, TYPE_HEAD_BYTES);

describe.skipIf(isPostgres)('detectType', () => {
  it('tells images, documents and archives by their bytes', async () => {
    const cases: [string, Buffer][] = [
      ['image/png', await solid(40, 30).png().toBuffer()],
      ['image/jpeg', await solid(40, 30).jpeg().toBuffer()],
      ['image/webp', await solid(40, 30).webp().toBuffer()],
      ['image/gif', await solid(40, 30).gif().toBuffer()],
      ['application/pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')],
      ['application/zip', zipOf('notes.txt', Buffer.from('inside the archive'))],
    ];
    for (const [type, bytes] of cases) expect(await detectType(headOf(bytes)), type).toBe(type);
  });

  it('knows SVG and XHTML by their root element, calls HTML and other UTF-8 text plain text, and shows none of them inline', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const html = '<!DOCTYPE html>\n<html><head><title>Page</title></head><body><script>alert(1)</script></body></html>';
    const xhtml = '<html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>';
    const known: [string, string][] = [
      ['image/svg+xml', svg],
      ['image/svg+xml', `<?xml version="1.0"?>\n${svg}`],
      ['image/svg+xml', `\ufeff${svg}`],
      ['application/xhtml+xml', xhtml],
      ['application/xml', '<?xml version="1.0"?>\n<invoice><total>12</total></invoice>'],
      ['text/plain', html],
      ['text/plain', 'Grüße aus Köln — 東京 ✓\n'.repeat(10)],
      // Before the root element the XML plugin gives up: plain text, a download as well.
      ['text/plain', `<!-- drawn by hand -->${svg}`],
    ];
    for (const [type, text] of known) {
      const found = await detectType(Buffer.from(text));
      expect(found, text).toBe(type);
      expect(INLINE_IMAGE_TYPES as readonly string[], text).not.toContain(found);
    }
    // The head may end inside a character: still text.
    const text = Buffer.from('ü'.repeat(TYPE_HEAD_BYTES));
    expect(await detectType(text.subarray(0, TYPE_HEAD_BYTES - 1))).toBe('text/plain');
  });

  it('calls bytes it does not know, text with NUL bytes or invalid UTF-8, and nothing, application/octet-stream', async () => {
    expect(await detectType(noise(10_000))).toBe('application/octet-stream');
    expect(await detectType(Buffer.from('text\u0000with a NUL'))).toBe('application/octet-stream');
    expect(await detectType(Buffer.from([0x61, 0x62, 0xc3, 0x28, 0x63]))).toBe('application/octet-stream');
    expect(await detectType(new Uint8Array())).toBe('application/octet-stream');
  });

  it('gives thumbnails to raster images only', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/tiff']) expect(hasThumbnail(type), type).toBe(true);
    for (const type of ['image/svg+xml', 'application/pdf', 'text/plain', 'application/octet-stream']) expect(hasThumbnail(type), type).toBe(false);
  });
});

describe.skipIf(isPostgres)('makeThumbnail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'taskwise-inspect-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  let files = 0;
  /** An image as each kind of input makeThumbnail takes: its bytes as a stream, and a file on disk by its path. */
  const inputs: [string, (bytes: Buffer) => string | Readable][] = [
    ['its bytes as a stream', (bytes) => Readable.from([bytes])],
    [
      'the path of its file',
      (bytes) => {
        const file = join(dir, `image-${++files}`);
        writeFileSync(file, bytes);
        return file;
      },
    ],
  ];
  const huge = () => sharp(Buffer.alloc(10_000 * 5100), { raw: { width: 10_000, height: 5100, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
  const photo640 = () => sharp(noise(640 * 480 * 3), { raw: { width: 640, height: 480, channels: 3 } }).jpeg().toBuffer();

  describe.each(inputs)('from %s', (_, from) => {
    it('makes a WebP at most 480 px wide with the aspect ratio kept, and gives the image’s own size', async () => {
      const thumb = await makeThumbnail(from(await solid(1200, 800).png().toBuffer()));
      expect(thumb).toMatchObject({ width: 1200, height: 800 });
      const meta = await sharp(thumb!.webp).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 480, height: 320 });

      // A small image is not enlarged.
      const small = await makeThumbnail(from(await solid(200, 100).gif().toBuffer()));
      expect(small).toMatchObject({ width: 200, height: 100 });
      expect(await sharp(small!.webp).metadata()).toMatchObject({ width: 200, height: 100 });
    });

    it('turns a photo upright by its EXIF orientation and keeps no metadata', async () => {
      // Stored 600×300, left half red, right half blue; orientation 6: shown turned a quarter clockwise, 300×600, red on top.
      const halves = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#0000ff' } })
        .composite([{ input: { create: { width: 300, height: 300, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
        .jpeg()
        .toBuffer();
      const photo = await sharp(halves)
        .withMetadata({ orientation: 6 })
        .withExif({ IFD0: { Copyright: 'Someone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
        .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
        .jpeg()
        .toBuffer();
      const original = await sharp(photo).metadata();
      expect(original).toMatchObject({ width: 600, height: 300, orientation: 6 });
      expect(original.exif).toBeDefined();
      expect(original.xmp).toBeDefined();

      const thumb = await makeThumbnail(from(photo));
      expect(thumb).toMatchObject({ width: 300, height: 600 });
      const meta = await sharp(thumb!.webp).metadata();
      expect(meta).toMatchObject({ width: 300, height: 600 });
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      const pixel = async (top: number) => (await sharp(thumb!.webp).extract({ left: 150, top, width: 1, height: 1 }).raw().toBuffer()).toJSON().data;
      const [upper, lower] = [await pixel(100), await pixel(500)];
      expect(upper[0]).toBeGreaterThan(200);
      expect(upper[2]).toBeLessThan(50);
      expect(lower[2]).toBeGreaterThan(200);
      expect(lower[0]).toBeLessThan(50);
    });

    it('gives none, without throwing, for an image over 50 megapixels, a truncated JPEG, or what is no image', async () => {
      const big = await huge();
      expect(await sharp(big).metadata()).toMatchObject({ width: 10_000, height: 5100 });
      const photo = await photo640();
      expect(await makeThumbnail(from(photo))).toBeDefined();
      const refused = { huge: big, truncated: photo.subarray(0, Math.floor(photo.length / 2)), text: Buffer.from('not an image at all') };
      for (const [name, bytes] of Object.entries(refused)) expect(await makeThumbnail(from(bytes)), name).toBeUndefined();
    });
  });

  it('closes the file whose stream it read, also when it makes no thumbnail', async () => {
    const photo = await photo640();
    for (const [name, bytes] of Object.entries({ photo, huge: await huge(), text: Buffer.from('not an image at all') })) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const stream = createReadStream(file);
      await makeThumbnail(stream);
      await expect.poll(() => stream.closed, { timeout: 1000 }).toBe(true);
    }
  });

  it('gives none when the stream fails', async () => {
    const failing = Readable.from(
      (async function* () {
        yield await solid(10, 10).png().toBuffer();
        throw new Error('read failed');
      })(),
    );
    expect(await makeThumbnail(failing)).toBeUndefined();
    expect(failing.destroyed).toBe(true);
  });
});
