/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { TextInput, textLengthError, textLengthRules } from './TextInput';
import { expectCleanHydration } from '../../tests/helpers/hydration';

function Controlled({ initial = '', error }: { initial?: string; error?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <TextInput
      label="Nombre del grupo"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      minLength={3}
      maxLength={10}
      error={error}
    />
  );
}

const errorOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id ? document.getElementById(id) : null;
};

test('the Spanish length messages, built from the limits', () => {
  expect(textLengthError('ab', 3, 10)).toBe('Debe tener al menos 3 caracteres');
  expect(textLengthError('abcdefghijk', 3, 10)).toBe('Debe tener como máximo 10 caracteres');
  expect(textLengthError('', 1)).toBe('Debe tener al menos 1 carácter');
  expect(textLengthError('abc', 3, 10)).toBeUndefined();
  expect(textLengthError('anything')).toBeUndefined();
  expect(textLengthRules(3, 10)).toEqual({
    minLength: { value: 3, message: 'Debe tener al menos 3 caracteres' },
    maxLength: { value: 10, message: 'Debe tener como máximo 10 caracteres' },
  });
  expect(textLengthRules(undefined, 5)).toEqual({ maxLength: { value: 5, message: 'Debe tener como máximo 5 caracteres' } });
});

test('the label names the input; no error at first', () => {
  render(<Controlled initial="ab" />);
  const input = screen.getByRole('textbox', { name: 'Nombre del grupo' });
  expect(input.classList.contains('is-invalid')).toBe(false);
  expect(input.getAttribute('aria-invalid')).toBeNull();
  expect(document.querySelector('.invalid-feedback')).toBeNull();
});

test('standalone: too short after leaving the field, shown below it, cleared when fixed', async () => {
  const user = userEvent.setup();
  render(<Controlled />);
  const input = screen.getByRole('textbox', { name: 'Nombre del grupo' });
  await user.type(input, 'ab');
  expect(document.querySelector('.invalid-feedback')).toBeNull();
  await user.tab();
  expect(input.classList.contains('is-invalid')).toBe(true);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  const feedback = errorOf(input);
  expect(feedback?.textContent).toBe('Debe tener al menos 3 caracteres');
  expect(feedback?.classList.contains('invalid-feedback')).toBe(true);
  // Below the field: the message follows the input in the group.
  expect(input.compareDocumentPosition(feedback!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  await user.type(input, 'c');
  expect(input.classList.contains('is-invalid')).toBe(false);
  expect(document.querySelector('.invalid-feedback')).toBeNull();
});

test('standalone: too long', async () => {
  const user = userEvent.setup();
  render(<Controlled />);
  const input = screen.getByRole('textbox', { name: 'Nombre del grupo' }) as HTMLInputElement;
  await user.type(input, 'abcdefghijkl');
  expect(input.value).toBe('abcdefghijkl');
  await user.tab();
  expect(errorOf(input)?.textContent).toBe('Debe tener como máximo 10 caracteres');
});

test('an error given from outside is shown and wins', () => {
  render(<Controlled initial="ab" error="El nombre ya existe" />);
  const input = screen.getByRole('textbox', { name: 'Nombre del grupo' });
  expect(input.classList.contains('is-invalid')).toBe(true);
  expect(errorOf(input)?.textContent).toBe('El nombre ya existe');
});

function HookForm({ onValid }: { onValid: (values: { nombre: string }) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ nombre: string }>({ defaultValues: { nombre: 'Grupo' } });
  return (
    <form onSubmit={handleSubmit(onValid)} noValidate>
      <TextInput
        label="Nombre"
        minLength={3}
        maxLength={10}
        {...register('nombre', textLengthRules(3, 10))}
        error={errors.nombre?.message}
      />
      <button type="submit">Enviar</button>
    </form>
  );
}

test('with react-hook-form: register works (ref, default value, rules, messages)', async () => {
  const user = userEvent.setup();
  const onValid = jest.fn();
  render(<HookForm onValid={onValid} />);
  const input = screen.getByRole('textbox', { name: 'Nombre' }) as HTMLInputElement;
  expect(input.value).toBe('Grupo');
  await user.clear(input);
  await user.type(input, 'ab');
  await user.click(screen.getByRole('button', { name: 'Enviar' }));
  expect(onValid).not.toHaveBeenCalled();
  expect(errorOf(input)?.textContent).toBe('Debe tener al menos 3 caracteres');
  await user.type(input, 'cd');
  await user.click(screen.getByRole('button', { name: 'Enviar' }));
  expect(onValid).toHaveBeenCalledTimes(1);
  expect(onValid.mock.calls[0]![0]).toEqual({ nombre: 'abcd' });
  expect(errorOf(input)).toBeNull();
});

test('renders the same on the server and in the browser (no hydration error)', () => {
  expectCleanHydration(<TextInput label="IMEI" defaultValue="356938035643809" error="IMEI inválido" />, (root) => {
    const input = root.querySelector('input')!;
    expect(root.querySelector('label')?.htmlFor).toBe(input.id);
  });
});
