/** @jest-environment jsdom */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import type { LockType } from '../../../shared/constants/domain';
import type { LockDefaults } from '../../../shared/contracts/deviceActions';
import { ActionPayloadForm, proposedLockType } from './ActionPayloadForm';

function setup(action: number, defaultLockType?: LockType) {
  const onSubmit = jest.fn();
  const user = userEvent.setup();
  const ui = (lockType: LockType | undefined) => (
    <>
      <ActionPayloadForm formId="f" action={action} intro={<p>Intro</p>} onSubmit={onSubmit} defaultLockType={lockType} />
      <button type="submit" form="f">
        Enviar
      </button>
    </>
  );
  const { rerender } = render(ui(defaultLockType));
  return {
    onSubmit,
    user,
    submit: () => user.click(screen.getByRole('button', { name: 'Enviar' })),
    /** The default arrives (or changes) while the form is shown. */
    setDefault: (lockType: LockType | undefined) => rerender(ui(lockType)),
  };
}

const lockTypeSelect = () => screen.getByRole('combobox', { name: 'Tipo de bloqueo' }) as HTMLSelectElement;

test('LOCK: lock type (the reference §3 labels), message with its counter, reported stolen', async () => {
  const { onSubmit, user, submit } = setup(DEVICE_ACTION.LOCK);
  const lockType = screen.getByRole('combobox', { name: 'Tipo de bloqueo' });
  expect([...lockType.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
    'Por Crédito',
    'Por No Conexión',
    'Por Cambio SIM',
    'Sin Kiosko',
  ]);
  await user.selectOptions(lockType, 'Por Cambio SIM');
  await user.type(screen.getByRole('textbox', { name: 'Mensaje en la pantalla de bloqueo' }), 'Pague su cuota');
  expect(screen.getByText('14/500')).toBeTruthy();
  await user.click(screen.getByRole('checkbox', { name: 'Reportado como robado' }));
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 0, lockType: 'PorCambioSIM', message: 'Pague su cuota', stolen: true });
});

test('LOCK: starts on the configured default lock type, and sends it when left as proposed', async () => {
  const { onSubmit, submit } = setup(DEVICE_ACTION.LOCK, 'SinKiosko');
  expect(lockTypeSelect().value).toBe('SinKiosko');
  expect(lockTypeSelect().selectedOptions[0]!.textContent).toBe('Sin Kiosko');
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 0, lockType: 'SinKiosko', message: null, stolen: false });
});

test('LOCK: without a default yet it starts on "Por Crédito", then moves to the default once it arrives', async () => {
  const { onSubmit, submit, setDefault } = setup(DEVICE_ACTION.LOCK);
  expect(lockTypeSelect().value).toBe('PorCredito');
  setDefault('PorNoConexion');
  await waitFor(() => expect(lockTypeSelect().value).toBe('PorNoConexion'));
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 0, lockType: 'PorNoConexion', message: null, stolen: false });
});

test('LOCK: a type the user picked is kept when the default arrives afterwards', async () => {
  const { onSubmit, user, submit, setDefault } = setup(DEVICE_ACTION.LOCK);
  await user.selectOptions(lockTypeSelect(), 'Por Cambio SIM');
  // Picking the first type again is a choice too.
  await user.selectOptions(lockTypeSelect(), 'Por Crédito');
  setDefault('SinKiosko');
  await submit();
  expect(lockTypeSelect().value).toBe('PorCredito');
  expect(onSubmit).toHaveBeenCalledWith({ action: 0, lockType: 'PorCredito', message: null, stolen: false });
});

test("proposedLockType: the group's own value, else the type's global one; nothing before the defaults load", () => {
  const defaults: LockDefaults = {
    byType: { 1: { global: 'PorNoConexion', groups: { '3': 'PorCambioSIM' } }, 2: { global: 'SinKiosko', groups: {} } },
  };
  expect(proposedLockType(defaults, 1, 3)).toBe('PorCambioSIM');
  expect(proposedLockType(defaults, 1, 4)).toBe('PorNoConexion');
  expect(proposedLockType(defaults, 1, null)).toBe('PorNoConexion');
  expect(proposedLockType(defaults, 2, 3)).toBe('SinKiosko');
  expect(proposedLockType(defaults, 2)).toBe('SinKiosko');
  expect(proposedLockType(undefined, 1, 3)).toBeUndefined();
});

test('LOCK: a message over 500 characters is refused by the shared contract, below the field', async () => {
  const { onSubmit, user, submit } = setup(DEVICE_ACTION.LOCK);
  const message = screen.getByRole('textbox', { name: 'Mensaje en la pantalla de bloqueo' });
  await user.click(message);
  await user.paste('x'.repeat(501));
  expect(screen.getByText('501/500')).toBeTruthy();
  await submit();
  expect(onSubmit).not.toHaveBeenCalled();
  expect(message.getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById(message.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(
    'El campo Mensaje en la pantalla de bloqueo admite como máximo 500 caracteres',
  );
});

test('SEND_NOTIFICATION: title and message are required; counters show the limits', async () => {
  const { onSubmit, user, submit } = setup(DEVICE_ACTION.SEND_NOTIFICATION);
  expect(screen.getByText('0/100')).toBeTruthy();
  expect(screen.getByText('0/500')).toBeTruthy();
  await submit();
  expect(onSubmit).not.toHaveBeenCalled();
  expect(screen.getByRole('textbox', { name: 'Título' }).getAttribute('aria-invalid')).toBe('true');
  await user.type(screen.getByRole('textbox', { name: 'Título' }), 'Aviso');
  await user.type(screen.getByRole('textbox', { name: 'Mensaje' }), 'Su pago vence mañana');
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 5, title: 'Aviso', message: 'Su pago vence mañana' });
  await user.click(screen.getByRole('checkbox', { name: /^Persistente/ }));
  await submit();
  expect(onSubmit).toHaveBeenLastCalledWith({ action: 5, title: 'Aviso', message: 'Su pago vence mañana', persistent: true });
});

