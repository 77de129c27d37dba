import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { SelectField } from '#web/components/field.tsx';
import { formatNumber } from '#web/lib/locale-format.ts';
import { displayName } from '#web/lib/product-names.ts';
import { BOARD_GROUPS, GROUP_LABELS, type BoardGroup } from '../api/board-group.ts';

/** How big the board's cards are: the full card with its actions, or a short one. */
export type CardSize = 'detailed' | 'compact';

/** The device's choice of card size (every board alike), kept across reloads. */
export const CARD_SIZE_KEY = 'taskwise-card-size';

function storedCardSize(): CardSize {
  try {
    return localStorage.getItem(CARD_SIZE_KEY) === 'compact' ? 'compact' : 'detailed';
  } catch {
    // Storage refused (a private window's quota, a policy): the default.
    return 'detailed';
  }
}

/** The card size this device chose (Detailed by default); setting it remembers it. */
export function useCardSize(): [CardSize, (size: CardSize) => void] {
  const [size, setSize] = useState<CardSize>(storedCardSize);
  const change = useCallback((next: CardSize) => {
    setSize(next);
    try {
      localStorage.setItem(CARD_SIZE_KEY, next);
    } catch {
      // Not remembered; still shown.
    }
  }, []);
  return [size, change];
}


/**
 * The size of the board's cards: one toggle button (`aria-pressed`), "Compact", in a group named
 * "Card size" — one button keeps the first row of controls (priority, view, size) on one line at
 * 1280 px beside the sidebar.
 */
export function CardSizeToggle({ value, onChange }: { value: CardSize; onChange: (size: CardSize) => void }) {
  const { t } = useLingui();
  return (
    <div className="card-size priority-filter" role="group" aria-label={t`Card size`}>
      <button
        type="button"
        className="priority-filter__option"
        aria-pressed={value === 'compact'}
        onClick={() => {
          onChange(value === 'compact' ? 'detailed' : 'compact');
        }}
      >
        <Trans comment="The toggle that shows the board's cards short">Compact</Trans>
      </button>
    </div>
  );
}

export interface SwitcherColumn {
  key: string;
  name: string;
  count: number | undefined;
}

/**
 * A phone's way between columns (one fills the width): a row of toggle buttons, one per
 * column with its count, scrolling sideways when the board has many. It stands in the shown
 * column's header, in place of its name.
 */
export function ColumnSwitcher({ columns, value, onChange }: { columns: readonly SwitcherColumn[]; value: string; onChange: (key: string) => void }) {
  const { t } = useLingui();
  return (
    <div className="column-switcher" role="group" aria-label={t`Column shown`}>
      {columns.map((column) => (
        <button
          key={column.key}
          type="button"
          className="priority-filter__option column-switcher__option"
          aria-pressed={column.key === value}
          onClick={() => {
            onChange(column.key);
          }}
        >
          {displayName(column.name)}
          {column.count === undefined ? null : <span className="column-switcher__count">{formatNumber(column.count)}</span>}
        </button>
      ))}
    </div>
  );
}

/** How the board and the table are grouped (`?group=`): none, assignee, priority or label. */
export function GroupSelect({ value, onChange }: { value: BoardGroup; onChange: (group: BoardGroup) => void }) {
  const { t, i18n } = useLingui();
  return (
    <SelectField
      label={t({ message: 'Group', comment: 'The select of how the board is grouped (by assignee, priority or label)' })}
      fieldClassName="toolbar-field"
      className="toolbar-field__control"
      value={value}
      onChange={(event) => {
        onChange(event.target.value as BoardGroup);
      }}
    >
      {BOARD_GROUPS.map((group) => (
        <option key={group} value={group}>
          {i18n._(GROUP_LABELS[group])}
        </option>
      ))}
    </SelectField>
  );
}
