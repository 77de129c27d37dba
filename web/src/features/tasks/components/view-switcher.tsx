import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { SelectChevron } from '#web/components/field.tsx';
import { BOARD_VIEWS, type BoardView } from '../api/board-view-choice.ts';
import { PressedGroup } from './board-toolbar.tsx';

const VIEW_LABELS: Record<BoardView, MessageDescriptor> = {
  board: msg({ message: 'Board', comment: 'A way of seeing the board’s tasks: as cards in columns' }),
  table: msg({ message: 'Table', comment: 'A way of seeing the board’s tasks: as a table' }),
  calendar: msg({ message: 'Calendar', comment: 'A way of seeing the board’s tasks: on a calendar' }),
  timeline: msg({ message: 'Timeline', comment: 'A way of seeing the board’s tasks: as bars on a timeline' }),
};

/**
 * How the board's tasks are seen: its columns, a table, a calendar or a timeline. Wide screens
 * show the four as toggle buttons; a phone's one row of controls has room for a select.
 */
export function ViewSwitcher({ value, onChange, single = false }: { value: BoardView; onChange: (view: BoardView) => void; single?: boolean }) {
  const { t, i18n } = useLingui();
  const options: readonly { value: BoardView; label: string }[] = BOARD_VIEWS.map((view) => ({ value: view, label: i18n._(VIEW_LABELS[view]) }));
  const label = t({ message: 'View', comment: 'Label of the control that chooses how the board’s tasks are seen (board, table, calendar, timeline)' });
  if (single) {
    return (
      <div className="select-wrap view-switcher view-switcher--single">
        <select
          className="input select toolbar-field__control"
          aria-label={label}
          value={value}
          onChange={(event) => {
            onChange(event.target.value as BoardView);
          }}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <SelectChevron />
      </div>
    );
  }
  return <PressedGroup label={label} options={options} value={value} onChange={onChange} className="view-switcher" />;
}
