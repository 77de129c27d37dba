import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { LIMITS, REPEAT_UNITS, type RepeatUnit } from '#shared/constants.ts';
import { describeRepeat } from '#shared/repeat.ts';
import type { Repeat } from '#shared/schemas/tasks.ts';
import { SelectChevron } from '#web/components/field.tsx';
import { formatNumber } from '#web/lib/locale-format.ts';
import './repeat-field.css';

/** The control's own state: what is typed, checked only when the form is sent. */
export interface RepeatDraft {
  /** '' : the task does not repeat. */
  unit: RepeatUnit | '';
  every: string;
}

export const NO_REPEAT: RepeatDraft = { unit: '', every: '1' };

export const repeatDraftOf = (repeat: Repeat | null): RepeatDraft => (repeat ? { unit: repeat.unit, every: String(repeat.every) } : NO_REPEAT);

/** What is wrong with an interval out of range, per unit (made when the form is sent, in the language in use). */
function outOfRange(unit: RepeatUnit): string {
  const min = formatNumber(LIMITS.repeatEveryMin);
  const max = formatNumber(LIMITS.repeatEveryMax);
  switch (unit) {
    case 'day':
      return t`Repeat every ${min} to ${max} days.`;
    case 'week':
      return t`Repeat every ${min} to ${max} weeks.`;
    case 'month':
      return t`Repeat every ${min} to ${max} months.`;
    case 'year':
      return t`Repeat every ${min} to ${max} years.`;
  }
}

/**
 * The unit's word after the number typed ("Every 2 [weeks]"), in the language in use. `count`
 * is the number typed; anything but a whole number reads as several.
 */
function unitWord(unit: RepeatUnit, count: number): string {
  switch (unit) {
    case 'day':
      return t({ message: plural(count, { one: 'day', other: 'days' }), comment: 'Option of the repeat unit, after “Every” and the number typed' });
    case 'week':
      return t({ message: plural(count, { one: 'week', other: 'weeks' }), comment: 'Option of the repeat unit, after “Every” and the number typed' });
    case 'month':
      return t({ message: plural(count, { one: 'month', other: 'months' }), comment: 'Option of the repeat unit, after “Every” and the number typed' });
    case 'year':
      return t({ message: plural(count, { one: 'year', other: 'years' }), comment: 'Option of the repeat unit, after “Every” and the number typed' });
  }
}

/** The draft as the API takes it, or the message that says what is wrong with it. */
export function readRepeat(draft: RepeatDraft): { ok: true; value: Repeat | null } | { ok: false; message: string } {
  if (draft.unit === '') return { ok: true, value: null };
  const every = Number(draft.every.trim());
  if (!Number.isInteger(every) || every < LIMITS.repeatEveryMin || every > LIMITS.repeatEveryMax) {
    return { ok: false, message: outOfRange(draft.unit) };
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
  const { t } = useLingui();
  const off = !hasDeadline && value.unit === '';
  const typed = value.every.trim();
  const number = Number(typed);
  // "1" alone is one; anything else typed (another number, nothing yet, not a number) is several.
  const count = typed === '1' ? 1 : Number.isInteger(number) && number > 1 ? number : 2;
  const hint = !hasDeadline
    ? t`Set a deadline first: a task repeats from its deadline.`
    : value.unit === ''
      ? null
      : t`Completing it creates the next one, due one interval later.`;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={error ? 'field repeat-field field--invalid' : 'field repeat-field'} aria-describedby={describedBy}>
      <legend className={legendHidden ? 'visually-hidden' : 'field__label'}>
        <Trans comment="How often the task repeats">Repeat</Trans>
      </legend>
      <div className="repeat-field__controls">
        {value.unit === '' ? null : (
          <>
            <label htmlFor={`${id}-every`} className="repeat-field__word">
              <Trans comment="Before the number of the repeat interval and its unit: “Every [2] [weeks]”">Every</Trans>
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
            aria-label={value.unit === '' ? t({ message: 'Repeat', comment: 'How often the task repeats' }) : t`Repeat unit`}
            value={value.unit}
            disabled={off}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              onChange({ ...value, unit: event.target.value as RepeatUnit | '' });
            }}
          >
            <option value="">{t`Does not repeat`}</option>
            {REPEAT_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {value.unit === '' ? describeRepeat({ every: 1, unit }) : unitWord(unit, count)}
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
