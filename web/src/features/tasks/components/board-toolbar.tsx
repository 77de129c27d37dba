import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useImperativeHandle, useRef, useState, type ReactNode, type Ref, type RefObject } from 'react';
import { buttonClass } from '#web/components/button.tsx';
import { SelectField } from '#web/components/field.tsx';
import { cx } from '#web/lib/cx.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { useMediaQuery } from '#web/lib/use-media-query.ts';
import { NARROW_SCREEN_QUERY, usePopover } from '#web/lib/use-popover.ts';
import { ActiveLabelFilter, LabelFilterSelect } from '#web/features/labels/components/label-filter.tsx';
import type { TaskView } from '#shared/constants.ts';
import { DEFAULT_FILTER, defaultSort, normalizeSearch, SEARCH_MAX_LENGTH, type BoardFilter, type BoardSort } from '../api/board-filter.ts';
import { PriorityFilter } from './priority-filter.tsx';
import './board-toolbar.css';

/** How long typing must pause before the search runs (and lands in the URL). */
export const SEARCH_DEBOUNCE_MS = 250;

const VIEWS: readonly { value: TaskView; label: MessageDescriptor }[] = [
  { value: 'all', label: msg({ message: 'All', comment: 'Show tasks: every task, whoever made or has it' }) },
  { value: 'assigned-to-me', label: msg`Assigned to me` },
  { value: 'created-by-me', label: msg`Created by me` },
];

const SORTS: readonly { value: BoardSort; label: MessageDescriptor }[] = [
  { value: 'position', label: msg({ message: 'Manual', comment: 'Sort by: the column’s own order, the one cards are dragged into' }) },
  { value: 'newest', label: msg({ message: 'Newest', comment: 'Sort by: newest first' }) },
  { value: 'deadline', label: msg({ message: 'Deadline', comment: 'Sort by: deadline' }) },
  { value: 'priority', label: msg({ message: 'Priority', comment: 'Sort by: priority' }) },
];

