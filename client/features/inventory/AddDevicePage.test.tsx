/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, waitFor, within } from '@testing-library/react';
import { ADD_DEVICE_LABELS } from '../../../shared/constants/addDeviceLabels';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { apiError, renderPortal, seriousViolations, stubApi, type ApiCall } from '../../testing/renderPortal';
import AddDevicePage from './AddDevicePage';

const L = ADD_DEVICE_LABELS;
const F = INVENTORY_LABELS.deviceForm;
const IMEI = '356938035643809';

let calls: ApiCall[] = [];
let taken = false;
beforeEach(() => {
  taken = false;
  calls = stubApi((call) => {
    if (call.method === 'GET') return { data: [], total: 0 };
    if (taken) throw apiError(409, { message: M.devices.imeiTaken(IMEI), code: 'IMEI_TAKEN', field: 'imei' });
    return { ...(call.data as object), id: 1, status: 25 };
  });
});
afterEach(() => jest.restoreAllMocks());

function renderPage() {
  const { user } = renderPortal(<AddDevicePage title="Registro de dispositivos" path="/inventory-management/add-device" />, {
    allowed: ['/inventory-management/add-device', '/inventory-management/devices-pre-enrolled'],
  });
  return user;
}

test('a valid device is registered: POST /v5/devices, the form empties, a link to the pre-enrolled list', async () => {
  const user = renderPage();
  const imei = screen.getByRole('textbox', { name: F.imei });
  await user.type(imei, IMEI);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  const done = await screen.findByTestId('device-registered');
  expect(done.textContent).toContain(L.createdDetail(IMEI));
  expect(within(done).getByRole('link', { name: L.viewPreEnrolled }).getAttribute('href')).toBe('/inventory-management/devices-pre-enrolled');
  expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: '/v5/devices', data: { imei: IMEI, deviceType: 1, groupId: null } });
  await waitFor(() => expect((imei as HTMLInputElement).value).toBe(''));
});

test('a taken IMEI (409) shows the server message under the IMEI field', async () => {
  taken = true;
  const user = renderPage();
  const imei = screen.getByRole('textbox', { name: F.imei });
  await user.type(imei, IMEI);
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(imei.getAttribute('aria-invalid')).toBe('true'));
  expect(document.getElementById(imei.getAttribute('aria-describedby')!)?.textContent).toBe(M.devices.imeiTaken(IMEI));
  expect(screen.queryByTestId('device-registered')).toBeNull();
});

test('axe: no serious violations on the page', async () => {
  renderPage();
  await screen.findByRole('combobox', { name: F.group });
  expect(await seriousViolations()).toEqual([]);
});
