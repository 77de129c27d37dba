import { Plural, useLingui } from '@lingui/react/macro';
import type { Label } from '#shared/schemas/labels.ts';
import { cx } from '#web/lib/cx.ts';
import { formatList, formatNumber } from '#web/lib/locale-format.ts';
import './labels.css';

/** One label: its name on its colour. The name always shows, so colour is never the only cue. */
export function LabelChip({ label, className }: { label: Pick<Label, 'name' | 'color'>; className?: string }) {
  return (
    <span className={cx('label-chip', `label-chip--${label.color}`, className)} title={label.name} dir="auto">
      {label.name}
    </span>
  );
}

interface LabelChipsProps {
  labels: readonly Label[];
  /**
   * A card: at most this many chips on one line, then "+N" (its name lists the rest), so a
   * card's height hardly grows and two cards still fit a phone's first screen.
   */
  max?: number;
  className?: string;
}

/** A task's labels, as a list named "Labels" (nothing when it has none). */
export function LabelChips({ labels, max, className }: LabelChipsProps) {
  const { t } = useLingui();
  if (labels.length === 0) return null;
  const shown = max === undefined ? labels : labels.slice(0, max);
  const rest = labels.slice(shown.length);
  const restCount = rest.length;
  const restShown = formatNumber(restCount);
  const restNames = formatList(rest.map((label) => label.name));
  return (
    <ul className={cx('label-chips', max !== undefined && 'label-chips--compact', className)} aria-label={t`Labels`}>
      {shown.map((label) => (
        <li key={label._id}>
          <LabelChip label={label} />
        </li>
      ))}
      {rest.length > 0 ? (
        <li>
          <span className="label-chip label-chip--more" title={restNames}>
            <span aria-hidden="true">+{restShown}</span>
            <span className="visually-hidden">
              <Plural value={restCount} one={`${restShown} more: ${restNames}`} other={`${restShown} more: ${restNames}`} />
            </span>
          </span>
        </li>
      ) : null}
    </ul>
  );
}
