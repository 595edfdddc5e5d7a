import { useId, useState, type FocusEvent, type ChangeEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import Form from 'react-bootstrap/Form';
import { LABELS } from '../../shared/constants/labels';

/** The length error of a text, or undefined when it fits (messages from labels.ts). */
export function textLengthError(value: string, minLength?: number, maxLength?: number): string | undefined {
  if (minLength !== undefined && value.length < minLength) return LABELS.textTooShort(minLength);
  if (maxLength !== undefined && value.length > maxLength) return LABELS.textTooLong(maxLength);
  return undefined;
}

/** The same limits as react-hook-form rules, with the same messages: `register(name, textLengthRules(2, 50))`. */
export function textLengthRules(minLength?: number, maxLength?: number) {
  return {
    ...(minLength !== undefined && { minLength: { value: minLength, message: LABELS.textTooShort(minLength) } }),
    ...(maxLength !== undefined && { maxLength: { value: maxLength, message: LABELS.textTooLong(maxLength) } }),
  };
}

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'children' | 'value'> {
  label: ReactNode;
  /** Controlled value (standalone use). */
  value?: string;
  /** An error from outside (e.g. react-hook-form's `errors.x?.message`); it wins over the length error. */
  error?: string;
  /** Shown as 'Debe tener al menos N caracteres' once the field has been left too short. */
  minLength?: number;
  /** Shown as 'Debe tener como máximo N caracteres' once the field has been left too long. */
  maxLength?: number;
  /** Class of the surrounding Form.Group. */
  groupClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled text input with its error message below the field (specification §5).
 *
 * Standalone: pass `value`, `onChange` and, if wanted, `error`. With react-hook-form: spread
 * `register(name, textLengthRules(min, max))` into it and pass `error={errors[name]?.message}`;
 * `ref` is an ordinary prop in React 19, so register's ref reaches the `<input>` without forwardRef.
 * The length limits are checked by the component once the field has been left (blur) and
 * on every change after that; the native `minlength`/`maxlength` attributes are not set, so the
 * user sees the message rather than a silently truncated text.
 */
export function TextInput({
  label,
  error,
  minLength,
  maxLength,
  groupClassName,
  id,
  onChange,
  onBlur,
  type = 'text',
  ref,
  ...props
}: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  const [touched, setTouched] = useState(false);
  const [current, setCurrent] = useState<string | undefined>(undefined);

  const text = props.value ?? current;
  const lengthError = touched && text !== undefined ? textLengthError(text, minLength, maxLength) : undefined;
  const message = error || lengthError;

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    setCurrent(event.target.value);
    onChange?.(event);
  };
  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    setCurrent(event.target.value);
    setTouched(true);
    onBlur?.(event);
  };

  return (
    <Form.Group className={groupClassName} controlId={inputId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...props}
        ref={ref}
        type={type}
        onChange={handleChange}
        onBlur={handleBlur}
        isInvalid={Boolean(message)}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : props['aria-describedby']}
      />
      {message ? (
        <Form.Control.Feedback type="invalid" id={errorId}>
          {message}
        </Form.Control.Feedback>
      ) : null}
    </Form.Group>
  );
}
