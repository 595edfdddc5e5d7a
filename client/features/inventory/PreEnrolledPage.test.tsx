/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, waitFor, within } from '@testing-library/react';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import type { Group } from '../../../shared/contracts/groups';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { renderPortal, seriousViolations, stubApi, type ApiCall, loadDialogs } from '../../testing/renderPortal';
import PreEnrolledPage from './PreEnrolledPage';

beforeAll(loadDialogs);

const L = INVENTORY_LABELS.preEnrolled;
const PATH = '/inventory-management/devices-pre-enrolled';
const at = '2025-03-01T12:00:00.000Z';
const GROUPS: Group[] = [
  { id: 1, name: 'Norte', description: null, deviceCount: 1, enrolledCount: 0, preEnrolledCount: 1, createdAt: at, updatedAt: at },
  { id: 2, name: 'Sur', description: null, deviceCount: 0, enrolledCount: 0, preEnrolledCount: 0, createdAt: at, updatedAt: at },
];
const DEVICE: Device = {
  id: 9,
  imei: '490154203237518',
  imei2: null,
  serial: 'SN-9',
  deviceType: 1,
  brand: 'Moto',
  model: 'G8',
  osVersion: null,
  agentVersion: null,
  groupId: 1,
  groupName: 'Norte',
  customerName: 'Ana',
  creditReference: 'R-9',
  status: 25,
  lockType: null,
  lockMessage: null,
  temporaryUntil: null,
  pendingCommand: null,
  failureReason: null,
  lastSeenAt: null,
  enrolledAt: null,
  createdAt: at,
  updatedAt: at,
  simIccid: null,
  simCarrier: null,
};

let calls: ApiCall[] = [];
let devices: Device[] = [DEVICE];
beforeEach(() => {
  devices = [DEVICE];
  calls = stubApi((call) => {
    if (call.method === 'GET' && call.url === '/v5/groups') return { data: GROUPS, total: GROUPS.length };
    if (call.method === 'GET') return { data: devices, total: devices.length, totalIsEstimate: false };
    return DEVICE;
  });
});
afterEach(() => jest.restoreAllMocks());

function renderPage({ actions = [] as number[], allowed = [PATH], url = PATH } = {}) {
  return renderPortal(<PreEnrolledPage title="Dispositivos pre-enrolados" path={PATH} />, { url, allowed, actions }).user;
}

const listCalls = () => calls.filter((c) => c.method === 'GET' && c.url === '/v5/devices');

test('asks for the pre-enrolled stage with the URL state and shows the row', async () => {
  renderPage({ url: `${PATH}?search=4901&groupId=1&sort=imei&order=asc&page=2&perPage=50` });
  const row = await screen.findByTestId(`pre-enrolled-row-${DEVICE.imei}`);
  expect(listCalls()[0]!.params).toEqual({ stage: 'preEnrolled', search: '4901', groupId: '1', sort: 'imei', order: 'asc', page: 2, perPage: 50 });
  expect(row.textContent).toContain('Móvil');
  expect(row.textContent).toContain('Moto G8');
  expect(row.textContent).toContain('Norte');
  expect(within(row).getByRole('button', { name: 'Copiar IMEI' })).toBeTruthy();
  expect(screen.getByRole('columnheader', { name: /IMEI/ }).getAttribute('aria-sort')).toBe('ascending');
});

test('Eliminar is disabled, with the reason as its title, when the profile lacks DELETE_DEVICE', async () => {
  renderPage({ actions: [] });
  const row = await screen.findByTestId(`pre-enrolled-row-${DEVICE.imei}`);
  const del = within(row).getByRole('button', { name: L.deleteOf(DEVICE.imei) }) as HTMLButtonElement;
  expect(del.disabled).toBe(true);
  expect(del.title).toBe(M.actions.notGranted('Eliminar dispositivo'));
});

test('deleting asks for confirmation naming the IMEI, then DELETE /v5/devices/:id', async () => {
  const user = renderPage({ actions: [DEVICE_ACTION.DELETE_DEVICE] });
  const row = await screen.findByTestId(`pre-enrolled-row-${DEVICE.imei}`);
  await user.click(within(row).getByRole('button', { name: L.deleteOf(DEVICE.imei) }));
  const dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(dialog.textContent).toContain(L.confirmDelete(DEVICE.imei));
  await user.click(within(dialog).getByRole('button', { name: L.delete }));
  await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/v5/devices/9')).toBe(true));
});

test('Asignar grupo sends the device with only the group changed', async () => {
  const user = renderPage();
  const row = await screen.findByTestId(`pre-enrolled-row-${DEVICE.imei}`);
  await user.click(within(row).getByRole('button', { name: L.assignGroupOf(DEVICE.imei) }));
  const dialog = await screen.findByRole('dialog', { name: L.assignGroup });
  const select = within(dialog).getByRole('combobox', { name: L.assignGroupText(DEVICE.imei) }) as HTMLSelectElement;
  expect(select.value).toBe('1');
  await user.selectOptions(select, 'Sur');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
  expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
    url: '/v5/devices/9',
    data: {
      imei: DEVICE.imei,
      imei2: null,
      serial: 'SN-9',
      deviceType: 1,
      brand: 'Moto',
      model: 'G8',
      groupId: 2,
      customerName: 'Ana',
      creditReference: 'R-9',
    },
  });
});

test('empty: the message and a link to the registration page when allowed', async () => {
  devices = [];
  renderPage({ allowed: [PATH, '/inventory-management/add-device'] });
  const empty = await screen.findByTestId('pre-enrolled-empty');
  expect(empty.textContent).toContain(L.empty);
  expect(within(empty).getByRole('link', { name: L.register }).getAttribute('href')).toBe('/inventory-management/add-device');
});

test('sorting by a column header puts it in the URL (and the request)', async () => {
  const user = renderPage();
  await screen.findByTestId(`pre-enrolled-row-${DEVICE.imei}`);
  expect(listCalls()[0]!.params).toMatchObject({ sort: 'createdAt', order: 'desc' });
  await user.click(screen.getByRole('button', { name: L.imei }));
  await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ sort: 'imei', order: 'asc' }));
});

test('axe: no serious violations in the list and in the edit modal', async () => {
  const user = renderPage({ actions: [DEVICE_ACTION.DELETE_DEVICE], allowed: [PATH, '/inventory-management/add-device'] });
  const row = await screen.findByTestId(`pre-enrolled-row-${DEVICE.imei}`);
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(row).getByRole('button', { name: L.editOf(DEVICE.imei) }));
  await screen.findByRole('dialog', { name: L.editTitle });
  expect(await seriousViolations()).toEqual([]);
});
