import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { LABEL_COLORS, LIMITS, type LabelColor } from '#shared/constants.ts';
import type { Label } from '#shared/schemas/labels.ts';
import { Button, buttonClass } from '#web/components/button.tsx';
import { isUnauthorized } from '#web/lib/api-client.ts';
import { errorText } from '#web/lib/error-text.ts';
import { cx } from '#web/lib/cx.ts';
import { formatNumber } from '#web/lib/locale-format.ts';
import { usePopover } from '#web/lib/use-popover.ts';
import { useCreateLabel } from '../api/change-labels.ts';
import { useLabels } from '../api/get-labels.ts';
import { LabelChip } from './label-chips.tsx';
import './labels.css';

/** Each colour's name, on its chip in the colour choice. */
export const COLOR_NAMES: Record<LabelColor, MessageDescriptor> = {
  gray: msg({ message: 'Gray', comment: 'A label colour' }),
  red: msg({ message: 'Red', comment: 'A label colour' }),
  orange: msg({ message: 'Orange', comment: 'A label colour' }),
  yellow: msg({ message: 'Yellow', comment: 'A label colour' }),
  green: msg({ message: 'Green', comment: 'A label colour' }),
  teal: msg({ message: 'Teal', comment: 'A label colour' }),
  blue: msg({ message: 'Blue', comment: 'A label colour' }),
  indigo: msg({ message: 'Indigo', comment: 'A label colour' }),
  purple: msg({ message: 'Purple', comment: 'A label colour' }),
  pink: msg({ message: 'Pink', comment: 'A label colour' }),
};

const sameIds = (a: readonly Label[], b: readonly Label[]) => a.length === b.length && a.every((label) => b.some((other) => other._id === label._id));

/** A name as the server compares them: trimmed, ignoring case. */
const nameKey = (name: string) => name.trim().toLowerCase();

/** The colour choice of a label: ten radio buttons, each a chip named by its colour. */
export function ColorChoice({ name, value, onChange, legend, onKeyDown }: { name: string; value: LabelColor; onChange: (color: LabelColor) => void; legend: string; onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void }) {
  const { i18n } = useLingui();
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
            <span className={cx('label-chip', `label-chip--${color}`)}>{i18n._(COLOR_NAMES[color])}</span>
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
  const { t } = useLingui();

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
  const typed = filter.trim();
  const reason = labels.isError ? errorText(labels.error, { firstField: true }) : '';
  const picks = formatNumber(draft.length);
  const most = formatNumber(LIMITS.labelsPerTask);

  const toggle = (label: Label) => {
    const { name } = label;
    if (picked(label)) {
      setDraft(draft.filter((l) => l._id !== label._id));
      setAnnouncement(t({ message: `${name} removed`, comment: 'Said to screen readers: a label was unticked in the label picker' }));
    } else if (!full) {
      setDraft([...draft, label]);
      setAnnouncement(t({ message: `${name} added`, comment: 'Said to screen readers: a label was ticked in the label picker' }));
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
        const { name } = label;
        setAnnouncement(t`Label ${name} created`);
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
        {value.length > 0 ? <Trans>Edit labels</Trans> : <Trans>Add labels</Trans>}
      </button>
      <div className="label-picker__panel" role="dialog" aria-label={t`Labels`} {...panelProps}>
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
              <Trans>
                New label <LabelChip label={creating} />
              </Trans>
            </p>
            <ColorChoice
              name={`${baseId}-color`}
              legend={t`Color`}
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
                <Trans>Back</Trans>
              </Button>
              <Button size="sm" variant="primary" busy={create.isPending} onClick={submitCreate}>
                {create.isPending ? <Trans>Creating…</Trans> : <Trans>Create label</Trans>}
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
              aria-label={canCreate ? t`Filter or create labels` : t`Filter labels`}
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={optionCount > 0 ? optionId(activeIndex) : undefined}
              placeholder={canCreate ? t`Filter or create…` : t`Filter…`}
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
            <ul className="label-picker__list" id={listId} role="listbox" aria-label={t`Labels`} aria-multiselectable="true">
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
                  <Trans>Create label “{typed}”</Trans>
                </li>
              ) : null}
            </ul>
            {labels.isPending ? (
              <p className="label-picker__note">
                <Trans>Loading labels…</Trans>
              </p>
            ) : null}
            {labels.isError ? (
              <p className="label-picker__error">
                <Trans>Couldn’t load the labels. {reason}</Trans>
              </p>
            ) : null}
            {labels.data && optionCount === 0 ? (
              <p className="label-picker__note">{all.length === 0 && !canCreate ? <Trans>This board has no labels yet.</Trans> : <Trans>No label matches.</Trans>}</p>
            ) : null}
            <div className="label-picker__footer">
              <span className={cx('label-picker__count', full && 'label-picker__count--full')}>
                {full ? (
                  <Trans comment="How many labels the task has, of the most it may have">
                    {picks} of {most} (the most a task can have)
                  </Trans>
                ) : (
                  <Trans comment="How many labels the task has, of the most it may have">
                    {picks} of {most}
                  </Trans>
                )}
              </span>
              <Button
                size="sm"
                variant="primary"
                onClick={() => {
                  close(true);
                }}
              >
                <Trans>Done</Trans>
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
