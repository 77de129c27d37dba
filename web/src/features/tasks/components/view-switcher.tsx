import { SelectChevron } from '#web/components/field.tsx';
import { BOARD_VIEWS, type BoardView } from '../api/board-view-choice.ts';
import { PressedGroup } from './board-toolbar.tsx';

const OPTIONS: readonly { value: BoardView; label: string }[] = BOARD_VIEWS.map((value) => ({
  value,
  label: { board: 'Board', table: 'Table', calendar: 'Calendar', timeline: 'Timeline' }[value],
}));

/**
 * How the board's tasks are seen: its columns, a table, a calendar or a timeline. Wide screens
 * show the four as toggle buttons; a phone's one row of controls has room for a select.
 */
export function ViewSwitcher({ value, onChange, single = false }: { value: BoardView; onChange: (view: BoardView) => void; single?: boolean }) {
  if (single) {
    return (
      <div className="select-wrap view-switcher view-switcher--single">
        <select
          className="input select toolbar-field__control"
          aria-label="View"
          value={value}
          onChange={(event) => {
            onChange(event.target.value as BoardView);
          }}
        >
          {OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <SelectChevron />
      </div>
    );
  }
  return <PressedGroup label="View" options={OPTIONS} value={value} onChange={onChange} className="view-switcher" />;
}
