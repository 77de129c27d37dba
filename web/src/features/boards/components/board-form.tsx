import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type RefObject } from 'react';
import { LIMITS } from '#shared/constants.ts';
import { checkBoardDescription, checkBoardName } from '#shared/validation.ts';
import { TextAreaField, TextField } from '#web/components/field.tsx';
import { isApiError } from '#web/lib/api-client.ts';
import { errorText, type ErrorTextOptions } from '#web/lib/error-text.ts';
import { i18n } from '@lingui/core';

export interface BoardFormValues {
  name: string;
  description: string;
}

type FieldErrors = Partial<Record<keyof BoardFormValues, string>>;

/**
 * A board's name and description as a form edits them ("New board" and the settings' "About this
 * board"): the values, the server's own rules (shared/validation.ts) checked before sending, and
 * a refusal's words put beside the field they concern or else above the form.
 */
export function useBoardForm(initial: BoardFormValues, { onEdit }: { onEdit?: () => void } = {}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);

  const focus = (field: keyof BoardFormValues) => {
    (field === 'name' ? nameRef : descriptionRef).current?.focus();
  };

  const change = (field: keyof BoardFormValues, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    onEdit?.();
  };

  /** The trimmed values to send, or null: the errors are shown and the first wrong field has focus. */
  const check = (): BoardFormValues | null => {
    setFormError(null);
    const name = checkBoardName(values.name);
    const description = checkBoardDescription(values.description);
    const found: FieldErrors = {};
    if (!name.ok) found.name = i18n._(name.message);
    if (!description.ok) found.description = i18n._(description.message);
    setErrors(found);
    if (!name.ok) focus('name');
    else if (!description.ok) focus('description');
    return name.ok && description.ok ? { name: name.value, description: description.value } : null;
  };

  /** A refused save: beside its field when the server names one, otherwise the form's error (returned). */
  const refused = (failure: unknown, options?: ErrorTextOptions): string | null => {
    const field = isApiError(failure) ? failure.errors.find((item) => item.field === 'name' || item.field === 'description') : undefined;
    if (field) {
      const key: keyof BoardFormValues = field.field === 'name' ? 'name' : 'description';
      setErrors(key === 'name' ? { name: field.message } : { description: field.message });
      focus(key);
      return null;
    }
    const text = errorText(failure, options);
    setFormError(text);
    return text;
  };

  const fields: BoardFieldsProps = { values, errors, onChange: change, nameRef, descriptionRef };
  return { formError, check, refused, fields };
}

interface BoardFieldsProps {
  values: BoardFormValues;
  errors: FieldErrors;
  onChange: (field: keyof BoardFormValues, value: string) => void;
  nameRef: RefObject<HTMLInputElement | null>;
  descriptionRef: RefObject<HTMLTextAreaElement | null>;
  /** "(optional)" after the description's label (where the board is being made). */
  descriptionOptional?: boolean;
}

/** The two fields, with the limits of the server's rules (`fields` of useBoardForm). */
export function BoardFields({ values, errors, onChange, nameRef, descriptionRef, descriptionOptional = false }: BoardFieldsProps) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        ref={nameRef}
        label={t({ message: 'Name', comment: 'The label of a board’s name field' })}
        name="name"
        autoComplete="off"
        required
        maxLength={LIMITS.boardNameMax}
        value={values.name}
        error={errors.name}
        onChange={(event) => {
          onChange('name', event.target.value);
        }}
      />
      <TextAreaField
        ref={descriptionRef}
        label={
          descriptionOptional ? (
            <Trans>
              Description<span className="field__optional"> (optional)</span>
            </Trans>
          ) : (
            t`Description`
          )
        }
        name="description"
        rows={3}
        maxLength={LIMITS.boardDescriptionMax}
        value={values.description}
        error={errors.description}
        onChange={(event) => {
          onChange('description', event.target.value);
        }}
      />
    </>
  );
}
