import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { Ref } from 'react';
import { checkStartBeforeDeadline } from '#shared/validation.ts';
import { TextField } from '#web/components/field.tsx';
import { dateTimeLocalToIso } from '../utils/deadline.ts';

/** What a `datetime-local` value that is not a whole date and time reads as, in the language in use (called when the form is checked). */
export function incompleteDateTime(): string {
  return t`Enter a complete date and time.`;
}

/**
 * A start as typed (`datetime-local`, "" for none) read against the deadline it will have (ISO,
 * null for none): the instant to send (null: none), or why it cannot be.
 */
export function readStart(value: string, deadlineIso: string | null): { ok: true; iso: string | null } | { ok: false; message: string } {
  const iso = value ? dateTimeLocalToIso(value) : null;
  if (value && !iso) return { ok: false, message: incompleteDateTime() };
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
  const { t } = useLingui();
  return (
    <TextField
      ref={ref}
      label={t({ message: 'Start', comment: 'When the work on the task starts' })}
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
