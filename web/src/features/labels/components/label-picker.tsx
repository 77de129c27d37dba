import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LABEL_COLORS, LIMITS, type LabelColor } from '#shared/constants.ts';
import type { Label } from '#shared/schemas/labels.ts';
import { Button, buttonClass } from '#web/components/button.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { cx } from '#web/lib/cx.ts';
import { usePopover } from '#web/lib/use-popover.ts';
import { useCreateLabel } from '../api/change-labels.ts';
import { useLabels } from '../api/get-labels.ts';
import { LabelChip } from './label-chips.tsx';
import './labels.css';

export const COLOR_NAMES: Record<LabelColor, string> = {
  gray: 'Gray',
  red: 'Red',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
  teal: 'Teal',
  blue: 'Blue',
  indigo: 'Indigo',
  purple: 'Purple',
  pink: 'Pink',
};

const sameIds = (a: readonly Label[], b: readonly Label[]) => a.length === b.length && a.every((label) => b.some((other) => other._id === label._id));

/** A name as the server compares them: trimmed, ignoring case. */
const nameKey = (name: string) => name.trim().toLowerCase();

/** The colour choice of a label: ten radio buttons, each a chip named by its colour. */
export function ColorChoice({ name, value, onChange, legend, onKeyDown }: { name: string; value: LabelColor; onChange: (color: LabelColor) => void; legend: string; onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void }) {
  return (
    <fieldset className="label-colors" onKeyDown={onKeyDown}>
      <legend className="label-colors__legend">{legend}</legend>
      <div className="label-colors__options">
        {LABEL_COLORS.map((color) => (
          <label key={color} className="label-colors__option">
            <input
              type="radio"
              className="label-colors__radio"
              name={name}
              value={color}
              checked={value === color}
              onChange={() => {
                onChange(color);
              }}
            />
            <span className={cx('label-chip', `label-chip--${color}`)}>{COLOR_NAMES[color]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

interface LabelPickerProps {
  boardId: string;
  /** The task's labels (or the new task's, in the create form). */
  value: readonly Label[];
  /** The whole new set, once the picker closes with a change (one save, not one per tick). */
  onChange: (labels: Label[]) => void;
  /** Admins and members of the board create labels; an assignee who is a viewer only picks. */
  canCreate: boolean;
  disabled?: boolean;
}

/**
 * The label picker: a button opening a non-modal panel with a filter box over the board's
 * labels (an APG combobox: arrows move through the list, Enter ticks, focus stays in the box),
 * a "Create label “…”" option for a name no label has, and Done. Ticks collect in the panel;
 * closing it (Done, Esc, a press or Tab outside) hands the whole set over once.
 */
export function LabelPicker({ boardId, value, onChange, canCreate, disabled = false }: LabelPickerProps) {
  const { open, close, buttonProps, panelProps } = usePopover();
  // Asked for when first opened (a closed picker, as in every new-task form, costs nothing).
  const [wanted, setWanted] = useState(false);
  if (open && !wanted) setWanted(true);
  const labels = useLabels(wanted ? boardId : null);
  const create = useCreateLabel(boardId);
  const [draft, setDraft] = useState<readonly Label[]>(value);
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const [creating, setCreating] = useState<{ name: string; color: LabelColor } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const wasOpen = useRef(false);
  const baseId = useId();
  const listId = `${baseId}-list`;
  const optionId = (index: number) => `${baseId}-option-${index}`;

  // Opening starts from the task's labels; closing hands the new set over, if it changed.
  useEffect(() => {
    if (open && !wasOpen.current) {
      setDraft(value);
      setFilter('');
      setActive(0);
      setCreating(null);
      setError(null);
    }
    if (!open && wasOpen.current) {
      // A label deleted meanwhile is no longer the board's: the server would refuse it.
      const known = labels.data ? draft.filter((label) => labels.data.some((l) => l._id === label._id)) : draft;
      if (!sameIds(known, value)) onChange([...known]);
    }
    wasOpen.current = open;
    // Only the opening and closing matter here, not every tick in between.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const all = labels.data ?? [];
  const key = nameKey(filter);
  const shown = key === '' ? all : all.filter((label) => label.name.toLowerCase().includes(key));
  const offerCreate = canCreate && key !== '' && !all.some((label) => nameKey(label.name) === key) && labels.data !== undefined;
  const optionCount = shown.length + (offerCreate ? 1 : 0);
  const activeIndex = Math.min(active, Math.max(0, optionCount - 1));
  const full = draft.length >= LIMITS.labelsPerTask;
  const picked = (label: Label) => draft.some((l) => l._id === label._id);

  const toggle = (label: Label) => {
    if (picked(label)) {
      setDraft(draft.filter((l) => l._id !== label._id));
      setAnnouncement(`${label.name} removed`);
    } else if (!full) {
      setDraft([...draft, label]);
      setAnnouncement(`${label.name} added`);
    }
  };

  const startCreate = () => {
    setError(null);
    setCreating({ name: filter.trim(), color: LABEL_COLORS[all.length % LABEL_COLORS.length] ?? 'gray' });
  };

  const choose = (index: number) => {
    const label = shown[index];
    if (label) toggle(label);
    else if (offerCreate) startCreate();
  };

  const stopCreating = () => {
    setCreating(null);
  };

  // Into the colour choice when a new label is begun; back to the filter box when it ends.
  const isCreating = creating !== null;
  const createRef = useRef<HTMLDivElement>(null);
  const wasCreating = useRef(false);
  useEffect(() => {
    if (isCreating) createRef.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
    else if (wasCreating.current) inputRef.current?.focus();
    wasCreating.current = isCreating;
  }, [isCreating]);

  const submitCreate = () => {
    if (!creating || create.isPending) return;
    setError(null);
    create.mutate(creating, {
      onSuccess: (label) => {
        if (draft.length < LIMITS.labelsPerTask) setDraft((current) => [...current, label]);
        setAnnouncement(`Label ${label.name} created`);
        setFilter('');
        setActive(0);
        stopCreating();
      },
      onError: (failure) => {
        if (!isUnauthorized(failure)) setError(errorText(failure, { firstField: true }));
      },
    });
  };

  const onInputKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (optionCount === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + optionCount) % optionCount);
    } else if (event.key === 'Home' || event.key === 'End') {
      if (optionCount === 0) return;
      event.preventDefault();
      setActive(event.key === 'Home' ? 0 : optionCount - 1);
    } else if (event.key === 'Enter') {
      // Never the surrounding form's submit (the create-task form holds a picker too).
      event.preventDefault();
      if (optionCount > 0) choose(activeIndex);
    }
  };

  return (
    <div className="label-picker">
      <button
        type="button"
        className={buttonClass('ghost', 'sm', false, 'label-picker__button')}
        aria-haspopup="dialog"
        disabled={disabled}
        {...buttonProps}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <path fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" d="M2.5 2.5h5.2l5.8 5.8-5.2 5.2-5.8-5.8z" />
          <circle cx="5.3" cy="5.3" r="1.1" fill="currentColor" />
        </svg>
        {value.length > 0 ? 'Edit labels' : 'Add labels'}
      </button>
      <div className="label-picker__panel" role="dialog" aria-label="Labels" tabIndex={-1} {...panelProps}>
        {creating ? (
          <div
            ref={createRef}
            className="label-picker__create"
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                stopCreating();
              } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
                event.preventDefault();
                submitCreate();
              }
            }}
          >
            <p className="label-picker__create-title">
              New label <LabelChip label={creating} />
            </p>
            <ColorChoice
              name={`${baseId}-color`}
              legend="Color"
              value={creating.color}
              onChange={(color) => {
                setCreating({ ...creating, color });
              }}
            />
            {error ? (
              <p className="label-picker__error" role="alert">
                {error}
              </p>
            ) : null}
            <div className="label-picker__footer">
              <Button size="sm" variant="ghost" onClick={stopCreating}>
                Back
              </Button>
              <Button size="sm" variant="primary" busy={create.isPending} onClick={submitCreate}>
                {create.isPending ? 'Creating…' : 'Create label'}
              </Button>
            </div>
          </div>
        ) : (
          <>
            <input
              ref={inputRef}
              className="input label-picker__filter"
              type="text"
              role="combobox"
              aria-label={canCreate ? 'Filter or create labels' : 'Filter labels'}
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={optionCount > 0 ? optionId(activeIndex) : undefined}
              placeholder={canCreate ? 'Filter or create…' : 'Filter…'}
              autoComplete="off"
              spellCheck={false}
              maxLength={LIMITS.labelNameMax}
              value={filter}
              onChange={(event) => {
                setFilter(event.target.value);
                setActive(0);
              }}
              onKeyDown={onInputKeyDown}
            />
            <ul className="label-picker__list" id={listId} role="listbox" aria-label="Labels" aria-multiselectable="true">
              {shown.map((label, index) => {
                const selected = picked(label);
                const blocked = !selected && full;
                return (
                  <li
                    key={label._id}
                    id={optionId(index)}
                    role="option"
                    aria-selected={selected}
                    aria-disabled={blocked || undefined}
                    className={cx('label-picker__option', index === activeIndex && 'label-picker__option--active')}
                    // The filter box keeps focus (and so the keyboard) while the mouse picks.
                    onMouseDown={(event) => {
                      event.preventDefault();
                    }}
                    onClick={() => {
                      setActive(index);
                      toggle(label);
                    }}
                  >
                    <span className="label-picker__check" aria-hidden="true">
                      {selected ? (
                        <svg viewBox="0 0 16 16" width="12" height="12">
                          <path fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" d="m3.5 8.5 3 3 6-7" />
                        </svg>
                      ) : null}
                    </span>
                    <LabelChip label={label} />
                  </li>
                );
              })}
              {offerCreate ? (
                <li
                  id={optionId(shown.length)}
                  role="option"
                  aria-selected={false}
                  className={cx('label-picker__option', 'label-picker__option--create', activeIndex === shown.length && 'label-picker__option--active')}
                  onMouseDown={(event) => {
                    event.preventDefault();
                  }}
                  onClick={startCreate}
                >
                  <span className="label-picker__plus" aria-hidden="true">
                    +
                  </span>
                  Create label “{filter.trim()}”
                </li>
              ) : null}
            </ul>
            {labels.isPending ? <p className="label-picker__note">Loading labels…</p> : null}
            {labels.isError ? <p className="label-picker__error">Couldn’t load the labels. {errorText(labels.error, { firstField: true })}</p> : null}
            {labels.data && optionCount === 0 ? (
              <p className="label-picker__note">{all.length === 0 && !canCreate ? 'This board has no labels yet.' : 'No label matches.'}</p>
            ) : null}
            <div className="label-picker__footer">
              <span className={cx('label-picker__count', full && 'label-picker__count--full')}>
                {draft.length} of {LIMITS.labelsPerTask}
                {full ? ' (the most a task can have)' : ''}
              </span>
              <Button
                size="sm"
                variant="primary"
                onClick={() => {
                  close(true);
                }}
              >
                Done
              </Button>
            </div>
          </>
        )}
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
      </div>
    </div>
  );
}
