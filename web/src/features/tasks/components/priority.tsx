import { PRIORITY_ORDER, type Priority } from '#shared/constants.ts';
import { SelectField } from '#web/components/field.tsx';
import './priority.css';

export const PRIORITY_LABELS: Record<Priority, string> = {
  urgent: 'Urgent',
  high: 'High',
  normal: 'Normal',
  low: 'Low',
};

/** A shape per priority, so the badge never relies on colour alone (WCAG 1.4.1). */
const PRIORITY_ICONS: Record<Priority, string> = {
  urgent: 'M8 2.5 13 7.5H9.6v6H6.4v-6H3L8 2.5Z',
  high: 'M3.5 10 8 5.5l4.5 4.5',
  normal: 'M3.5 6.5h9M3.5 9.5h9',
  low: 'M3.5 6 8 10.5 12.5 6',
};

export function PriorityIcon({ priority }: { priority: Priority }) {
  const filled = priority === 'urgent';
  return (
    <svg className="priority-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path
        d={PRIORITY_ICONS[priority]}
        fill={filled ? 'currentColor' : 'none'}
        stroke={filled ? 'none' : 'currentColor'}
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function PriorityBadge({ priority }: { priority: Priority }) {
  return (
    <span className={`priority-badge priority-badge--${priority}`}>
      <PriorityIcon priority={priority} />
      {PRIORITY_LABELS[priority]}
      <span className="visually-hidden"> priority</span>
    </span>
  );
}

/** The "Priority" select of the task forms, most pressing first. */
export function PrioritySelect({ name, value, onChange }: { name?: string; value: Priority; onChange: (priority: Priority) => void }) {
  return (
    <SelectField
      label="Priority"
      name={name}
      value={value}
      onChange={(event) => {
        onChange(event.target.value as Priority);
      }}
    >
      {PRIORITY_ORDER.map((p) => (
        <option key={p} value={p}>
          {PRIORITY_LABELS[p]}
        </option>
      ))}
    </SelectField>
  );
}
