/** @jest-environment jsdom */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SPEC_TEXT } from '../../shared/messages';
import { ConfirmModal, type ConfirmModalProps } from './ConfirmModal';
import { APP_MODAL } from './AppModal';

// The dialog's own chunk, loaded as a page's idle prefetch loads it.
beforeAll(() => APP_MODAL.load());

const TITLE = 'Eliminar grupo';
const QUESTION = '¿Eliminar el grupo "Norte"?';
const REFUSED = { error: { status: 409, data: { message: 'El grupo tiene dispositivos', code: 'GROUP_NOT_EMPTY' } } };

type Answer = ReturnType<ConfirmModalProps['onConfirm']>;

/** Renders the dialog; `answer` is what each confirmation answers (nothing by default). */
function setup(props: Partial<ConfirmModalProps> = {}, answer: () => Answer = () => undefined) {
  const onClose = jest.fn();
  const onConfirm = jest.fn(answer);
  const user = userEvent.setup();
  const all = { show: true, title: TITLE, message: QUESTION, confirmLabel: 'Eliminar', onClose, onConfirm, ...props };
  const view = render(<ConfirmModal {...all} />);
  const rerender = (next: Partial<ConfirmModalProps>) => view.rerender(<ConfirmModal {...all} {...next} />);
  return { onClose, onConfirm, user, rerender };
}

const footerButtons = (dialog: HTMLElement) => [...dialog.querySelectorAll('.modal-footer button')].map((b) => b.textContent);

test('a dialog named by its title: the question, Cancelar and the confirm button in red', async () => {
  setup();
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  expect(within(dialog).getByText(QUESTION).tagName).toBe('P');
  expect(footerButtons(dialog)).toEqual(['Cancelar', 'Eliminar']);
  expect(within(dialog).getByRole('button', { name: 'Eliminar' }).classList.contains('btn-danger')).toBe(true);
  expect(within(dialog).queryByRole('alert')).toBeNull();
});

test('the confirm button runs onConfirm; Cancelar, the close button and Escape call onClose', async () => {
  const { user, onConfirm, onClose } = setup();
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  expect(onConfirm).toHaveBeenCalledTimes(1);
  expect(onClose).not.toHaveBeenCalled();
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
  await user.keyboard('{Escape}');
  await waitFor(() => expect(onClose).toHaveBeenCalledTimes(3));
  expect(onConfirm).toHaveBeenCalledTimes(1);
});

test('another variant, another cancel label, and a body of its own after the message', async () => {
  setup({ confirmVariant: 'primary', cancelLabel: 'Volver', children: <p>Los agentes se actualizarán.</p> });
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  expect(footerButtons(dialog)).toEqual(['Volver', 'Eliminar']);
  expect(within(dialog).getByRole('button', { name: 'Eliminar' }).classList.contains('btn-primary')).toBe(true);
  expect(dialog.querySelector('.modal-body')?.textContent).toBe(`${QUESTION}Los agentes se actualizarán.`);
});

test('while loading the confirm button is disabled and shows "Cargando..."', async () => {
  const { user, onConfirm } = setup({ loading: true });
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  const confirm = within(dialog).getByRole('button', { name: SPEC_TEXT.loading }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  await user.click(confirm);
  expect(onConfirm).not.toHaveBeenCalled();
});

test("a refused call: the server's message in the dialog, which stays open; the next attempt clears it", async () => {
  let answer: Answer = Promise.resolve(REFUSED);
  const { user, onConfirm, onClose } = setup({}, () => answer);
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  const alert = await within(dialog).findByRole('alert');
  expect(alert.textContent).toBe('El grupo tiene dispositivos');
  expect(alert.getAttribute('data-testid')).toBe('confirm-error');
  expect(onClose).not.toHaveBeenCalled();

  let settle!: () => void;
  answer = new Promise<undefined>((resolve) => (settle = () => resolve(undefined)));
  await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  expect(within(dialog).queryByRole('alert')).toBeNull();
  settle();
  await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(2));
  expect(within(dialog).queryByRole('alert')).toBeNull();
});

test("a shown error ends the loading state, though the caller's flag says so a moment later", async () => {
  const { user, onConfirm, rerender } = setup({}, async () => REFUSED);
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  await within(dialog).findByRole('alert');
  rerender({ loading: true });
  const confirm = within(dialog).getByRole('button', { name: 'Eliminar' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(false);
  await user.click(confirm);
  expect(onConfirm).toHaveBeenCalledTimes(2);
});

test('a network failure reads as reference §8 says; the error has the test id it is given', async () => {
  const { user } = setup({ errorTestId: 'cancel-command-error' }, async () => ({ error: { status: 'NETWORK_ERROR', data: undefined } }));
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  expect((await within(dialog).findByTestId('cancel-command-error')).textContent).toBe(SPEC_TEXT.networkError);
});

test('opened again, the dialog starts without the last error', async () => {
  const { user, rerender } = setup({}, async () => REFUSED);
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  await within(dialog).findByRole('alert');
  rerender({ show: false });
  rerender({ show: true });
  const again = await screen.findByRole('dialog', { name: TITLE });
  expect(within(again).queryByRole('alert')).toBeNull();
});

test("read-only: a single 'Cerrar' and no error", async () => {
  const { user, onClose, onConfirm } = setup({ readOnly: true, message: undefined, children: <p>La versión actual no se puede eliminar.</p> });
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  expect(footerButtons(dialog)).toEqual(['Cerrar']);
  expect(dialog.querySelector('.modal-body')?.textContent).toBe('La versión actual no se puede eliminar.');
  await user.click(within(dialog.querySelector('.modal-footer') as HTMLElement).getByRole('button', { name: 'Cerrar' }));
  expect(onClose).toHaveBeenCalledTimes(1);
  expect(onConfirm).not.toHaveBeenCalled();
});

test('an error shown before the dialog turned read-only goes with the confirm button', async () => {
  const { user, rerender } = setup({}, async () => REFUSED);
  const dialog = await screen.findByRole('dialog', { name: TITLE });
  await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
  await within(dialog).findByRole('alert');
  rerender({ readOnly: true, message: undefined, children: <p role="alert">La versión actual no se puede eliminar.</p> });
  expect(
    within(dialog)
      .getAllByRole('alert')
      .map((a) => a.textContent),
  ).toEqual(['La versión actual no se puede eliminar.']);
});

test('nothing is rendered while hidden', () => {
  setup({ show: false });
  expect(screen.queryByRole('dialog')).toBeNull();
});
