import { SPEC_TEXT } from '../../shared/messages';

/** What is shown in place of an empty value. */
export const EMPTY_VALUE = SPEC_TEXT.emptyValue;

/** The value itself, or '-' (reference §9) for null, undefined and ''. */
export function displayValue<T>(value: T | null | undefined): T | typeof EMPTY_VALUE {
  return value === null || value === undefined || value === '' ? EMPTY_VALUE : value;
}

/** Renders a value, or '-' when it is empty. */
export function Value({ value }: { value: string | number | null | undefined }) {
  return <>{displayValue(value)}</>;
}
