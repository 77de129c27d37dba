import { PRIORITY_ORDER } from '#shared/constants.ts';
import { cx } from '#web/lib/cx.ts';
import type { PriorityFilter as Filter } from '../api/board-filter.ts';
import { PRIORITY_LABELS, PriorityIcon } from './priority.tsx';

const OPTIONS: readonly { value: Filter; label: string }[] = [
  { value: '', label: 'All Tasks' },
  ...PRIORITY_ORDER.map((p) => ({ value: p, label: PRIORITY_LABELS[p] })),
];

/** Toggle buttons (`aria-pressed`), one pressed at a time: the priority filter. */
export function PriorityFilter({ value, onChange }: { value: Filter; onChange: (value: Filter) => void }) {
  return (
    <div className="priority-filter" role="group" aria-label="Filter by priority">
      {OPTIONS.map((option) => (
        <button
          key={option.value || 'all'}
          type="button"
          className={cx('priority-filter__option', option.value && `priority--${option.value}`)}
          aria-pressed={value === option.value}
          onClick={() => {
            onChange(option.value);
          }}
        >
          {option.value ? <PriorityIcon priority={option.value} /> : null}
          {option.label}
        </button>
      ))}
    </div>
  );
}