test('UNLOCK: "Hasta" is optional (null), or an instant in the future', async () => {
  const first = setup(DEVICE_ACTION.UNLOCK);
  await first.submit();
  expect(first.onSubmit).toHaveBeenCalledWith({ action: 1, until: null });
});

test('UNLOCK: a past "Hasta" is refused', async () => {
  const { onSubmit, user, submit } = setup(DEVICE_ACTION.UNLOCK);
  const until = screen.getByLabelText('Hasta') as HTMLInputElement;
  expect([until.type, until.placeholder]).toEqual(['text', 'dd/mm/aaaa hh:mm']);
  await user.type(until, '01/01/2020 10:00');
  await submit();
  expect(onSubmit).not.toHaveBeenCalled();
  expect(until.getAttribute('aria-invalid')).toBe('true');
});

test('UNLOCK: "Hasta" is typed as dd/mm/aaaa hh:mm, the local time sent as an instant', async () => {
  const { onSubmit, user, submit } = setup(DEVICE_ACTION.UNLOCK);
  const d = new Date(Date.now() + 2 * 86_400_000);
  const [dd, mm, yyyy] = [String(d.getDate()).padStart(2, '0'), String(d.getMonth() + 1).padStart(2, '0'), String(d.getFullYear())];
  await user.type(screen.getByLabelText('Hasta'), `${dd}/${mm}/${yyyy} 18:30`);
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 1, until: new Date(Number(yyyy), Number(mm) - 1, Number(dd), 18, 30).toISOString() });
});

test('UNLOCK_OFFLINE_WITH_DATE: the code is valid until the end of the chosen day', async () => {
  const { onSubmit, user, submit } = setup(DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE);
  await submit();
  expect(onSubmit).not.toHaveBeenCalled();
  const d = new Date(Date.now() + 3 * 86_400_000);
  const [dd, mm, yyyy] = [String(d.getDate()).padStart(2, '0'), String(d.getMonth() + 1).padStart(2, '0'), String(d.getFullYear())];
  // Typed as dd/mm/aaaa, whatever the browser's language (a text field, not the browser's date input).
  const until = screen.getByLabelText('Válido hasta') as HTMLInputElement;
  expect([until.type, until.placeholder]).toEqual(['text', 'dd/mm/aaaa']);
  await user.type(until, `${dd}/${mm}/${yyyy}`);
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 12, until: new Date(`${yyyy}-${mm}-${dd}T23:59:59`).toISOString() });
});

test('CODE_BAR: the reference admits letters, digits and dashes', async () => {
  const { onSubmit, user, submit } = setup(DEVICE_ACTION.CODE_BAR);
  const reference = screen.getByRole('textbox', { name: 'Referencia de pago' });
  await user.type(reference, 'REF 12');
  await submit();
  expect(onSubmit).not.toHaveBeenCalled();
  await user.clear(reference);
  await user.type(reference, 'REF-12');
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 6, reference: 'REF-12' });
});

test('an action without a payload submits just its code', async () => {
  const { onSubmit, submit } = setup(DEVICE_ACTION.RESTRICTIONS);
  expect(screen.getByText('Intro')).toBeTruthy();
  await submit();
  expect(onSubmit).toHaveBeenCalledWith({ action: 8 });
});

test('after a send, a message goes as soon as its field is right (LOCK message shortened, notification title typed)', async () => {
  const lock = setup(DEVICE_ACTION.LOCK);
  const message = screen.getByRole('textbox', { name: 'Mensaje en la pantalla de bloqueo' });
  await lock.user.click(message);
  await lock.user.paste('x'.repeat(501));
  await lock.submit();
  expect(message.getAttribute('aria-invalid')).toBe('true');
  await lock.user.type(message, '{Backspace}');
  expect(message.getAttribute('aria-invalid')).toBeNull();
  expect(document.querySelector('.invalid-feedback')).toBeNull();
  expect(lock.onSubmit).not.toHaveBeenCalled();
});

test('SEND_NOTIFICATION: the empty title says so by its label, and stops saying so once typed', async () => {
  const { user, submit, onSubmit } = setup(DEVICE_ACTION.SEND_NOTIFICATION);
  await submit();
  const title = screen.getByRole('textbox', { name: 'Título' });
  const messageOf = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent;
  expect(messageOf(title)).toBe('El campo Título no puede estar vacío');
  await user.type(title, 'Aviso');
  expect(title.getAttribute('aria-invalid')).toBeNull();
  expect(messageOf(screen.getByRole('textbox', { name: 'Mensaje' }))).toBe('El campo Mensaje no puede estar vacío');
  expect(onSubmit).not.toHaveBeenCalled();
});
