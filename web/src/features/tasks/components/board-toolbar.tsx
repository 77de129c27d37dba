import { useEffect, useId, useRef, useState, type Ref } from 'react';
import { SelectField } from '#web/components/field.tsx';
import { cx } from '#web/lib/cx.ts';
import type { TaskSort, TaskView } from '#shared/constants.ts';
import { normalizeSearch, SEARCH_MAX_LENGTH } from '../api/board-filter.ts';
import './board-toolbar.css';

/** How long typing must pause before the search runs (and lands in the URL). */
export const SEARCH_DEBOUNCE_MS = 250;

const VIEWS: readonly { value: TaskView; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'assigned-to-me', label: 'Assigned to me' },
  { value: 'created-by-me', label: 'Created by me' },
];

const SORTS: readonly { value: TaskSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'deadline', label: 'Deadline' },
  { value: 'priority', label: 'Priority' },
];

/** Toggle buttons (`aria-pressed`), like the priority filter: whose tasks the board shows. */
export function ViewSwitch({ value, onChange }: { value: TaskView; onChange: (view: TaskView) => void }) {
  return (
    <div className="priority-filter" role="group" aria-label="Show tasks">
      {VIEWS.map((view) => (
        <button
          key={view.value}
          type="button"
          className="priority-filter__option"
          aria-pressed={value === view.value}
          onClick={() => {
            onChange(view.value);
          }}
        >
          {view.label}
        </button>
      ))}
    </div>
  );
}

export function SortSelect({ value, onChange }: { value: TaskSort; onChange: (sort: TaskSort) => void }) {
  return (
    <SelectField
      label="Sort by"
      fieldClassName="toolbar-field"
      className="toolbar-field__control"
      value={value}
      onChange={(event) => {
        onChange(event.target.value as TaskSort);
      }}
    >
      {SORTS.map((sort) => (
        <option key={sort.value} value={sort.value}>
          {sort.label}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * The search box. Typing updates the box at once; the search itself (and the URL's `?q=`)
 * follows once typing pauses for SEARCH_DEBOUNCE_MS, so a word typed quickly is one request,
 * not one per letter. A URL changed from outside (back button, a link) updates the box.
 */
export function SearchBox({ value, onSearch, ref }: { value: string; onSearch: (q: string) => void; ref?: Ref<HTMLInputElement> }) {
  const id = useId();
  const [text, setText] = useState(value);
  const latest = useRef(value);
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });

  // The URL moved on its own (not by our typing): show what it says.
  useEffect(() => {
    if (value !== latest.current) {
      latest.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    const q = normalizeSearch(text);
    if (q === latest.current) return;
    const timer = window.setTimeout(() => {
      latest.current = q;
      onSearchRef.current(q);
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [text]);

  return (
    <div className="toolbar-field toolbar-field--search" role="search">
      <label className="toolbar-field__label" htmlFor={id}>
        Search tasks
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
          placeholder="Title, description, assignee…"
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-keyshortcuts="/"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
          }}
          onKeyDown={(event) => {
            // Esc in a filled box clears it at once (the browser's own behaviour for type=search).
            if (event.key === 'Escape' && text !== '') {
              event.stopPropagation();
              setText('');
            }
          }}
        />
      </div>
    </div>
  );
}

/** "N overdue" next to the board's title: open tasks whose deadline has passed. */
export function OverdueCount({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  return (
    <p className={cx('overdue-count', count > 0 && 'overdue-count--some')} data-testid="overdue-count">
      <strong>{count}</strong> overdue
    </p>
  );
}
