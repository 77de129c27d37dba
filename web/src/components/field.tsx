import { Trans } from '@lingui/react/macro';
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cx } from '#web/lib/cx.ts';
import './field.css';

interface FieldFrameProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  optional?: boolean;
  className?: string | undefined;
  children: ReactNode;
}

function FieldFrame({ id, label, hint, error, optional, className, children }: FieldFrameProps) {
  return (
    <div className={cx('field', error && 'field--invalid', className)}>
      <label className="field__label" htmlFor={id}>
        {label}
        {optional ? (
          <span className="field__optional">
            {' '}
            <Trans comment="After a field’s label: the field may be left empty">(optional)</Trans>
          </span>
        ) : null}
      </label>
      {children}
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          <svg viewBox="0 0 16 16" aria-hidden="true" width="14" height="14">
            <path fill="currentColor" d="M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1Zm0 9.5a1 1 0 1 0 0 2 1 1 0 0 0 0-2ZM8 4a.9.9 0 0 0-.9.95l.2 4.1a.7.7 0 0 0 1.4 0l.2-4.1A.9.9 0 0 0 8 4Z" />
          </svg>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  optional?: boolean;
  fieldClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ label, hint, error, optional, fieldClassName, className, ref, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optional={optional ?? false} className={fieldClassName}>
      <input
        ref={ref}
        id={id}
        className={cx('input', className)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
    </FieldFrame>
  );
}

/** An e-mail address field: the e-mail keyboard on phones and no spell-check underlines. */
export function EmailField(props: Omit<TextFieldProps, 'type' | 'inputMode' | 'spellCheck'>) {
  return <TextField type="email" inputMode="email" spellCheck={false} {...props} />;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  fieldClassName?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** The chevron of a native select inside `.select-wrap`. */
export function SelectChevron() {
  return (
    <svg className="select-wrap__chevron" viewBox="0 0 16 16" aria-hidden="true" width="16" height="16">
      <path fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" d="m4 6 4 4 4-4" />
    </svg>
  );
}

export function SelectField({ label, hint, error, fieldClassName, className, children, ref, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={fieldClassName}>
      <div className="select-wrap">
        <select
          ref={ref}
          id={id}
          className={cx('input', 'select', className)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          {...select}
        >
          {children}
        </select>
        <SelectChevron />
      </div>
    </FieldFrame>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  fieldClassName?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextAreaField({ label, hint, error, fieldClassName, className, ref, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={fieldClassName}>
      <textarea
        ref={ref}
        id={id}
        className={cx('input', 'textarea', className)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...textarea}
      />
    </FieldFrame>
  );
}
