import type { Ref } from 'react';
import { checkStartBeforeDeadline } from '#shared/validation.ts';
import { TextField } from '#web/components/field.tsx';
import { dateTimeLocalToIso } from '../utils/deadline.ts';

/** What a `datetime-local` value that is not a whole date and time reads as. */
export const INCOMPLETE_DATE_TIME = 'Enter a complete date and time.';

/**
 * A start as typed (`datetime-local`, "" for none) read against the deadline it will have (ISO,
 * null for none): the instant to send (null: none), or why it cannot be.
 */
export function readStart(value: string, deadlineIso: string | null): { ok: true; iso: string | null } | { ok: false; message: string } {
  const iso = value ? dateTimeLocalToIso(value) : null;
  if (value && !iso) return { ok: false, message: INCOMPLETE_DATE_TIME };
  const order = checkStartBeforeDeadline(iso, deadlineIso, 'startAt');
  return order.ok ? { ok: true, iso } : { ok: false, message: order.message };
}

/** The optional Start field of the task forms: a `datetime-local` input in the viewer's zone. */
export function StartField({
  ref,
  value,
  error,
  hint,
  className,
  onChange,
}: {
  ref: Ref<HTMLInputElement>;
  value: string;
  error: string | undefined;
  hint: string;
  className?: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      ref={ref}
      label="Start"
      optional
      type="datetime-local"
      name="startAt"
      {...(className ? { fieldClassName: className } : {})}
      value={value}
      error={error}
      hint={hint}
      onChange={(event) => {
        onChange(event.target.value);
      }}
    />
  );
}
