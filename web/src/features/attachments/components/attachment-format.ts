/** Sizes as people read them, in decimal units (1 MB = 1,000,000 bytes, as file managers and the server's limits count). */
const UNITS = [
  { unit: 'gigabyte', from: 1e9 },
  { unit: 'megabyte', from: 1e6 },
  { unit: 'kilobyte', from: 1e3 },
] as const;
const formats = new Map<string, Intl.NumberFormat>();
const formatOf = (unit: string, long: boolean) => {
  const key = `${unit}:${String(long)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'unit', unit, unitDisplay: long ? 'long' : 'short', maximumFractionDigits: 1 });
    formats.set(key, format);
  }
  return format;
};

/** "2.4 MB", "880 kB", "12 bytes". */
export function formatSize(bytes: number): string {
  const step = UNITS.find(({ from }) => bytes >= from);
  return step ? formatOf(step.unit, false).format(bytes / step.from) : formatOf('byte', true).format(bytes);
}

/** Media types with a short everyday name; any other is shown as the media type itself. */
const TYPE_WORDS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/zip': 'ZIP archive',
  'application/gzip': 'Gzip archive',
  'application/json': 'JSON',
  'application/msword': 'Word document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.ms-excel': 'Excel spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel spreadsheet',
  'application/vnd.ms-powerpoint': 'PowerPoint presentation',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint presentation',
  'application/vnd.oasis.opendocument.text': 'OpenDocument text',
  'application/vnd.oasis.opendocument.spreadsheet': 'OpenDocument spreadsheet',
  'application/octet-stream': 'File',
  'text/plain': 'Text',
  'text/csv': 'CSV',
  'text/markdown': 'Markdown',
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'image/avif': 'AVIF image',
  'image/svg+xml': 'SVG image',
  'video/mp4': 'MP4 video',
  'audio/mpeg': 'MP3 audio',
};

/** "PDF", "PNG image", or the media type when it has no short name. */
export const typeInWords = (type: string): string => TYPE_WORDS[type] ?? type;
