/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { toast } from 'react-toastify/unstyled';
import { CopyText } from './CopyText';
import { PortalToastContainer } from './PortalToastContainer';

function setClipboard(clipboard: unknown) {
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true, writable: true });
}

function setup(text: string | null = '356938035643809', label = 'IMEI') {
  const user = userEvent.setup();
  render(
    <>
      <CopyText text={text} label={label} />
      <PortalToastContainer />
    </>,
  );
  return user;
}

afterEach(() => {
  act(() => toast.dismiss());
});

test('shows the text and a labelled copy button with the clipboard icon', () => {
  setup();
  expect(screen.getByText('356938035643809')).toBeTruthy();
  const button = screen.getByRole('button', { name: 'Copiar IMEI' });
  const icon = button.querySelector('i');
  expect(icon?.className).toBe('bi bi-clipboard');
  expect(icon?.getAttribute('aria-hidden')).toBe('true');
});

test('copies the text and toasts "<label> <text> copiado"', async () => {
  const user = setup();
  const writeText = jest.fn(async (_text: string) => undefined);
  setClipboard({ writeText });
  await user.click(screen.getByRole('button', { name: 'Copiar IMEI' }));
  expect(writeText).toHaveBeenCalledWith('356938035643809');
  const message = await screen.findByText('IMEI 356938035643809 copiado');
  expect(message.closest('.Toastify__toast')?.classList.contains('Toastify__toast--success')).toBe(true);
});

test('without a clipboard: a Spanish error toast', async () => {
  const user = setup('ABC123', 'Serie');
  setClipboard(undefined);
  await user.click(screen.getByRole('button', { name: 'Copiar Serie' }));
  const message = await screen.findByText('No se pudo copiar al portapapeles');
  expect(message.closest('.Toastify__toast')?.classList.contains('Toastify__toast--error')).toBe(true);
  expect(screen.queryByText(/copiado/)).toBeNull();
});

test('when the clipboard refuses: a Spanish error toast', async () => {
  const user = setup();
  setClipboard({ writeText: jest.fn(async () => Promise.reject(new Error('denied'))) });
  await user.click(screen.getByRole('button', { name: 'Copiar IMEI' }));
  expect(await screen.findByText('No se pudo copiar al portapapeles')).toBeTruthy();
  expect(screen.queryByText(/copiado/)).toBeNull();
});

test('an empty text shows "-" and no copy button', () => {
  setup(null);
  expect(screen.getByText('-')).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Copiar/ })).toBeNull();
});

test('renders on the server without reading the clipboard', () => {
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    get() {
      throw new Error('the clipboard was read during render');
    },
  });
  let html: string;
  try {
    html = renderToString(<CopyText text="356938035643809" label="IMEI" />);
  } finally {
    setClipboard(undefined);
  }
  expect(html).toContain('356938035643809');
  expect(html).toContain('aria-label="Copiar IMEI"');
});
