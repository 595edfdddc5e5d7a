/** @jest-environment jsdom */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { MENU } from '../../../shared/constants/routes';
import { ADMIN_API_MESSAGES } from '../../../shared/areaMessages/admin';
import { RoleForm } from './RoleForm';

const DASHBOARD = MENU[0]!;

test('a role without pages is refused under the permission tree, actions alone included; one page lets it through', async () => {
  const user = userEvent.setup();
  const onSubmit = jest.fn(() => undefined);
  render(
    <>
      <RoleForm formId="role-form" onSubmit={onSubmit} />
      <button type="submit" form="role-form">
        Guardar
      </button>
    </>,
  );
  await user.type(screen.getByRole('textbox', { name: L.roles.name }), 'Cobranza');
  await user.click(screen.getByRole('checkbox', { name: DEVICE_ACTIONS[0]!.label }));
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toBe(ADMIN_API_MESSAGES.field.noPaths);
  // Below the tree: the last of its checkboxes comes before the message.
  const boxes = screen.getAllByRole('checkbox');
  expect(boxes.at(-1)!.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect(onSubmit).not.toHaveBeenCalled();

  await user.click(screen.getByRole('checkbox', { name: DASHBOARD.title }));
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() =>
    expect(onSubmit).toHaveBeenCalledWith({
      nombre: 'Cobranza',
      paths: [DASHBOARD.path, ...DASHBOARD.submodules.map((s) => s.path)],
      actions: [DEVICE_ACTIONS[0]!.code],
    }),
  );
});
