/** @jest-environment jsdom */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { APP_MODAL, AppModal, type AppModalProps } from './AppModal';

// The dialog's own chunk, loaded as a page's idle prefetch loads it.
beforeAll(() => APP_MODAL.load());

function setup(props: Partial<AppModalProps> = {}) {
  const onClose = jest.fn();
  const onConfirm = jest.fn();
  const user = userEvent.setup();
  const view = render(
    <AppModal show title="Editar grupo" onClose={onClose} onConfirm={onConfirm} {...props}>
      <p>Contenido del modal</p>
    </AppModal>,
  );
  return { onClose, onConfirm, user, ...view };
}

test('a dialog named by its title, with the body and the default buttons Guardar and Cancelar', async () => {
  setup();
  const dialog = await screen.findByRole('dialog', { name: 'Editar grupo' });
  expect(dialog.textContent).toContain('Contenido del modal');
  const footer = dialog.querySelector('.modal-footer');
  expect([...(footer?.querySelectorAll('button') ?? [])].map((b) => b.textContent)).toEqual(['Cancelar', 'Guardar']);
  expect(screen.getByRole('button', { name: 'Guardar' }).classList.contains('btn-primary')).toBe(true);
});

test('Guardar calls onConfirm, Cancelar calls onClose', async () => {
  const { user, onConfirm, onClose } = setup();
  await user.click(await screen.findByRole('button', { name: 'Guardar' }));
  expect(onConfirm).toHaveBeenCalledTimes(1);
  expect(onClose).not.toHaveBeenCalled();
  await user.click(screen.getByRole('button', { name: 'Cancelar' }));
  expect(onClose).toHaveBeenCalledTimes(1);
  expect(onConfirm).toHaveBeenCalledTimes(1);
});

test('the close button (Spanish label) and Escape call onClose', async () => {
  const { user, onClose, onConfirm } = setup();
  await user.click(await screen.findByRole('button', { name: 'Cerrar' }));
  expect(onClose).toHaveBeenCalledTimes(1);
  await user.keyboard('{Escape}');
  await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  expect(onConfirm).not.toHaveBeenCalled();
});

test('renamed buttons and the confirm variant', async () => {
  setup({ confirmLabel: 'Si, estoy seguro', cancelLabel: 'Volver', confirmVariant: 'danger' });
  const confirm = await screen.findByRole('button', { name: 'Si, estoy seguro' });
  expect(confirm.classList.contains('btn-danger')).toBe(true);
  expect(screen.getByRole('button', { name: 'Volver' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Cancelar' })).toBeNull();
});

test('while loading the confirm button is disabled and shows "Cargando..."', async () => {
  const { user, onConfirm } = setup({ loading: true });
  const confirm = (await screen.findByRole('button', { name: 'Cargando...' })) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  expect(confirm.textContent).toBe('Cargando...');
  expect(screen.queryByRole('button', { name: 'Guardar' })).toBeNull();
  await user.click(confirm);
  expect(onConfirm).not.toHaveBeenCalled();
});

test('with formId the confirm button submits that form', async () => {
  const onSubmit = jest.fn((e: { preventDefault: () => void }) => e.preventDefault());
  const onClose = jest.fn();
  const user = userEvent.setup();
  render(
    <AppModal show title="Nuevo grupo" onClose={onClose} formId="group-form">
      <form id="group-form" onSubmit={onSubmit} />
    </AppModal>,
  );
  const confirm = await screen.findByRole('button', { name: 'Guardar' });
  expect(confirm.getAttribute('type')).toBe('submit');
  await user.click(confirm);
  expect(onSubmit).toHaveBeenCalledTimes(1);
});

test('nothing is rendered while hidden', () => {
  setup({ show: false });
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('read-only: a single Cerrar in the footer, no Guardar and no Cancelar; it calls onClose', async () => {
  const { user, onClose, onConfirm } = setup({ readOnly: true });
  const dialog = await screen.findByRole('dialog', { name: 'Editar grupo' });
  const footer = dialog.querySelector('.modal-footer')!;
  expect([...footer.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Cerrar']);
  await user.click(within(footer as HTMLElement).getByRole('button', { name: 'Cerrar' }));
  expect(onClose).toHaveBeenCalledTimes(1);
  expect(onConfirm).not.toHaveBeenCalled();
});

test('shown once, the dialog stays mounted: hidden again it closes, shown again it opens with its new content', async () => {
  const props = { title: 'Editar grupo', onClose: jest.fn() };
  const view = render(
    <AppModal {...props} show={false}>
      <p>Primero</p>
    </AppModal>,
  );
  expect(document.querySelector('.modal')).toBeNull();
  view.rerender(
    <AppModal {...props} show>
      <p>Primero</p>
    </AppModal>,
  );
  expect((await screen.findByRole('dialog', { name: 'Editar grupo' })).textContent).toContain('Primero');
  view.rerender(
    <AppModal {...props} show={false}>
      <p>Primero</p>
    </AppModal>,
  );
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  view.rerender(
    <AppModal {...props} show>
      <p>Segundo</p>
    </AppModal>,
  );
  expect((await screen.findByRole('dialog', { name: 'Editar grupo' })).textContent).toContain('Segundo');
});
