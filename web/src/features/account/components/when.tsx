import { useLingui } from '@lingui/react';
import { dateTimeFormat } from '#web/lib/locale-format.ts';
import { formatRelative } from '#web/lib/relative-time.ts';

/** A date in a list of the account page: medium (or relative to `now`), the full one on hover. */
export function When({ iso, relative, now }: { iso: string; relative?: boolean; now: Date }) {
  // Subscribed to the language: a change of language shows the date in the new one.
  useLingui();
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={dateTimeFormat({ dateStyle: 'full', timeStyle: 'short' }).format(date)}>
      {relative === true ? formatRelative(date, now) : dateTimeFormat({ dateStyle: 'medium' }).format(date)}
    </time>
  );
}
