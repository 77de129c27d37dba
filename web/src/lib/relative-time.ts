import { formatLocale } from './locale-format.ts';

/** Relative times ("2 hours ago", "in 3 days") in the language in use, for deadlines, activity and notifications. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** Made when first used in a language (never at the module's top, which would fix the first page's). */
function relativeFormat(): Intl.RelativeTimeFormat {
  const locale = formatLocale();
  let format = relativeFormats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale, format);
  }
  return format;
}

/** "in 3 days", "2 hours ago", "tomorrow", "now". */
export function formatRelative(date: Date, now: Date): string {
  const diff = date.getTime() - now.getTime();
  const abs = Math.abs(diff);
  const [unit, size]: [Intl.RelativeTimeFormatUnit, number] =
    abs < MINUTE
      ? ['second', 1000]
      : abs < HOUR
        ? ['minute', MINUTE]
        : abs < DAY
          ? ['hour', HOUR]
          : abs < WEEK
            ? ['day', DAY]
            : abs < MONTH
              ? ['week', WEEK]
              : abs < YEAR
                ? ['month', MONTH]
                : ['year', YEAR];
  if (unit === 'second') return relativeFormat().format(0, 'second');
  return relativeFormat().format(Math.round(diff / size), unit);
}
