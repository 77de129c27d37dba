import { useId } from 'react';
import { LIMITS, REPEAT_UNITS, type RepeatUnit } from '#shared/constants.ts';
import { describeRepeat } from '#shared/repeat.ts';
import type { Repeat } from '#shared/schemas/tasks.ts';
import { SelectChevron } from '#web/components/field.tsx';
import './repeat-field.css';

/** The control's own state: what is typed, checked only when the form is sent. */
export interface RepeatDraft {
  /** '' : the task does not repeat. */
  unit: RepeatUnit | '';
  every: string;
}

export const NO_REPEAT: RepeatDraft = { unit: '', every: '1' };

export const repeatDraftOf = (repeat: Repeat | null): RepeatDraft => (repeat ? { unit: repeat.unit, every: String(repeat.every) } : NO_REPEAT);

const UNIT_LABELS: Record<RepeatUnit, [one: string, many: string]> = {
  day: ['day', 'days'],
  week: ['week', 'weeks'],
  month: ['month', 'months'],
  year: ['year', 'years'],
};

/** The draft as the API takes it, or the message that says what is wrong with it. */
export function readRepeat(draft: RepeatDraft): { ok: true; value: Repeat | null } | { ok: false; message: string } {
  if (draft.unit === '') return { ok: true, value: null };
  const every = Number(draft.every.trim());
  if (!Number.isInteger(every) || every < LIMITS.repeatEveryMin || every > LIMITS.repeatEveryMax) {
    return { ok: false, message: `Repeat every ${LIMITS.repeatEveryMin} to ${LIMITS.repeatEveryMax} ${UNIT_LABELS[draft.unit][1]}.` };
  }
  return { ok: true, value: { every, unit: draft.unit } };
}

/**
 * "Repeat": does not repeat, or every N days / weeks / months / years. A repeating task needs a
 * deadline to count from: without one the control says so and stays off (the server decides
 * and answers 400 for `repeat` otherwise; `error` shows that answer here).
 */
export function RepeatField({
  value,
  onChange,
  hasDeadline,
  error,
  legendHidden = false,
}: {
  value: RepeatDraft;
  onChange: (draft: RepeatDraft) => void;
  hasDeadline: boolean;
  error?: string | null | undefined;
  /** Where a heading next to it says "Repeat" already (the task page). */
  legendHidden?: boolean;
}) {
  const id = useId();
  const off = !hasDeadline && value.unit === '';
  const many = value.every.trim() !== '1';
  const hint = !hasDeadline ? 'Set a deadline first: a task repeats from its deadline.' : value.unit === '' ? null : 'Completing it creates the next one, due one interval later.';
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={error ? 'field repeat-field field--invalid' : 'field repeat-field'} aria-describedby={describedBy}>
      <legend className={legendHidden ? 'visually-hidden' : 'field__label'}>Repeat</legend>
      <div className="repeat-field__controls">
        {value.unit === '' ? null : (
          <>
            <label htmlFor={`${id}-every`} className="repeat-field__word">
              Every
            </label>
            <input
              id={`${id}-every`}
              className="input repeat-field__every"
              type="number"
              inputMode="numeric"
              min={LIMITS.repeatEveryMin}
              max={LIMITS.repeatEveryMax}
              value={value.every}
              aria-invalid={error ? true : undefined}
              onChange={(event) => {
                onChange({ ...value, every: event.target.value });
              }}
            />
          </>
        )}
        <div className="select-wrap repeat-field__unit">
          <select
            className="input select"
            aria-label={value.unit === '' ? 'Repeat' : 'Repeat unit'}
            value={value.unit}
            disabled={off}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              onChange({ ...value, unit: event.target.value as RepeatUnit | '' });
            }}
          >
            <option value="">Does not repeat</option>
            {REPEAT_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {value.unit === '' ? describeRepeat({ every: 1, unit }) : UNIT_LABELS[unit][many ? 1 : 0]}
              </option>
            ))}
          </select>
          <SelectChevron />
        </div>
      </div>
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