/** A row of toggle buttons (`aria-pressed`), one pressed: the look of the priority filter. */
export function PressedGroup<T extends string>({ label, options, value, onChange, className }: { label: string; options: readonly { value: T; label: string }[]; value: T; onChange: (value: T) => void; className?: string }) {
  return (
    <div className={cx('priority-filter', className)} role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="priority-filter__option"
          aria-pressed={value === option.value}
          onClick={() => {
            onChange(option.value);
          }}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** Whose tasks the board shows. */
export function ViewSwitch({ value, onChange }: { value: TaskView; onChange: (view: TaskView) => void }) {
  const { t, i18n } = useLingui();
  const options = VIEWS.map((view) => ({ value: view.value, label: i18n._(view.label) }));
  return <PressedGroup label={t`Show tasks`} options={options} value={value} onChange={onChange} />;
}

/** `onBoard`: Manual (a column's own order) is offered, first; "All my tasks" spans boards and has none. */
export function SortSelect({ value, onChange, onBoard = false }: { value: BoardSort; onChange: (sort: BoardSort) => void; onBoard?: boolean }) {
  const { t, i18n } = useLingui();
  return (
    <SelectField
      label={t`Sort by`}
      fieldClassName="toolbar-field"
      className="toolbar-field__control"
      value={value}
      onChange={(event) => {
        onChange(event.target.value as BoardSort);
      }}
    >
      {SORTS.filter((sort) => onBoard || sort.value !== 'position').map((sort) => (
        <option key={sort.value} value={sort.value}>
          {i18n._(sort.label)}
        </option>
      ))}
    </SelectField>
  );
}

/** What the board's "/" shortcut calls: puts the cursor in the search box (opening it first on a phone). */
export interface SearchHandle {
  focus: () => void;
}

interface SearchBoxProps {
  value: string;
  onSearch: (q: string) => void;
  ref?: Ref<HTMLInputElement>;
  /**
   * The phone's search, opened from an icon: its label is for screen readers only, and it
   * asks to close when it is left empty or Esc is pressed (`returnFocus`: put focus back on
   * the icon, because the person did not move it themselves).
   */
  onCollapse?: (returnFocus: boolean) => void;
}

/**
 * The search box. Typing updates the box at once; the search itself (and the URL's `?q=`)
 * follows once typing pauses for SEARCH_DEBOUNCE_MS, so a word typed quickly is one request,
 * not one per letter. A URL changed from outside (back button, a link) updates the box.
 */
export function SearchBox({ value, onSearch, ref, onCollapse }: SearchBoxProps) {
  const { t } = useLingui();
  const id = useId();
  const [text, setText] = useState(value);
  const latest = useRef(value);
  // Searches sent but not yet seen back in the URL: on a slow device the URL can lag behind
  // typing, and an older search arriving late must not overwrite newer letters in the box.
  const pending = useRef<string[]>([]);
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });

  const send = (q: string) => {
    latest.current = q;
    pending.current.push(q);
    onSearchRef.current(q);
  };

  // The URL moved on its own (not by our typing): show what it says.
  useEffect(() => {
    const ours = pending.current.indexOf(value);
    if (ours !== -1) {
      pending.current = pending.current.slice(ours + 1);
      return;
    }
    pending.current = [];
    if (value !== latest.current) {
      latest.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    const q = normalizeSearch(text);
    if (q === latest.current) return;
    const timer = window.setTimeout(() => {
      send(q);
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [text]);

  /** Empties the box and the search at once: a deliberate clear needs no debounce. */
  const clear = () => {
    setText('');
    if (latest.current !== '') send('');
  };

  return (
    <div className={cx('toolbar-field', 'toolbar-field--search', onCollapse && 'toolbar-field--compact')} role="search">
      <label className={onCollapse ? 'visually-hidden' : 'toolbar-field__label'} htmlFor={id}>
        <Trans>Search tasks</Trans>
      </label>
      <div className="search-box">
        <svg className="search-box__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path d="m10.5 10.5 3 3" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        </svg>
        <input
          ref={ref}
          id={id}
          type="search"
          className={cx('input', 'search-box__input')}
          placeholder={t`Title, description, assignee…`}
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-keyshortcuts="/"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Esc in a filled box clears it at once (the browser's own behaviour for type=search);
            // the phone's box also closes, filled or not.
            if (text === '' && !onCollapse) return;
            event.preventDefault();
            event.stopPropagation();
            clear();
            onCollapse?.(true);
          }}
          onBlur={() => {
            if (!onCollapse || normalizeSearch(text) !== '') return;
            clear();
            onCollapse(false);
          }}
        />
      </div>
    </div>
  );
}

/** How many of the choices behind the phone's Filters button differ from the defaults. */
export function activeFilterCount(filter: BoardFilter): number {
  const defaults = { ...DEFAULT_FILTER, sort: defaultSort(filter.board) };
  return (['priority', 'view', 'sort', 'label'] as const).filter((key) => filter[key] !== defaults[key]).length;
}

interface BoardControlsProps {
  filter: BoardFilter;
  onChange: (change: Partial<BoardFilter>) => void;
  searchRef?: Ref<SearchHandle>;
  /** How the tasks are seen (board, table, calendar, timeline): beside the priority filter on wide screens, in the one row of a phone. */
  views?: ReactNode;
  /** Another control of how the board is seen (the card size): at the end of the first row on wide screens, in the Filters panel on a phone. */
  extra?: ReactNode;
  /** How the tasks are grouped (board and table): after the sort on wide screens, in the Filters panel on a phone. */
  group?: ReactNode;
}

/**
 * Everything that narrows or orders the board: priority, whose tasks, search, sort and (on a
 * board) label. Wide screens show them all, in two rows. Below 40rem they fold into one row so
 * the cards start on the first screen: a "Filters" button (with the number of choices that
 * differ from the defaults) opening the same controls in a popover, the label filter in force
 * as a chip that clears it, and a search icon that opens the box.
 * Every choice still lives in the URL; these are only two ways of showing the same controls.
 */
export function BoardControls({ filter, onChange, searchRef, views, extra, group }: BoardControlsProps) {
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY);
  const inputRef = useRef<HTMLInputElement>(null);
  const [searchOpen, setSearchOpen] = useState(false);

  useImperativeHandle(
    searchRef,
    () => ({
      focus: () => {
        if (inputRef.current) inputRef.current.focus();
        else setSearchOpen(true);
      },
    }),
    [],
  );

  const priority = (
    <PriorityFilter
      value={filter.priority}
      onChange={(next) => {
        onChange({ priority: next });
      }}
    />
  );
  const view = (
    <ViewSwitch
      value={filter.view}
      onChange={(next) => {
        onChange({ view: next });
      }}
    />
  );
  const sort = (
    <SortSelect
      onBoard={filter.board !== ''}
      value={filter.sort}
      onChange={(next) => {
        onChange({ sort: next });
      }}
    />
  );
  const onSearch = (next: string) => {
    onChange({ q: next });
  };
  // Labels are a board's own: "All my tasks" has no label filter.
  const onLabel = (next: string) => {
    onChange({ label: next });
  };
  const label = filter.board ? <LabelFilterSelect boardId={filter.board} value={filter.label} onChange={onLabel} /> : null;

  if (!narrow) {
    return (
      <>
        <div className="board__toolbar">
          {priority}
          {views}
          {extra}
        </div>
        <div className="board__controls">
          {view}
          <SearchBox ref={inputRef} value={filter.q} onSearch={onSearch} />
          {sort}
          {label}
          {group}
        </div>
      </>
    );
  }

  return (
    <div className="board__controls board__controls--compact">
      <FiltersPopover filter={filter} onChange={onChange} priority={priority} view={view} sort={sort} label={label} extra={extra} group={group} />
      {filter.board ? <ActiveLabelFilter boardId={filter.board} value={filter.label} onChange={onLabel} /> : null}
      {views}
      <CompactSearch inputRef={inputRef} value={filter.q} onSearch={onSearch} open={searchOpen} setOpen={setSearchOpen} />
    </div>
  );
}

interface FiltersPopoverProps {
  filter: BoardFilter;
  onChange: (change: Partial<BoardFilter>) => void;
  /** The same controls the wide layout shows, built once by BoardControls. */
  priority: ReactNode;
  view: ReactNode;
  sort: ReactNode;
  label: ReactNode;
  /** The card size, when the board's columns are on screen. */
  extra: ReactNode;
  /** The grouping, on the board and the table. */
  group: ReactNode;
}

function FiltersPopover({ filter, onChange, priority, view, sort, label, extra, group }: FiltersPopoverProps) {
  const { close, buttonProps, panelProps } = usePopover();
  const { t } = useLingui();
  const titleId = useId();
  const count = activeFilterCount(filter);
  return (
    <div className="board-filters">
      {/* The badge is a bare number: the button's name says what it counts. */}
      <button
        type="button"
        className={buttonClass('secondary', 'md', false, 'board-filters__button')}
        aria-haspopup="dialog"
        aria-label={count > 0 ? t`Filters, ${plural(count, { one: '# active', other: '# active' })}` : undefined}
        {...buttonProps}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <path stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" d="M2.5 4h11M4.5 8h7M6.5 12h3" />
        </svg>
        <Trans>Filters</Trans>
        {count > 0 ? (
          <span className="board-filters__count" aria-hidden="true">
            {formatNumber(count)}
          </span>
        ) : null}
      </button>
      <div className="board-filters__panel" role="dialog" aria-labelledby={titleId} {...panelProps}>
        <h2 className="visually-hidden" id={titleId}>
          <Trans>Filters</Trans>
        </h2>
        <div className="board-filters__section">
          <p className="board-filters__caption" aria-hidden="true">
            <Trans>Priority</Trans>
          </p>
          {priority}
        </div>
        <div className="board-filters__section">
          <p className="board-filters__caption" aria-hidden="true">
            <Trans comment="The caption of the choice of whose tasks the board shows">Show</Trans>
          </p>
          {view}
        </div>
        {sort}
        {label}
        {group}
        {extra ? (
          <div className="board-filters__section">
            <p className="board-filters__caption" aria-hidden="true">
              <Trans>Card size</Trans>
            </p>
            {extra}
          </div>
        ) : null}
        <div className="board-filters__footer">
          {count > 0 ? (
            <button
              type="button"
              className={buttonClass('ghost', 'sm')}
              onClick={() => {
                onChange({ priority: DEFAULT_FILTER.priority, view: DEFAULT_FILTER.view, sort: DEFAULT_FILTER.sort, label: DEFAULT_FILTER.label });
              }}
            >
              <Trans comment="Puts the board's filters back to their defaults">Reset</Trans>
            </button>
          ) : null}
          <button
            type="button"
            className={buttonClass('primary', 'sm')}
            onClick={() => {
              close(true);
            }}
          >
            <Trans comment="Closes the board's filters">Done</Trans>
          </button>
        </div>
      </div>
    </div>
  );
}

interface CompactSearchProps {
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  onSearch: (q: string) => void;
  open: boolean;
  setOpen: (open: boolean) => void;
}

/** The phone's search: an icon until opened; a search in the URL keeps it open and visible. */
function CompactSearch({ inputRef, value, onSearch, open, setOpen }: CompactSearchProps) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const focusButton = useRef(false);
  const shown = open || value !== '';

  // Opened by the person (the icon or "/"): the cursor goes in.
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open, inputRef]);
  // Closed by Esc: focus goes back to the icon that stands in its place.
  useEffect(() => {
    if (!shown && focusButton.current) buttonRef.current?.focus();
    focusButton.current = false;
  }, [shown]);

  if (shown) {
    return (
      <SearchBox
        ref={inputRef}
        value={value}
        onSearch={onSearch}
        onCollapse={(returnFocus) => {
          focusButton.current = returnFocus;
          setOpen(false);
        }}
      />
    );
  }
  return (
    <button
      ref={buttonRef}
      type="button"
      className="board-search__toggle"
      aria-keyshortcuts="/"
      onClick={() => {
        setOpen(true);
      }}
    >
      <svg viewBox="0 0 16 16" width="18" height="18" aria-hidden="true">
        <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="m10.5 10.5 3 3" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <span className="visually-hidden">
        <Trans>Search tasks</Trans>
      </span>
    </button>
  );
}

/** "N overdue" next to the board's title: open tasks whose deadline has passed. */
export function OverdueCount({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  const shown = formatNumber(count);
  return (
    <p className={cx('overdue-count', count > 0 && 'overdue-count--some')} data-testid="overdue-count">
      <Plural
        value={count}
        // Elements, not fragments: Lingui puts an element's words in the message, a fragment whole as a value.
        one={
          <span>
            <strong>{shown}</strong> overdue
          </span>
        }
        other={
          <span>
            <strong>{shown}</strong> overdue
          </span>
        }
      />
    </p>
  );
}
