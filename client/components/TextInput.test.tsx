/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import * as z from 'zod';
import { TextInput } from './TextInput';
import { expectCleanHydration } from '../../tests/helpers/hydration';

function Controlled({ initial = '', error }: { initial?: string; error?: string }) {
  const [value, setValue] = useState(initial);
  return <TextInput label="Nombre del grupo" value={value} onChange={(e) => setValue(e.target.value)} error={error} />;
}

const errorOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id ? document.getElementById(id) : null;
};

test('the label names the input; no error at first', () => {
  render(<Controlled initial="ab" />);
  const input = screen.getByRole('textbox', { name: 'Nombre del grupo' });
  expect(input.classList.contains('is-invalid')).toBe(false);
  expect(input.getAttribute('aria-invalid')).toBeNull();
  expect(document.querySelector('.invalid-feedback')).toBeNull();
});

test('it only displays: no length check of its own, whatever is typed and however often the field is left', async () => {
  const user = userEvent.setup();
  render(<Controlled />);
  const input = screen.getByRole('textbox', { name: 'Nombre del grupo' }) as HTMLInputElement;
  await user.type(input, 'a'.repeat(300));
  await user.tab();
  expect(input.value).toHaveLength(300);
  expect(input.getAttribute('maxlength')).toBeNull();
  expect(input.classList.contains('is-invalid')).toBe(false);
  expect(document.querySelector('.invalid-feedback')).toBeNull();
});

test('the error it is given is shown below the field', () => {
  render(<Controlled initial="ab" error="El nombre ya existe" />);
  const input = screen.getByRole('textbox', { name: 'Nombre del grupo' });
  expect(input.classList.contains('is-invalid')).toBe(true);
  expect(errorOf(input)?.textContent).toBe('El nombre ya existe');
});

const nameSchema = z.object({
  nombre: z.string().trim().min(3, { error: 'Debe tener al menos 3 caracteres' }).max(10, { error: 'Debe tener como máximo 10 caracteres' }),
});

function HookForm({ onValid }: { onValid: (values: { nombre: string }) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ nombre: string }>({ resolver: zodResolver(nameSchema), defaultValues: { nombre: 'Grupo' } });
  return (
    <form onSubmit={handleSubmit(onValid)} noValidate>
      <TextInput label="Nombre" {...register('nombre')} error={errors.nombre?.message} />
      <button type="submit">Enviar</button>
    </form>
  );
}

test("with react-hook-form and a zod schema: register works (ref, default value), the schema's message shows under the field", async () => {
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
