/** @jest-environment jsdom */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axios, { type AxiosRequestConfig } from 'axios';
import { TextDecoder, TextEncoder } from 'node:util';
import { Provider } from 'react-redux';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { INVENTORY_MESSAGES as M } from '../../../shared/messages';

const L = INVENTORY_LABELS.addDevice;
const F = INVENTORY_LABELS.deviceForm;
const IMEI = '356938035643809';

let m: {
  router: typeof import('react-router');
  store: typeof import('../../app/store');
  user: typeof import('../../auth/CurrentUserContext');
  page: typeof import('./AddDevicePage');
};
beforeAll(async () => {
  // react-router needs TextEncoder, which jest's jsdom environment lacks.
  Object.assign(globalThis, { TextEncoder, TextDecoder });
  m = {
    router: await import('react-router'),
    store: await import('../../app/store'),
    user: await import('../../auth/CurrentUserContext'),
    page: await import('./AddDevicePage'),
  };
});

const calls: AxiosRequestConfig[] = [];
let taken = false;
beforeEach(() => {
  calls.length = 0;
  taken = false;
  jest.spyOn(axios, 'request').mockImplementation(async (config: AxiosRequestConfig) => {
    calls.push(config);
    if (config.method === 'GET') return { data: { data: [], total: 0 } };
    if (taken) {
      const err = Object.assign(new Error('409'), {
        isAxiosError: true,
        response: { status: 409, data: { message: M.devices.imeiTaken(IMEI), code: 'IMEI_TAKEN' } },
      });
      throw err;
    }
    return { data: { ...(config.data as object), id: 1, status: 25 } };
  });
});
afterEach(() => jest.restoreAllMocks());

function renderPage() {
  const store = m.store.makeStore(undefined, { apiBase: 'http://api.test/api', getAuthHeaders: async () => ({}), onUnauthorized: () => undefined });
  const current = {
    user: { id: 1, correo: 'a@b.mx', nombres: 'A', apellidos: 'B', profile: null },
    allowed: new Set(['/inventory-management/add-device', '/inventory-management/devices-pre-enrolled']),
  };
  render(
    <Provider store={store}>
      <m.router.MemoryRouter>
        <m.user.CurrentUserProvider value={current}>
          <m.page.default title="Registro de dispositivos" path="/inventory-management/add-device" />
        </m.user.CurrentUserProvider>
      </m.router.MemoryRouter>
    </Provider>,
  );
  return userEvent.setup();
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
  const { default: axe } = await import('axe-core');
  renderPage();
  await screen.findByRole('combobox', { name: F.group });
  // jsdom has no layout (contrast) and no canvas (label/content mismatch): Chromium checks those.
  const result = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, 'label-content-name-mismatch': { enabled: false } }, resultTypes: ['violations'] });
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});
