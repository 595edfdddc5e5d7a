/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoadingButton } from './LoadingButton';

test('shows its children and acts when not loading', async () => {
  const onClick = jest.fn();
  render(
    <LoadingButton variant="success" onClick={onClick}>
      Enviar
    </LoadingButton>,
  );
  const button = screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement;
  expect(button.disabled).toBe(false);
  expect(button.classList.contains('btn-success')).toBe(true);
  expect(button.getAttribute('aria-busy')).toBeNull();
  await userEvent.click(button);
  expect(onClick).toHaveBeenCalledTimes(1);
});

test('while loading: disabled, a spinner and exactly "Cargando..."', async () => {
  const onClick = jest.fn();
  render(
    <LoadingButton loading onClick={onClick}>
      Enviar
    </LoadingButton>,
  );
  const button = screen.getByRole('button') as HTMLButtonElement;
  expect(button.textContent).toBe('Cargando...');
  expect(button.disabled).toBe(true);
  expect(button.getAttribute('aria-busy')).toBe('true');
  const spinner = button.querySelector('.spinner-border');
  expect(spinner).not.toBeNull();
  expect(spinner?.getAttribute('aria-hidden')).toBe('true');
  await userEvent.click(button);
  expect(onClick).not.toHaveBeenCalled();
});

test('disabled stays disabled when not loading', () => {
  render(<LoadingButton disabled>Enviar</LoadingButton>);
  expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(true);
});
