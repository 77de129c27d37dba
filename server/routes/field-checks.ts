import type { Checked } from '#shared/validation.ts';
import { validationFailed, type FieldError } from '../errors.ts';

type Values<T> = { [K in keyof T]: T[K] extends Checked<infer V> ? V : never };

/**
 * Runs the shared field rules (shared/validation.ts) after schema validation: returns every
 * normalized value, or throws one 400 VALIDATION_FAILED listing every failing field.
 */
export function checkFields<T extends Record<string, Checked<unknown>>>(checks: T): Values<T> {
  const errors: FieldError[] = [];
  const values: Record<string, unknown> = {};
  for (const [field, result] of Object.entries(checks)) {
    if (result.ok) values[field] = result.value;
    else errors.push({ field, message: result.message });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return values as Values<T>;
}
