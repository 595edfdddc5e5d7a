/** @jest-environment jsdom */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { luhnCheckDigit, type DeviceBody } from '../../../shared/contracts/devices';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { DeviceForm, type SaveOutcome } from './DeviceForm';

const F = INVENTORY_LABELS.deviceForm;
const GROUPS = [
  { id: 1, name: 'Norte' },
  { id: 2, name: 'Sur' },
];
const VALID_IMEI = '490154203237518';
const BAD_CHECK_DIGIT = '490154203237519';

function setup(onSubmit: (body: DeviceBody) => Promise<SaveOutcome> | SaveOutcome = () => undefined) {
  const submit = jest.fn(onSubmit);
  const user = userEvent.setup();
  render(
    <>
      <DeviceForm formId="test-device-form" groups={GROUPS} onSubmit={submit} />
      <button type="submit" form="test-device-form">
        Guardar
      </button>
    </>,
  );
  return { submit, user };
}

const errorOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

test('every field is labelled; type and group are selects with Móvil/TV and Sin grupo', () => {
  setup();
  for (const label of [F.imei, F.imei2, F.serial, F.brand, F.model, F.customerName, F.creditReference]) {
    expect(screen.getByRole('textbox', { name: label })).toBeTruthy();
  }
  const type = screen.getByRole('combobox', { name: F.deviceType }) as HTMLSelectElement;
  expect([...type.options].map((o) => o.textContent)).toEqual(['Móvil', 'TV']);
  const group = screen.getByRole('combobox', { name: F.group }) as HTMLSelectElement;
  expect([...group.options].map((o) => o.textContent)).toEqual(['Sin grupo', 'Norte', 'Sur']);
});

test('a wrong check digit shows the Luhn error under the IMEI field and nothing is submitted', async () => {
  const { user, submit } = setup();
  const imei = screen.getByRole('textbox', { name: F.imei });
  await user.type(imei, BAD_CHECK_DIGIT);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(imei.getAttribute('aria-invalid')).toBe('true'));
  expect(errorOf(imei)).toBe(M.field.imeiCheckDigit(FIELD_LABELS.devices.imei));
  expect(submit).not.toHaveBeenCalled();

  await user.clear(imei);
  await user.type(imei, '12345');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(errorOf(imei)).toBe(M.field.imei(FIELD_LABELS.devices.imei)));
  expect(submit).not.toHaveBeenCalled();
});

test('a valid form submits the parsed body of the shared schema (empty texts → null)', async () => {
  const { user, submit } = setup();
  await user.type(screen.getByRole('textbox', { name: F.imei }), `${VALID_IMEI.slice(0, 8)} ${VALID_IMEI.slice(8)}`);
  await user.selectOptions(screen.getByRole('combobox', { name: F.deviceType }), 'TV');
  await user.type(screen.getByRole('textbox', { name: F.brand }), 'Samsung');
  await user.type(screen.getByRole('textbox', { name: F.model }), 'QN55');
  await user.selectOptions(screen.getByRole('combobox', { name: F.group }), 'Sur');
  await user.type(screen.getByRole('textbox', { name: F.creditReference }), 'CR-1');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
  expect(submit.mock.calls[0]![0]).toEqual({
    imei: VALID_IMEI,
    imei2: null,
    serial: null,
    deviceType: 2,
    brand: 'Samsung',
    model: 'QN55',
    groupId: 2,
    customerName: null,
    creditReference: 'CR-1',
  });
});

test('the server 409 (IMEI taken, field imei) shows under the IMEI field, which gets the focus', async () => {
  const { user, submit } = setup(() => ({ error: { message: M.devices.imeiTaken(VALID_IMEI), field: 'imei' } }));
  const imei = screen.getByRole('textbox', { name: F.imei });
  await user.type(imei, VALID_IMEI);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(errorOf(imei)).toBe(M.devices.imeiTaken(VALID_IMEI)));
  expect(document.activeElement).toBe(imei);
  expect(submit).toHaveBeenCalledTimes(1);
});

