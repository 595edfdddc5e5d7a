/** @jest-environment jsdom */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { ADMIN_API_MESSAGES } from '../../../shared/areaMessages/admin';
import { AdminForm } from './AdminForm';
import { RoleForm } from './RoleForm';

const errorOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

test('administrator: the shared schema checks before sending; the server 409 (field correo) shows under the e-mail', async () => {
  const user = userEvent.setup();
  const onSubmit = jest.fn(() => ({ error: { message: 'Ya existe un administrador con ese correo', field: 'correo' } }));
  render(
    <>
      <AdminForm formId="admin-form" roles={[{ id: 3, nombre: 'Soporte' }]} onSubmit={onSubmit} />
      <button type="submit" form="admin-form">
        Guardar
      </button>
    </>,
  );
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  const email = screen.getByRole('textbox', { name: L.admins.email });
  await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
  expect(onSubmit).not.toHaveBeenCalled();

  await user.type(email, 'Nuevo@Demo.local');
  await user.type(screen.getByRole('textbox', { name: L.admins.names }), 'Nuevo');
  await user.selectOptions(screen.getByRole('combobox', { name: L.admins.profile }), 'Soporte');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
  expect(onSubmit).toHaveBeenCalledWith({ correo: 'nuevo@demo.local', nombres: 'Nuevo', apellidos: '', profileId: 3 });
  await waitFor(() => expect(errorOf(email)).toBe('Ya existe un administrador con ese correo'));
});

test('administrator edit: the fixed e-mail is not sent', async () => {
  const user = userEvent.setup();
  const onSubmit = jest.fn(() => undefined);
  const admin = {
    id: 4,
    correo: 'ana@demo.local',
    nombres: 'Ana',
    apellidos: 'López',
    enabled: true,
    profileId: 3,
    profileNombre: 'Soporte',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
  render(
    <>
      <AdminForm formId="admin-form" admin={admin} roles={[{ id: 3, nombre: 'Soporte' }]} onSubmit={onSubmit} />
      <button type="submit" form="admin-form">
        Guardar
      </button>
    </>,
  );
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ nombres: 'Ana', apellidos: 'López', profileId: 3 }));
});

test('role: an empty name is refused under the name; the server 409 (field nombre) shows under it too', async () => {
  const user = userEvent.setup();
  const onSubmit = jest.fn(() => ({ error: { message: 'Ya existe un rol con ese nombre', field: 'nombre' } }));
  render(
    <>
      <RoleForm formId="role-form" onSubmit={onSubmit} />
      <button type="submit" form="role-form">
        Guardar
      </button>
    </>,
  );
  const name = screen.getByRole('textbox', { name: L.roles.name });
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
  expect(onSubmit).not.toHaveBeenCalled();
  await user.type(name, 'Cobranza');
  await user.click(screen.getByRole('checkbox', { name: 'Dashboard: General' }));
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ nombre: 'Cobranza', paths: ['/dashboard', '/dashboard/general'], actions: [] }));
  await waitFor(() => expect(errorOf(name)).toBe('Ya existe un rol con ese nombre'));
});

describe('a message shows while its field is wrong, and goes as soon as the field is right', () => {
  const renderCreate = (onSubmit: jest.Mock) => {
    render(
      <>
        <AdminForm formId="admin-form" roles={[{ id: 3, nombre: 'Soporte' }]} onSubmit={onSubmit} />
        <button type="submit" form="admin-form">
          Guardar
        </button>
      </>,
    );
    return {
      email: screen.getByRole('textbox', { name: L.admins.email }),
      names: screen.getByRole('textbox', { name: L.admins.names }),
      profile: screen.getByRole('combobox', { name: L.admins.profile }),
    };
  };

  test('nothing is judged while typing before the first save; after it, each field is judged as it changes, by its label', async () => {
    const user = userEvent.setup();
    const onSubmit = jest.fn(() => undefined);
    const { email, names, profile } = renderCreate(onSubmit);
    await user.type(email, 'no-es-correo');
    expect(errorOf(email)).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(errorOf(email)).toBe(`El campo ${FIELD_LABELS.admins.correo} debe ser un correo electrónico válido`));
    expect(errorOf(names)).toBe(`El campo ${FIELD_LABELS.admins.nombres} no puede estar vacío`);
    expect(errorOf(profile)).toBe(`El campo ${FIELD_LABELS.admins.profileId} es obligatorio`);

    await user.clear(email);
    await user.type(email, 'ana@demo.local');
    await waitFor(() => expect(errorOf(email)).toBeUndefined());
    expect(email.getAttribute('aria-invalid')).toBeNull();
    // The others are still wrong, and still say so.
    expect(errorOf(names)).toBe(`El campo ${FIELD_LABELS.admins.nombres} no puede estar vacío`);

    await user.type(names, 'Ana');
    await waitFor(() => expect(errorOf(names)).toBeUndefined());
    await user.selectOptions(profile, 'Soporte');
    await waitFor(() => expect(errorOf(profile)).toBeUndefined());
    expect(onSubmit).not.toHaveBeenCalled();

    // Wrong again: the message comes back without a save.
    await user.clear(names);
    await waitFor(() => expect(errorOf(names)).toBe(`El campo ${FIELD_LABELS.admins.nombres} no puede estar vacío`));
  });

  test("the server's message under the e-mail goes as soon as the e-mail is edited", async () => {
    const user = userEvent.setup();
    const onSubmit = jest.fn(() => ({ error: { message: ADMIN_API_MESSAGES.admins.emailTaken, field: 'correo' } }));
    const { email, names, profile } = renderCreate(onSubmit);
    await user.type(email, 'ana@demo.local');
    await user.type(names, 'Ana');
    await user.selectOptions(profile, 'Soporte');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(errorOf(email)).toBe(ADMIN_API_MESSAGES.admins.emailTaken));
    await user.type(email, 'x');
    await waitFor(() => expect(errorOf(email)).toBeUndefined());
    expect(email.getAttribute('aria-invalid')).toBeNull();
  });

  test("role: the server's message under the name goes as soon as the name is edited", async () => {
    const user = userEvent.setup();
    const onSubmit = jest.fn(() => ({ error: { message: ADMIN_API_MESSAGES.roles.nameTaken, field: 'nombre' } }));
    render(
      <>
        <RoleForm formId="role-form" onSubmit={onSubmit} />
        <button type="submit" form="role-form">
          Guardar
        </button>
      </>,
    );
    const name = screen.getByRole('textbox', { name: L.roles.name });
    await user.type(name, 'Cobranza');
    await user.click(screen.getByRole('checkbox', { name: 'Dashboard: General' }));
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(errorOf(name)).toBe(ADMIN_API_MESSAGES.roles.nameTaken));
    await user.type(name, ' 2');
    await waitFor(() => expect(errorOf(name)).toBeUndefined());
    // An empty name is judged at once, by the label.
    await user.clear(name);
    await waitFor(() => expect(errorOf(name)).toBe(`El campo ${FIELD_LABELS.roles.nombre} no puede estar vacío`));
  });
});
