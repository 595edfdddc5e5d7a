/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import { ToastContainer, toast } from 'react-toastify/unstyled';
import { PortalToastContainer } from './PortalToastContainer';
import { expectCleanHydration } from '../../tests/helpers/hydration';
import { TOAST_OPTIONS, toastError, toastSuccess } from './toast';

afterEach(() => {
  act(() => toast.dismiss());
});

test('the toast settings are those of reference §9', () => {
  expect(TOAST_OPTIONS).toEqual({ position: 'top-right', autoClose: 5000, hideProgressBar: true });
});

test('the container is a ToastContainer with exactly those settings', () => {
  const element = PortalToastContainer();
  expect(element.type).toBe(ToastContainer);
  const { position, autoClose, hideProgressBar } = element.props as Record<string, unknown>;
  expect({ position, autoClose, hideProgressBar }).toEqual({ position: 'top-right', autoClose: 5000, hideProgressBar: true });
});

test('a success toast shows top right, without a visible progress bar, timed to 5000 ms', async () => {
  const { container } = render(<PortalToastContainer />);
  act(() => {
    toastSuccess('Dispositivo guardado');
  });
  const toastElement = (await screen.findByText('Dispositivo guardado')).closest('.Toastify__toast');
  expect(toastElement?.getAttribute('role')).toBe('alert');
  expect(toastElement?.classList.contains('Toastify__toast--success')).toBe(true);
  expect(container.querySelector('.Toastify__toast-container--top-right')).not.toBeNull();
  expect(container.querySelector('.Toastify__progress-bar--wrp')?.getAttribute('data-hidden')).toBe('true');
  expect(container.querySelector<HTMLElement>('[role="progressbar"]')?.style.animationDuration).toBe('5000ms');
  // Spanish accessible names instead of the library's English ones.
  expect(screen.getByRole('region', { name: 'Notificaciones' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Cerrar' })).toBeTruthy();
});

test('an error toast; the same text twice shows once', async () => {
  const { container } = render(<PortalToastContainer />);
  act(() => {
    toastError('Verifica tu conexión e intentalo de nuevo');
    toastError('Verifica tu conexión e intentalo de nuevo');
  });
  const toastElement = (await screen.findByText('Verifica tu conexión e intentalo de nuevo')).closest('.Toastify__toast');
  expect(toastElement?.classList.contains('Toastify__toast--error')).toBe(true);
  expect(container.querySelectorAll('.Toastify__toast')).toHaveLength(1);
});

test('renders the same on the server and in the browser (no hydration error)', () => {
  expectCleanHydration(<PortalToastContainer />, (root) => {
    expect(root.querySelector('section[aria-label]')).not.toBeNull();
  });
});