test('a server error lands under the field the API named (field), whatever its text says', async () => {
  const { user } = setup(() => ({ error: { message: M.devices.groupNotFound, field: 'groupId' } }));
  await user.type(screen.getByRole('textbox', { name: F.imei }), VALID_IMEI);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  const group = screen.getByRole('combobox', { name: F.group });
  await waitFor(() => expect(errorOf(group)).toBe(M.devices.groupNotFound));
  expect(errorOf(screen.getByRole('textbox', { name: F.imei }))).toBeUndefined();
});

test('a server error without a field, or naming one the form lacks, shows under no field (the text is not parsed)', async () => {
  const answers: SaveOutcome[] = [{ error: { message: M.field.imei('serial') } }, { error: { message: 'Otro problema', field: 'osVersion' } }];
  const { user, submit } = setup(() => answers.shift());
  await user.type(screen.getByRole('textbox', { name: F.imei }), VALID_IMEI);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(submit).toHaveBeenCalledTimes(2));
  expect(document.querySelector('.invalid-feedback')).toBeNull();
  expect(document.querySelector('[aria-invalid="true"]')).toBeNull();
});

test('editing: the fields start with the device (its group chosen) and an untouched form submits them', async () => {
  const submit = jest.fn();
  const user = userEvent.setup();
  const device = {
    id: 7,
    imei: VALID_IMEI,
    imei2: null,
    serial: 'SN-1',
    deviceType: 1,
    brand: 'Moto',
    model: 'G8',
    osVersion: null,
    agentVersion: null,
    groupId: 2,
    groupName: 'Sur',
    customerName: 'Ana',
    creditReference: null,
    status: 25,
    lockType: null,
    lockMessage: null,
    temporaryUntil: null,
    pendingCommand: null,
    failureReason: null,
    lastSeenAt: null,
    enrolledAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    simIccid: null,
    simCarrier: null,
  } as const;
  render(
    <>
      <DeviceForm formId="edit-form" device={device} groups={GROUPS} onSubmit={submit} />
      <button type="submit" form="edit-form">
        Guardar
      </button>
    </>,
  );
  expect((screen.getByRole('combobox', { name: F.group }) as HTMLSelectElement).value).toBe('2');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
  expect(submit.mock.calls[0]![0]).toEqual({
    imei: VALID_IMEI,
    imei2: null,
    serial: 'SN-1',
    deviceType: 1,
    brand: 'Moto',
    model: 'G8',
    groupId: 2,
    customerName: 'Ana',
    creditReference: null,
  });
});

test('after a save, the IMEI message goes as soon as the IMEI is right, without saving again', async () => {
  const { user, submit } = setup();
  const imei = screen.getByRole('textbox', { name: F.imei });
  await user.type(imei, BAD_CHECK_DIGIT);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(errorOf(imei)).toBe(M.field.imeiCheckDigit(FIELD_LABELS.devices.imei)));
  await user.type(imei, '{Backspace}8');
  await waitFor(() => expect(errorOf(imei)).toBeUndefined());
  expect(imei.getAttribute('aria-invalid')).toBeNull();
  expect(submit).not.toHaveBeenCalled();
});

test("the server's message under a field (IMEI taken, unknown group) goes as soon as that field is edited", async () => {
  const answers: SaveOutcome[] = [
    { error: { message: M.devices.imeiTaken(VALID_IMEI), field: 'imei' } },
    { error: { message: M.devices.groupNotFound, field: 'groupId' } },
  ];
  const { user } = setup(() => answers.shift());
  const imei = screen.getByRole('textbox', { name: F.imei });
  const group = screen.getByRole('combobox', { name: F.group });
  await user.type(imei, VALID_IMEI);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(errorOf(imei)).toBe(M.devices.imeiTaken(VALID_IMEI)));
  await user.clear(imei);
  await user.type(imei, `35332509111111${luhnCheckDigit('35332509111111')}`);
  await waitFor(() => expect(errorOf(imei)).toBeUndefined());

  await user.clear(imei);
  await user.type(imei, VALID_IMEI);
  await user.selectOptions(group, 'Norte');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(errorOf(group)).toBe(`El campo ${FIELD_LABELS.devices.groupId} no corresponde a un grupo existente`));
  await user.selectOptions(group, 'Sur');
  await waitFor(() => expect(errorOf(group)).toBeUndefined());
});
