import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import Form from 'react-bootstrap/Form';

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'children' | 'value' | 'minLength' | 'maxLength'> {
  label: ReactNode;
  /** Controlled value (standalone use). */
  value?: string;
  /** The message shown under the field (e.g. react-hook-form's `errors.x?.message`). */
  error?: string;
  /** Class of the surrounding Form.Group. */
  groupClassName?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled text input with its error message below the field (reference §5). It only
 * displays: the rules (lengths, formats) live in the form's zod schema, checked by
 * react-hook-form's zodResolver, so there is one place that decides what is valid.
 *
 * With react-hook-form: spread `register(name)` into it and pass `error={errors[name]?.message}`;
 * `ref` is an ordinary prop in React 19, so register's ref reaches the `<input>` without forwardRef.
 * No native `minlength`/`maxlength`: the user sees the schema's message rather than a silently
 * truncated text.
 */
export function TextInput({ label, error, groupClassName, id, type = 'text', ref, ...props }: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;

  return (
    <Form.Group className={groupClassName} controlId={inputId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...props}
        ref={ref}
        type={type}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : props['aria-describedby']}
      />
      {error ? (
        <Form.Control.Feedback type="invalid" id={errorId}>
          {error}
        </Form.Control.Feedback>
      ) : null}
    </Form.Group>
  );
}
