import { useLingui } from '@lingui/react/macro';
import { PRIORITY_ORDER } from '#shared/constants.ts';
import { cx } from '#web/lib/cx.ts';
import type { PriorityFilter as Filter } from '../api/board-filter.ts';
import { PRIORITY_LABELS, PriorityIcon } from './priority.tsx';

const VALUES: readonly Filter[] = ['', ...PRIORITY_ORDER];

/** Toggle buttons (`aria-pressed`), one pressed at a time: the priority filter. */
export function PriorityFilter({ value, onChange }: { value: Filter; onChange: (value: Filter) => void }) {
  const { t } = useLingui();
  const options = VALUES.map((option) => ({ value: option, label: option ? PRIORITY_LABELS[option] : t`All Tasks` }));
  return (
    <div className="priority-filter" role="group" aria-label={t`Filter by priority`}>
      {options.map((option) => (
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
