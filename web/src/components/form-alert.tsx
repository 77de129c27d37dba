import type { Ref } from 'react';
import { Alert } from './alert.tsx';

interface FormAlertProps {
  /** The form's error; it wins over `note`. */
  error: string | null;
  /** Set on the error's wrapper so the form can move focus to it after a failed submit. */
  errorRef: Ref<HTMLDivElement>;
  /** A calmer message shown when there is no error (a success or a hint for the next step). */
  note?: { tone: 'success' | 'info'; text: string | null };
  className: string;
}

/**
 * The message at the top of a form: the error (focusable, so keyboard and screen-reader users
 * land on it) or, failing that, a success or information note.
 */
export function FormAlert({ error, errorRef, note, className }: FormAlertProps) {
  if (error) {
    return (
      <div ref={errorRef} tabIndex={-1} className={className}>
        <Alert tone="error">{error}</Alert>
      </div>
    );
  }
  if (note?.text) {
    return (
      <Alert tone={note.tone} className={className}>
        {note.text}
      </Alert>
    );
  }
  return null;
}
