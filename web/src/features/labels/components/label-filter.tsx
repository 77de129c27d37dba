import { useLingui } from '@lingui/react/macro';
import { SelectField } from '#web/components/field.tsx';
import { cx } from '#web/lib/cx.ts';
import { useLabels } from '../api/get-labels.ts';
import './labels.css';

interface LabelFilterProps {
  boardId: string;
  /** The label's id; "" is every task. */
  value: string;
  onChange: (labelId: string) => void;
  className?: string;
}

/**
 * The board's label filter: a select of the board's labels ("All labels" clears it). A label
 * in the address that the board no longer has (deleted) still shows, so it can be cleared.
 */
export function LabelFilterSelect({ boardId, value, onChange, className }: LabelFilterProps) {
  const labels = useLabels(boardId).data ?? [];
  const known = value === '' || labels.some((label) => label._id === value);
  const { t } = useLingui();
  return (
    <SelectField
      label={t({ message: 'Label', comment: 'The board’s filter by label' })}
      fieldClassName={cx('toolbar-field', className)}
      className="toolbar-field__control"
      value={value}
      onChange={(event) => {
        onChange(event.target.value);
      }}
    >
      <option value="">{t`All labels`}</option>
      {known ? null : <option value={value}>{t`A deleted label`}</option>}
      {labels.map((label) => (
        <option key={label._id} value={label._id}>
          {label.name}
        </option>
      ))}
    </SelectField>
  );
}

/** The label filter in force, as its chip with a button that clears it (the phone's row, where the select is folded away). */
export function ActiveLabelFilter({ boardId, value, onChange }: LabelFilterProps) {
  const labels = useLabels(boardId).data;
  const { t } = useLingui();
  if (value === '') return null;
  const label = labels?.find((l) => l._id === value);
  const name = label?.name ?? (labels ? t`A deleted label` : '…');
  return (
    <button
      type="button"
      className={cx('label-filter-chip', 'label-chip', label && `label-chip--${label.color}`)}
      aria-label={t`Label filter: ${name}. Clear it`}
      onClick={() => {
        onChange('');
      }}
    >
      <span className="label-filter-chip__name" dir="auto">
        {name}
      </span>
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
        <path stroke="currentColor" strokeWidth="2" strokeLinecap="round" d="m4.5 4.5 7 7m0-7-7 7" />
      </svg>
    </button>
  );
}
