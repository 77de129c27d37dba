import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { numberFormat } from '#web/lib/locale-format.ts';

/** Sizes as people read them, in decimal units (1 MB = 1,000,000 bytes, as file managers and the server's limits count). */
const UNITS = [
  { unit: 'gigabyte', from: 1e9 },
  { unit: 'megabyte', from: 1e6 },
  { unit: 'kilobyte', from: 1e3 },
] as const;

/** "2.4 MB", "880 kB", "12 bytes", in the language in use (made when shown). */
export function formatSize(bytes: number): string {
  const step = UNITS.find(({ from }) => bytes >= from);
  return step
    ? numberFormat({ style: 'unit', unit: step.unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(bytes / step.from)
    : numberFormat({ style: 'unit', unit: 'byte', unitDisplay: 'long', maximumFractionDigits: 1 }).format(bytes);
}

/** Media types with a short everyday name; any other is shown as the media type itself. */
const TYPE_WORDS: Record<string, MessageDescriptor> = {
  'application/pdf': msg({ message: 'PDF', comment: 'The kind of an attached file' }),
  'application/zip': msg`ZIP archive`,
  'application/gzip': msg`Gzip archive`,
  'application/json': msg({ message: 'JSON', comment: 'The kind of an attached file' }),
  'application/msword': msg`Word document`,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': msg`Word document`,
  'application/vnd.ms-excel': msg`Excel spreadsheet`,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': msg`Excel spreadsheet`,
  'application/vnd.ms-powerpoint': msg`PowerPoint presentation`,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': msg`PowerPoint presentation`,
  'application/vnd.oasis.opendocument.text': msg`OpenDocument text`,
  'application/vnd.oasis.opendocument.spreadsheet': msg`OpenDocument spreadsheet`,
  'application/octet-stream': msg({ message: 'File', comment: 'The kind of an attached file whose type is not known' }),
  'text/plain': msg({ message: 'Text', comment: 'The kind of an attached file: plain text' }),
  'text/csv': msg({ message: 'CSV', comment: 'The kind of an attached file' }),
  'text/markdown': msg({ message: 'Markdown', comment: 'The kind of an attached file' }),
  'image/png': msg`PNG image`,
  'image/jpeg': msg`JPEG image`,
  'image/gif': msg`GIF image`,
  'image/webp': msg`WebP image`,
  'image/avif': msg`AVIF image`,
  'image/svg+xml': msg`SVG image`,
  'video/mp4': msg`MP4 video`,
  'audio/mpeg': msg`MP3 audio`,
};

/** "PDF", "PNG image", or the media type when it has no short name (in the language in use, when shown). */
export function typeInWords(type: string): string {
  const words = TYPE_WORDS[type];
  return words ? i18n._(words) : type;
}
