import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { PRIORITY_ORDER, type Priority } from '#shared/constants.ts';
import { SelectField } from '#web/components/field.tsx';
import './priority.css';

const PRIORITY_NAMES: Record<Priority, MessageDescriptor> = {
  urgent: msg({ message: 'Urgent', comment: 'A task’s priority' }),
  high: msg({ message: 'High', comment: 'A task’s priority' }),
  normal: msg({ message: 'Normal', comment: 'A task’s priority' }),
  low: msg({ message: 'Low', comment: 'A task’s priority' }),
};

/**
 * A priority's name in the language in use: each read (at render) translates it, so the table
 * can be indexed like a record of strings.
 */
export const PRIORITY_LABELS: Readonly<Record<Priority, string>> = {
  get urgent() {
    return i18n._(PRIORITY_NAMES.urgent);
  },
  get high() {
    return i18n._(PRIORITY_NAMES.high);
  },
  get normal() {
    return i18n._(PRIORITY_NAMES.normal);
  },
  get low() {
    return i18n._(PRIORITY_NAMES.low);
  },
};

/** "Urgent priority": a priority said in full (a tooltip, a screen reader). */
export const PRIORITY_PHRASES: Record<Priority, MessageDescriptor> = {
  urgent: msg`Urgent priority`,
  high: msg`High priority`,
  normal: msg`Normal priority`,
  low: msg`Low priority`,
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

/** The badge's words: the priority on screen, "priority" after it for screen readers. */
function BadgeText({ priority }: { priority: Priority }) {
  switch (priority) {
    case 'urgent':
      return (
        <Trans>
          Urgent<span className="visually-hidden"> priority</span>
        </Trans>
      );
    case 'high':
      return (
        <Trans>
          High<span className="visually-hidden"> priority</span>
        </Trans>
      );
    case 'normal':
      return (
        <Trans>
          Normal<span className="visually-hidden"> priority</span>
        </Trans>
      );
    case 'low':
      return (
        <Trans>
          Low<span className="visually-hidden"> priority</span>
        </Trans>
      );
  }
}

export function PriorityBadge({ priority }: { priority: Priority }) {
  return (
    <span className={`priority-badge priority-badge--${priority}`}>
      <PriorityIcon priority={priority} />
      <BadgeText priority={priority} />
    </span>
  );
}

/** The "Priority" select of the task forms, most pressing first. */
export function PrioritySelect({ name, value, onChange }: { name?: string; value: Priority; onChange: (priority: Priority) => void }) {
  const { t, i18n: lingui } = useLingui();
  return (
    <SelectField
      label={t`Priority`}
      name={name}
      value={value}
      onChange={(event) => {
        onChange(event.target.value as Priority);
      }}
    >
      {PRIORITY_ORDER.map((p) => (
        <option key={p} value={p}>
          {lingui._(PRIORITY_NAMES[p])}
        </option>
      ))}
    </SelectField>
  );
}
