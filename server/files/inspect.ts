import { detectXml } from '@file-type/xml';
import { FileTypeParser } from 'file-type';
import type { Readable } from 'node:stream';
import sharp from 'sharp';

/**
 * What an uploaded file is, read from its bytes (never from its name or the type the browser
 * sent), and the thumbnail of an image.
 */

/**
 * How much of a file's beginning `detectType` wants: file-type reads 4,100 bytes for most
 * formats; more lets it look further into ZIP-based ones (Office documents, EPUB).
 */
export const TYPE_HEAD_BYTES = 64 * 1024;

/** A strict decoder: invalid UTF-8 throws. */
const utf8 = () => new TextDecoder('utf-8', { fatal: true });

/**
 * file-type with its maintainers' XML plugin: XML is told apart by its root element and
 * namespace, so an SVG is `image/svg+xml` and XHTML `application/xhtml+xml` (both downloads,
 * never shown: docs/decisions/144-files-served-as-downloads-in-a-sandbox.md).
 */
const parser = new FileTypeParser({ customDetectors: [detectXml] });

/**
 * The media type of a file from its first bytes (up to TYPE_HEAD_BYTES, or the whole file when
 * shorter): what file-type and its XML plugin recognise, else `text/plain` for valid UTF-8
 * without NUL bytes, else `application/octet-stream`. Text formats they do not know (HTML, or an
 * SVG that starts with a comment) are therefore `text/plain`.
 */
export async function detectType(head: Uint8Array): Promise<string> {
  const found = await parser.fromBuffer(head);
  if (found !== undefined) return found.mime;
  if (head.length === 0 || head.includes(0)) return 'application/octet-stream';
  try {
    // `stream`: a character cut off at the end of the head is not an error.
    utf8().decode(head, { stream: true });
    return 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}

/** The detected types that get a thumbnail: raster images sharp decodes. */
export const THUMBNAIL_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/tiff'];

export const hasThumbnail = (type: string): boolean => THUMBNAIL_TYPES.includes(type);

/** Images larger than this (pixels, width × height) get no thumbnail: decoding them would take too much memory. */
export const MAX_THUMBNAIL_INPUT_PIXELS = 50_000_000;
export const THUMBNAIL_WIDTH = 480;

/** What `makeThumbnail` reads of a stream at the most; a larger one gets no thumbnail. */
const MAX_IMAGE_BYTES = 256 * 1024 * 1024;

/** The stream's bytes, or undefined when it holds more than `limit` (it is then destroyed) or fails. */
async function readAll(input: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of input) {
      size += (chunk as Buffer).length;
      // Leaving the loop destroys the stream, which closes its file.
      if (size > limit) return undefined;
      chunks.push(chunk as Buffer);
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks);
}

/**
 * A WebP at most 480 px wide (never enlarged, aspect ratio kept), turned upright by its EXIF
 * orientation and without metadata, and the image's own width and height as shown (orientation
 * applied). Undefined, never an error, for a broken image or one over 50 megapixels.
 *
 * `input` is the path of the file on this machine's disk, or its bytes as a stream. From a path,
 * sharp (libvips) reads the file as it decodes, so a large image is never held whole in memory:
 * a 49-megapixel PNG of 146 MiB costs 41 MiB of memory from its path, 187 MiB from its bytes. A
 * stream is read whole first (sharp buffers a stream whole before decoding anyway), to its end
 * or destroyed, so no file stays open; a failing stream is then an ordinary error. Either way the
 * pixel limit is checked from the header before anything is decoded, and a JPEG is decoded at a
 * fraction of its size (shrink-on-load), which keeps a 24-megapixel photo well under a second.
 */
export async function makeThumbnail(input: string | Readable): Promise<{ webp: Buffer; width: number; height: number } | undefined> {
  const source = typeof input === 'string' ? input : await readAll(input, MAX_IMAGE_BYTES);
  if (source === undefined) return undefined;
  try {
    // failOn 'warning' (sharp's default): a truncated or corrupt image fails instead of coming out half grey.
    const image = sharp(source, { limitInputPixels: MAX_THUMBNAIL_INPUT_PIXELS, failOn: 'warning' });
    const { width, height, autoOrient } = await image.metadata();
    if (width * height > MAX_THUMBNAIL_INPUT_PIXELS) return undefined;
    // sharp writes no metadata unless asked (keepMetadata, withMetadata, keepExif…): the thumbnail carries no EXIF, XMP or GPS.
    const webp = await image.autoOrient().resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
    return { webp, width: autoOrient.width, height: autoOrient.height };
  } catch {
    return undefined;
  }
}
