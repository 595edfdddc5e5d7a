import type { FieldError, FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type { FormError } from '../api/apiErrors';

/** What a form's save answered: nothing when it worked, else the API's error (already toasted). */
export type SaveOutcome = { error: FormError } | undefined;

/**
 * Shows an API error under the field it names (`field` of `{ message, code, field }`) and
 * focuses it. A nested path ('paths.1') lands on its top-level field when the form holds only
 * that one. Answers false when the form has no such field (the toast alone tells the user).
 */
export function showServerError<T extends FieldValues, C, O>(form: UseFormReturn<T, C, O>, error: FormError): boolean {
  if (!error.field) return false;
  const values: Record<string, unknown> = form.getValues();
  const top = error.field.split('.')[0]!;
  if (!Object.hasOwn(values, top)) return false;
  const name = (form.getValues(error.field as FieldPath<T>) === undefined ? top : error.field) as FieldPath<T>;
  form.setError(name, { type: 'server', message: error.message }, { shouldFocus: true });
  return true;
}

/** The first message of a field's errors, its items' included (a list field: `groupIds.0`, `paths.1`). */
export function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = (error as Partial<FieldError>).message;
  if (typeof own === 'string' && own) return own;
  for (const item of Object.values(error)) {
    const message = item && typeof item === 'object' && 'message' in item ? (item as FieldError).message : undefined;
    if (message) return message;
  }
  return undefined;
}
