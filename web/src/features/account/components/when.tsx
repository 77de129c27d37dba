import { formatRelative } from '#web/lib/relative-time.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

/** A date in a list of the account page: medium (or relative to `now`), the full one on hover. */
export function When({ iso, relative, now }: { iso: string; relative?: boolean; now: Date }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={fullFormat.format(date)}>
      {relative === true ? formatRelative(date, now) : dateFormat.format(date)}
    </time>
  );
}
