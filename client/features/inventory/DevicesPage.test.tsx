/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { DEVICE_ACTION, DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../../shared/constants/domain';
import type { Command, LockDefaults } from '../../../shared/contracts/deviceActions';
import type { Device, DeviceList, PendingCommand } from '../../../shared/contracts/devices';
import type { BulkPreview, Job } from '../../../shared/contracts/jobs';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { formatDateTime } from '../../components/formatDate';
import { INVENTORY_MESSAGES } from '../../../shared/areaMessages/inventory';
import { apiError, loadDialogs, renderPortal, stubRoutes } from '../../testing/renderPortal';
import { DEVICE_OVERLAYS } from './dialogChunks';
import DevicesPage from './DevicesPage';

const PATH = '/inventory-management/devices';

function device(id: number, over: Partial<Device> = {}): Device {
  return {
    id,
    imei: `35693803564${String(id).padStart(4, '0')}`,
    imei2: null,
    serial: null,
    deviceType: 1,
    brand: 'Samsung',
    model: 'Galaxy A15',
    osVersion: '14',
    agentVersion: '5.2.0',
    groupId: null,
    groupName: null,
    customerName: `Cliente ${id}`,
    creditReference: `CR-${id}`,
    status: DEVICE_STATUS.activo,
    lockType: null,
    lockMessage: null,
    temporaryUntil: null,
    pendingCommand: null,
    failureReason: null,
    lastSeenAt: new Date(Date.now() - 5.5 * 60_000).toISOString(),
    enrolledAt: '2026-01-01T00:00:00Z',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    simIccid: null,
    simCarrier: null,
    ...over,
  };
}

let location = '';
function LocationProbe() {
  location = useLocation().search;
  return null;
}

const ALL_ACTIONS = DEVICE_ACTIONS.map((a) => a.code);

function renderPage(url = PATH, actions: number[] = ALL_ACTIONS) {
  const page = (
    <>
      <DevicesPage title="Dispositivos enrolados" path={PATH} />
      <LocationProbe />
    </>
  );
  return renderPortal(
    <>
      <Routes>
        <Route path={PATH} element={page} />
      </Routes>
      <PortalToastContainer />
    </>,
    { url, allowed: [PATH], actions },
  ).user;
}

const listOf = (rows: Device[], total = rows.length, totalIsEstimate = false): DeviceList => ({ data: rows, total, totalIsEstimate });
const PAGE = Array.from({ length: 25 }, (_, i) => device(i + 1));
const GROUPS = {
  'GET /v5/groups': () => ({ data: [{ id: 3, name: 'Norte', description: null, deviceCount: 2, createdAt: '', updatedAt: '' }], total: 1 }),
};
/** The configured default lock types: each type's own, and group 3 (Norte) overriding the smartphones'. */
const LOCK_DEFAULTS: LockDefaults = {
  byType: { 1: { global: 'PorCambioSIM', groups: { '3': 'PorNoConexion' } }, 2: { global: 'SinKiosko', groups: {} } },
};
const DEFAULTS_ROUTE = { 'GET /v5/devices/lock-defaults': () => LOCK_DEFAULTS };
const lockTypeIn = (dialog: HTMLElement) => (within(dialog).getByRole('combobox', { name: 'Tipo de bloqueo' }) as HTMLSelectElement).value;

// The dialogs and the list's overlays, as the page's idle prefetch loads them: no test waits on their compile.
beforeAll(() => Promise.all([loadDialogs(), ...DEVICE_OVERLAYS.map((chunk) => chunk.load())]));

beforeAll(() => {
  // The Offcanvas asks for the breakpoint; jsdom has no matchMedia.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});

afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

test('lists the enrolled devices of the URL page: columns, badges, labels, relative last-seen, total', async () => {
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () =>
      listOf(
        [
          device(1, { status: DEVICE_STATUS.bloqueado, lockType: 'PorCredito', groupId: 3, groupName: 'Norte' }),
          device(2, { deviceType: 2, brand: null, model: null, customerName: null, creditReference: null, lastSeenAt: null, agentVersion: null }),
        ],
        2,
      ),
  });
  renderPage();
  const rows = await screen.findAllByTestId('device-row');
  expect(rows).toHaveLength(2);
  const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((td) => td.textContent);
  expect(cells(rows[0]!).slice(2, 10)).toEqual([
    'Móvil',
    'Samsung Galaxy A15',
    'Bloqueado',
    'Por Crédito',
    'Norte',
    'Cliente 1CR-1',
    'hace 5 minutos',
    '5.2.0',
  ]);
  expect(cells(rows[1]!).slice(2, 10)).toEqual(['TV', '-', 'Activo', '-', '-', '-', 'Nunca', '-']);
  expect(rows[0]!.querySelector('.badge')?.className).toContain('text-bg-danger');
  expect(rows[0]!.querySelector('time')?.getAttribute('title')).toMatch(/\d{4}/);
  expect(within(rows[0]!).getByRole('button', { name: 'Copiar IMEI' })).toBeTruthy();
  expect(screen.getByText('Página 1 de 1 (2 dispositivos)')).toBeTruthy();
  const list = calls.find((c) => c.url === '/v5/devices')!;
  expect(list.params).toEqual({ stage: 'enrolled', page: 1, perPage: 25 });
});

test('the URL drives the request; sorting and filters write the URL (page back to 1), with aria-sort', async () => {
  const calls = stubRoutes({ ...GROUPS, 'GET /v5/devices': () => listOf(PAGE, 1_000_000, true) });
  const user = renderPage(`${PATH}?page=3&perPage=50&status=3:PorCredito&deviceType=2&groupId=none&search=3569&sort=bogus`);
  await screen.findAllByTestId('device-row');
  expect(calls.find((c) => c.url === '/v5/devices')!.params).toEqual({
    stage: 'enrolled',
    status: '3:PorCredito',
    deviceType: '2',
    groupId: 'none',
    search: '3569',
    page: 3,
    perPage: 50,
  });
  expect(screen.getByText('Página 3 de ≈20,000 (≈1,000,000 dispositivos)')).toBeTruthy();

  const imeiHeader = screen.getByRole('columnheader', { name: /IMEI/ });
  expect(imeiHeader.getAttribute('aria-sort')).toBe('none');
  await user.click(within(imeiHeader).getByRole('button'));
  await waitFor(() => expect(imeiHeader.getAttribute('aria-sort')).toBe('ascending'));
  expect(location).toContain('sort=imei');
  expect(location).not.toContain('page=3');
  await user.click(within(imeiHeader).getByRole('button'));
  await waitFor(() => expect(imeiHeader.getAttribute('aria-sort')).toBe('descending'));
  expect(calls.at(-1)!.params).toMatchObject({ sort: 'imei', order: 'desc', page: 1 });

  await user.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), 'Liberado');
  await waitFor(() => expect(calls.at(-1)!.params).toMatchObject({ status: '9' }));
  await user.selectOptions(screen.getByRole('combobox', { name: 'Resultados por página' }), '100');
  await waitFor(() => expect(calls.at(-1)!.params).toMatchObject({ perPage: 100, page: 1 }));
});

test('empty states: with filters a different text and "Limpiar filtros"; without, the plain one', async () => {
  stubRoutes({ ...GROUPS, 'GET /v5/devices': () => listOf([]) });
  const user = renderPage(`${PATH}?status=21`);
  const empty = await screen.findByTestId('devices-empty');
  expect(empty.textContent).toContain('Ningún dispositivo coincide con los filtros');
  await user.click(within(empty).getByRole('button', { name: 'Limpiar filtros' }));
  await waitFor(() => expect(screen.getByTestId('devices-empty').textContent).toContain('No hay dispositivos enrolados'));
  expect(location).toBe('');
});

test("a dashboard's link: its filters reach the API and show as chips; removing one drops it from the URL; 'Limpiar filtros' drops them all", async () => {
  const calls = stubRoutes({ ...GROUPS, 'GET /v5/devices': () => listOf([device(1)]) });
  const user = renderPage(`${PATH}?inFlight=true&agentVersion=3.4.1&agentVersionNot=3.3.0&deviceType=1`);
  await screen.findAllByTestId('device-row');
  expect(calls.find((c) => c.url === '/v5/devices')!.params).toEqual({
    stage: 'enrolled',
    deviceType: '1',
    inFlight: 'true',
    agentVersion: '3.4.1',
    agentVersionNot: '3.3.0',
    page: 1,
    perPage: 25,
  });
  const chips = screen.getByRole('list', { name: 'Filtros aplicados' });
  expect(
    within(chips)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label')),
  ).toEqual(['Quitar filtro Con comando en curso', 'Quitar filtro Versión del agente: 3.4.1', 'Quitar filtro Versión del agente distinta de 3.3.0']);

  await user.click(within(chips).getByRole('button', { name: 'Quitar filtro Versión del agente: 3.4.1' }));
  await waitFor(() => expect(location).not.toContain('agentVersion=3.4.1'));
  expect(new URLSearchParams(location).get('agentVersionNot')).toBe('3.3.0');
  expect(new URLSearchParams(location).get('inFlight')).toBe('true');
  await waitFor(() => expect(calls.at(-1)!.params).not.toHaveProperty('agentVersion'));
  expect(calls.at(-1)!.params).toMatchObject({ inFlight: 'true', agentVersionNot: '3.3.0' });
  expect(screen.queryByRole('button', { name: 'Quitar filtro Versión del agente: 3.4.1' })).toBeNull();

  await user.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
  await waitFor(() => expect(location).toBe(''));
  expect(screen.queryByRole('list', { name: 'Filtros aplicados' })).toBeNull();
  await waitFor(() => expect(calls.at(-1)!.params).toEqual({ stage: 'enrolled', page: 1, perPage: 25 }));
});

test('only valid values of those filters are read from the URL; a chip filter alone makes the empty state the filtered one', async () => {
  const calls = stubRoutes({ ...GROUPS, 'GET /v5/devices': () => listOf([]) });
  const user = renderPage(`${PATH}?inFlight=yes&agentVersion=${'9'.repeat(41)}&agentVersionNot=%203.3.0%20`);
  const empty = await screen.findByTestId('devices-empty');
  expect(calls.find((c) => c.url === '/v5/devices')!.params).toEqual({ stage: 'enrolled', agentVersionNot: '3.3.0', page: 1, perPage: 25 });
  expect(screen.getByRole('button', { name: 'Quitar filtro Versión del agente distinta de 3.3.0' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Quitar filtro Con comando/ })).toBeNull();
  expect(empty.textContent).toContain('Ningún dispositivo coincide con los filtros');
  await user.click(within(empty).getByRole('button', { name: 'Limpiar filtros' }));
  await waitFor(() => expect(screen.getByTestId('devices-empty').textContent).toContain('No hay dispositivos enrolados'));
  expect(new URLSearchParams(location).has('agentVersionNot')).toBe(false);
});

test('an error state with a retry', async () => {
  let fail = true;
  stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => {
      if (fail) throw new Error('boom');
      return listOf([device(1)]);
    },
  });
  const user = renderPage();
  await user.click(await screen.findByRole('button', { name: 'Reintentar' }));
  fail = false;
  await user.click(await screen.findByRole('button', { name: 'Reintentar' }));
  expect(await screen.findAllByTestId('device-row')).toHaveLength(1);
});

test('bulk: select the page, then every match of the filter; preview, confirm, progress, result', async () => {
  const preview: BulkPreview = {
    total: 60,
    eligible: 58,
    byStatus: [
      { status: DEVICE_STATUS.activo, count: 58 },
      { status: DEVICE_STATUS.liberado, count: 2 },
    ],
    skipped: [{ reason: 'La acción Bloquear no está disponible para dispositivos en estado Liberado', count: 2 }],
    offline: 3,
    overLimit: false,
  };
  const job: Job = {
    id: 77,
    kind: 'bulk_action',
    action: 0,
    status: 'completed',
    total: 58,
    processed: 58,
    succeeded: 55,
    skipped: 2,
    failed: 1,
    createdAt: '',
    createdBy: 'admin@demo.local',
    startedAt: '',
    finishedAt: '',
    error: null,
    commands: { waiting: 0, delivered: 0, acknowledged: 54, rejected: 1, cancelled: 0 },
  };
  const calls = stubRoutes({
    ...GROUPS,
    ...DEFAULTS_ROUTE,
    'GET /v5/devices': () => listOf(PAGE, 60),
    'POST /v5/devices/bulk-actions/preview': () => preview,
    'POST /v5/devices/bulk-actions': () => ({ ...job, status: 'queued', processed: 0 }),
    'GET /v5/jobs/77': () => job,
  });
  const user = renderPage(`${PATH}?deviceType=1`);
  await screen.findAllByTestId('device-row');
  await user.click(screen.getByRole('checkbox', { name: 'Seleccionar los dispositivos de esta página' }));
  expect(screen.getByTestId('bulk-bar').textContent).toContain('25 dispositivos seleccionados');
  await user.click(screen.getByRole('button', { name: 'Seleccionar los 60 dispositivos que coinciden con el filtro' }));
  expect(screen.getByTestId('bulk-bar').textContent).toContain('60 dispositivos seleccionados');

  const bar = screen.getByTestId('bulk-bar');
  const picker = within(bar).getByRole('combobox', { name: 'Acción masiva' });
  expect([...picker.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
    'Seleccione una acción',
    'Bloquear',
    'Desbloquear',
    'Liberar',
    'Actualizar app de bloqueo',
    'Actualizar apps de negocio',
    'Enviar notificación',
    'Código de barras de pago',
    'Aplicar restricciones',
    'Configuración de SIM',
    'Eliminar dispositivo',
  ]);
  await user.selectOptions(picker, 'Bloquear');
  await user.click(within(bar).getByRole('button', { name: 'Continuar' }));
  const dialog = await screen.findByRole('dialog', { name: 'Acción masiva: Bloquear' });
  // The filter's device type (smartphones): their global default lock type.
  await user.click(await within(dialog).findByRole('button', { name: 'Vista previa' }));
  expect(await within(dialog).findByTestId('bulk-summary')).toBeTruthy();
  const previewCall = calls.find((c) => c.url === '/v5/devices/bulk-actions/preview')!;
  expect(previewCall.data).toEqual({
    selection: { filter: { stage: 'enrolled', deviceType: '1' } },
    payload: { action: 0, lockType: 'PorCambioSIM', message: null, stolen: false },
  });

  await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
  const result = await within(dialog).findByTestId('bulk-result');
  expect([...result.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['55', '2', '1']);
  const bar2 = within(dialog).getByRole('progressbar', { name: 'Progreso' });
  expect(bar2.getAttribute('aria-valuenow')).toBe('100');
  const start = calls.find((c) => c.method === 'POST' && c.url === '/v5/devices/bulk-actions')!;
  expect(start.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  expect(within(dialog).getByRole('button', { name: 'Descargar resultados (CSV)' })).toBeTruthy();
  // Every command answered: the final count, nothing left to follow.
  expect(within(dialog).getByTestId('bulk-commands').textContent).toBe(
    'Comandos: 54 confirmados, 0 recibidos, 0 en espera, 1 rechazados, 0 cancelados',
  );
  expect(within(dialog).queryByRole('button', { name: 'Dejar de seguir los comandos' })).toBeNull();
  // The job started: the selection is gone.
  expect(screen.queryByTestId('bulk-bar')).toBeNull();
  expect(await screen.findByText('Acción masiva "Bloquear" iniciada')).toBeTruthy();
});

test("bulk LOCK on selected rows: all TVs start on the TVs' default lock type; a mixed selection on the smartphones'", async () => {
  const tvs = [device(1, { deviceType: 2 }), device(2, { deviceType: 2 })];
  stubRoutes({ ...GROUPS, ...DEFAULTS_ROUTE, 'GET /v5/devices': () => listOf([...tvs, device(3, { groupId: 3, groupName: 'Norte' })]) });
  const user = renderPage();
  const rows = await screen.findAllByTestId('device-row');
  const openLock = async () => {
    const bar = screen.getByTestId('bulk-bar');
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Acción masiva' }), 'Bloquear');
    await user.click(within(bar).getByRole('button', { name: 'Continuar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acción masiva: Bloquear' });
    await within(dialog).findByRole('button', { name: 'Vista previa' });
    return dialog;
  };
  for (const row of rows.slice(0, 2)) await user.click(within(row).getByRole('checkbox'));
  let dialog = await openLock();
  expect(lockTypeIn(dialog)).toBe('SinKiosko');
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  // A smartphone of Norte joins: mixed types, the smartphones' global default (not Norte's).
  await user.click(within(rows[2]!).getByRole('checkbox'));
  dialog = await openLock();
  expect(lockTypeIn(dialog)).toBe('PorCambioSIM');
});

test("a row LOCK starts on the default of the device's type and group; the dialog waits for it before confirming", async () => {
  let answerDefaults: (v: LockDefaults) => void = () => undefined;
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices/lock-defaults': () => new Promise<LockDefaults>((resolve) => (answerDefaults = resolve)),
    'GET /v5/devices': () => listOf([device(1, { groupId: 3, groupName: 'Norte' }), device(2, { deviceType: 2, groupId: 3, groupName: 'Norte' })]),
    'POST /v5/devices/\\d+/actions': () => ({ device: device(1), command: null }),
  });
  const user = renderPage();
  await screen.findAllByTestId('device-row');
  const openLock = async (imei: string) => {
    await user.click(screen.getByRole('button', { name: `Acciones del dispositivo ${imei}` }));
    await user.click(await screen.findByRole('button', { name: 'Bloquear' }));
    return screen.findByRole('dialog', { name: 'Bloquear' });
  };
  let dialog = await openLock(device(1).imei);
  // Until the defaults arrive the confirm button waits.
  const confirm = within(dialog).getByRole('button', { name: 'Cargando...' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  expect(lockTypeIn(dialog)).toBe('PorCredito');
  act(() => answerDefaults(LOCK_DEFAULTS));
  // A smartphone of Norte: Norte's own default.
  await waitFor(() => expect(lockTypeIn(dialog)).toBe('PorNoConexion'));
  const listReads = () => calls.filter((c) => c.method === 'GET' && c.url === '/v5/devices').length;
  const readsBefore = listReads();
  await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Bloquear' })).toBeNull());
  expect(calls.find((c) => c.method === 'POST')!.data).toEqual({ action: 0, lockType: 'PorNoConexion', message: null, stolen: false });
  // The lock invalidates the list: the next row menu opens once it has been read again (a menu
  // opened while the table refreshes can be closed by that render, as a slow machine showed).
  await waitFor(() => expect(listReads()).toBeGreaterThan(readsBefore));
  await waitFor(() => expect(screen.getByRole('table').getAttribute('aria-busy')).toBeNull());

  // A TV of Norte: Norte overrides only the smartphones' default, so the TVs' global one.
  dialog = await openLock(device(2).imei);
  expect(lockTypeIn(dialog)).toBe('SinKiosko');
  expect(calls.filter((c) => c.url === '/v5/devices/lock-defaults')).toHaveLength(1);
});

test('a row action: the confirmation modal sends the payload with an Idempotency-Key, then toasts', async () => {
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([device(1)]),
    'POST /v5/devices/1/actions': () => ({ device: device(1), command: null }),
  });
  const user = renderPage();
  const row = (await screen.findAllByTestId('device-row'))[0]!;
  await user.click(within(row).getByRole('button', { name: `Acciones del dispositivo ${device(1).imei}` }));
  await user.click(await screen.findByRole('button', { name: 'Enviar notificación' }));
  const dialog = await screen.findByRole('dialog', { name: 'Enviar notificación' });
  expect(dialog.textContent).toContain(`IMEI ${device(1).imei}`);
  await user.type(within(dialog).getByRole('textbox', { name: 'Título' }), 'Aviso');
  await user.type(within(dialog).getByRole('textbox', { name: 'Mensaje' }), 'Hola');
  await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
  expect(await screen.findByText(`Acción "Enviar notificación" solicitada para el dispositivo ${device(1).imei}`)).toBeTruthy();
  const post = calls.find((c) => c.method === 'POST')!;
  expect(post.data).toEqual({ action: DEVICE_ACTION.SEND_NOTIFICATION, title: 'Aviso', message: 'Hola' });
  expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('an offline code is shown once, large, with copy, expiry and the warning', async () => {
  stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([device(1, { status: DEVICE_STATUS.bloqueado, lockType: 'PorNoConexion' })]),
    'POST /v5/devices/1/actions': () => ({ device: null, command: null, offlineCode: { code: '48213907', expiresAt: '2026-03-12T10:00:00Z' } }),
  });
  const user = renderPage();
  const row = (await screen.findAllByTestId('device-row'))[0]!;
  await user.click(within(row).getByRole('button', { name: /Acciones del dispositivo/ }));
  await user.click(await screen.findByRole('button', { name: 'Desbloqueo sin conexión' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Desbloqueo sin conexión' })).getByRole('button', { name: 'Confirmar' }));
  const dialog = await screen.findByRole('dialog', { name: 'Código sin conexión' });
  expect(within(dialog).getByTestId('offline-code').textContent).toContain('48213907');
  expect(within(dialog).getByRole('button', { name: 'Copiar Código' })).toBeTruthy();
  expect(dialog.textContent).toContain('se muestra una sola vez');
  expect(dialog.textContent).toMatch(/Vence: .*2026/);
  await user.click(within(dialog).getByRole('button', { name: 'Entendido' }));
  await waitFor(() => expect(screen.queryByText('48213907')).toBeNull());
});

test('the detail opens from the IMEI (device=<id> in the URL): facts, pending release with cancel, history', async () => {
  const pending = {
    id: 50,
    action: DEVICE_ACTION.RELEASE,
    requestedAt: '2026-03-01T10:00:00Z',
    requestedBy: 'ana@demo.local',
    deliverAfter: new Date(Date.now() + 86_400_000).toISOString(),
    payload: {},
    deliveredAt: null,
  };
  const d = device(1, { status: DEVICE_STATUS.liberando, pendingCommand: pending });
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([d]),
    'GET /v5/devices/1': () => d,
    'GET /v5/devices/1/history': () => ({
      data: [
        {
          id: 50,
          deviceId: 1,
          action: 2,
          payload: {},
          origin: null,
          status: 'pending',
          requestedAt: '2026-03-01T10:00:00Z',
          requestedBy: 'ana@demo.local',
          deliverAfter: pending.deliverAfter,
          deliveredAt: null,
          acknowledgedAt: null,
          result: null,
          expiresAt: null,
          cancellable: true,
          jobId: null,
        },
        {
          id: 45,
          deviceId: 1,
          action: 5,
          payload: { title: 'Aviso', message: 'Hola' },
          origin: null,
          status: 'rejected',
          requestedAt: '2026-02-10T10:00:00Z',
          requestedBy: 'ana@demo.local',
          deliverAfter: '2026-02-10T10:00:00Z',
          deliveredAt: '2026-02-10T10:00:30Z',
          acknowledgedAt: '2026-02-10T10:00:31Z',
          result: 'Notificaciones desactivadas',
          expiresAt: null,
          cancellable: false,
          jobId: null,
        },
        {
          id: 40,
          deviceId: 1,
          action: 0,
          payload: {},
          origin: 0,
          status: 'acknowledged',
          requestedAt: '2026-02-01T10:00:00Z',
          requestedBy: 'ana@demo.local',
          deliverAfter: '2026-02-01T10:00:00Z',
          deliveredAt: '2026-02-01T10:00:40Z',
          acknowledgedAt: '2026-02-01T10:01:00Z',
          result: 'ok',
          expiresAt: null,
          cancellable: false,
          jobId: null,
        },
      ],
      total: 3,
    }),
    'POST /v5/devices/1/actions/50/cancel': () => ({}),
  });
  const user = renderPage();
  const row = (await screen.findAllByTestId('device-row'))[0]!;
  await user.click(within(row).getByRole('button', { name: `Ver el detalle del dispositivo ${d.imei}` }));
  const panel = await screen.findByRole('dialog', { name: `Dispositivo ${d.imei}` });
  expect(location).toContain('device=1');
  const facts = within(panel).getByTestId('device-facts');
  expect(facts.textContent).toContain('Cliente 1');
  const pendingFacts = within(panel).getByTestId('pending-command');
  expect(pendingFacts.textContent).toContain('Liberar');
  // Scheduled, not waiting for a connection: delivered at the end of the cancel window, cancellable until then.
  const at = formatDateTime(pending.deliverAfter);
  expect(pendingFacts.textContent).toContain(`Se puede cancelar hasta${at}`);
  expect(within(pendingFacts).getByTestId('pending-delivered').textContent).toBe(`Programada para el ${at}`);
  expect(within(panel).getByTestId('release-scheduled').textContent).toBe(
    `Liberación programadaLa liberación se entregará al dispositivo en su primera conexión a partir del ${at}, al terminar el periodo de cancelación. Hasta entonces se puede cancelar.`,
  );
  const entries = await within(panel).findAllByTestId('history-entry');
  expect(entries.map((e) => e.querySelector('.badge')?.textContent)).toEqual(['Pendiente', 'Rechazado', 'Confirmado']);
  expect(entries[0]!.textContent).toContain('Portal');
  expect(entries[2]!.textContent).toContain('Bloqueo por robo');
  // Each command's journey: received, answered, and why it was rejected.
  const field = (entry: HTMLElement, id: string) => within(entry).getByTestId(id).textContent;
  expect(field(entries[0]!, 'history-delivered')).toBe('-');
  expect(field(entries[0]!, 'history-acknowledged')).toBe('-');
  expect(field(entries[1]!, 'history-delivered')).toMatch(/2026/);
  expect(field(entries[1]!, 'history-acknowledged')).toMatch(/2026/);
  expect(field(entries[1]!, 'history-result')).toBe('Notificaciones desactivadas');
  expect(within(entries[1]!).getByText('Motivo del rechazo')).toBeTruthy();
  expect(within(entries[2]!).queryByText('Motivo del rechazo')).toBeNull();
  expect(field(entries[2]!, 'history-result')).toBe('ok');

  await user.click(within(panel).getByRole('button', { name: 'Cancelar comando pendiente' }));
  const confirm = await screen.findByRole('dialog', { name: 'Cancelar comando pendiente' });
  expect(confirm.textContent).toContain(`¿Cancelar el comando pendiente "Liberar" del dispositivo con IMEI ${d.imei}?`);
  const deviceCalls = calls.filter((c) => c.url === '/v5/devices/1').length;
  await user.click(within(confirm).getByRole('button', { name: 'Confirmar' }));
  expect(await screen.findByText('Comando cancelado')).toBeTruthy();
  expect(calls.some((c) => c.method === 'POST' && c.url === '/v5/devices/1/actions/50/cancel')).toBe(true);
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancelar comando pendiente' })).toBeNull());
  // The device (and its history) are fetched again.
  await waitFor(() => expect(calls.filter((c) => c.url === '/v5/devices/1').length).toBeGreaterThan(deviceCalls));
});

test('without HISTORY granted the detail says why and does not fetch the history; no RELEASE, no cancel', async () => {
  const pending = {
    id: 50,
    action: DEVICE_ACTION.RELEASE,
    requestedAt: '2026-03-01T10:00:00Z',
    requestedBy: null,
    deliverAfter: new Date(Date.now() + 86_400_000).toISOString(),
    payload: {},
    deliveredAt: null,
  };
  const d = device(1, { status: DEVICE_STATUS.liberando, pendingCommand: pending });
  const calls = stubRoutes({ ...GROUPS, 'GET /v5/devices': () => listOf([d]), 'GET /v5/devices/1': () => d });
  renderPage(`${PATH}?device=1`, [DEVICE_ACTION.LOCK]);
  const panel = await screen.findByRole('dialog', { name: `Dispositivo ${d.imei}` });
  expect(panel.textContent).toContain('Su perfil no permite la acción Historial');
  expect(within(panel).queryByRole('button', { name: 'Cancelar comando pendiente' })).toBeNull();
  expect(within(panel).queryByRole('button', { name: 'Entregar ahora' })).toBeNull();
  expect(calls.some((c) => c.url.endsWith('/history'))).toBe(false);
});

test('a scheduled release: its delivery date under Liberando in the list; Entregar ahora (row menu) repeats the IMEI and the customer', async () => {
  const deliverAfter = new Date(Date.now() + 40 * 3_600_000).toISOString();
  const pending: PendingCommand = {
    id: 70,
    action: DEVICE_ACTION.RELEASE,
    requestedAt: new Date(Date.now() - 8 * 3_600_000).toISOString(),
    requestedBy: 'ana@demo.local',
    deliverAfter,
    payload: {},
    deliveredAt: null,
  };
  const d = device(1, { status: DEVICE_STATUS.liberando, pendingCommand: pending, customerName: 'María López' });
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([d, device(2)]),
    'POST /v5/devices/1/release/deliver-now': () => historyEntry(pending, { deliverAfter: new Date().toISOString() }),
  });
  const user = renderPage();
  const rows = await screen.findAllByTestId('device-row');
  expect(within(rows[0]!).getByTestId('release-from').textContent).toBe(`Se entrega desde el ${formatDateTime(deliverAfter)}`);
  expect(within(rows[1]!).queryByTestId('release-from')).toBeNull();
  await user.click(within(rows[1]!).getByRole('button', { name: `Acciones del dispositivo ${device(2).imei}` }));
  expect(screen.queryByRole('button', { name: 'Entregar ahora' })).toBeNull();
  await user.keyboard('{Escape}');

  await user.click(within(rows[0]!).getByRole('button', { name: `Acciones del dispositivo ${d.imei}` }));
  await user.click(await screen.findByRole('button', { name: 'Entregar ahora' }));
  const dialog = await screen.findByRole('dialog', { name: 'Entregar la liberación ahora' });
  expect(dialog.textContent).toContain(`¿Entregar ahora la liberación del dispositivo con IMEI ${d.imei} (cliente: María López)?`);
  await user.click(within(dialog).getByRole('button', { name: 'Entregar ahora' }));
  expect(await screen.findByText(`La liberación del dispositivo ${d.imei} se entregará en su próxima conexión`)).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Entregar la liberación ahora' })).toBeNull());
  expect(calls.filter((c) => c.method === 'POST' && c.url === '/v5/devices/1/release/deliver-now')).toHaveLength(1);
});

test('Entregar ahora from the detail; once due (after Entregar ahora) the detail no longer calls it scheduled', async () => {
  const pending: PendingCommand = {
    id: 71,
    action: DEVICE_ACTION.RELEASE,
    requestedAt: new Date(Date.now() - 3_600_000).toISOString(),
    requestedBy: 'ana@demo.local',
    deliverAfter: new Date(Date.now() + 47 * 3_600_000).toISOString(),
    payload: {},
    deliveredAt: null,
  };
  let d = device(1, { status: DEVICE_STATUS.liberando, pendingCommand: pending, customerName: null });
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([d]),
    'GET /v5/devices/1': () => d,
    'GET /v5/devices/1/history': () => ({ data: [], total: 0 }),
    'POST /v5/devices/1/release/deliver-now': () => {
      d = { ...d, pendingCommand: { ...pending, deliverAfter: new Date(Date.now() - 1_000).toISOString() } };
      return historyEntry(d.pendingCommand!, {});
    },
  });
  const user = renderPage(`${PATH}?device=1`);
  const panel = await screen.findByRole('dialog', { name: `Dispositivo ${d.imei}` });
  expect(within(panel).getByTestId('release-scheduled')).toBeTruthy();
  await user.click(within(panel).getByRole('button', { name: 'Entregar ahora' }));
  const dialog = await screen.findByRole('dialog', { name: 'Entregar la liberación ahora' });
  expect(dialog.textContent).toContain(`IMEI ${d.imei} (cliente: sin cliente)`);
  await user.click(within(dialog).getByRole('button', { name: 'Entregar ahora' }));
  await waitFor(() => expect(within(panel).queryByTestId('release-scheduled')).toBeNull());
  expect(within(panel).getByTestId('pending-delivered').textContent).toBe('En espera de que el dispositivo se conecte');
  expect(within(panel).queryByRole('button', { name: 'Entregar ahora' })).toBeNull();
  expect(within(panel).getByTestId('pending-command').textContent).not.toContain('Se puede cancelar hasta');
  expect(calls.filter((c) => c.method === 'POST' && c.url === '/v5/devices/1/release/deliver-now')).toHaveLength(1);
});

/** A LOCK requested `ago` ms ago (deliverable at once), not yet received by the device. */
function lockPending(ago: number, over: Partial<PendingCommand> = {}): PendingCommand {
  const requestedAt = new Date(Date.now() - ago).toISOString();
  return {
    id: 60,
    action: DEVICE_ACTION.LOCK,
    requestedAt,
    requestedBy: 'ana@demo.local',
    deliverAfter: requestedAt,
    payload: { lockType: 'PorCredito', message: 'Pague su crédito', stolen: false },
    deliveredAt: null,
    ...over,
  };
}

function historyEntry(pending: PendingCommand, over: Partial<Command>): Command {
  return {
    id: pending.id,
    deviceId: 1,
    action: pending.action,
    payload: pending.payload,
    origin: null,
    status: 'pending',
    requestedAt: pending.requestedAt,
    requestedBy: pending.requestedBy,
    deliverAfter: pending.deliverAfter,
    deliveredAt: null,
    acknowledgedAt: null,
    result: null,
    expiresAt: null,
    cancellable: true,
    jobId: null,
    ...over,
  };
}

test('a LOCK in flight: the detail shows what was asked and its journey; list, detail and history refresh until the device answers', async () => {
  const waiting = lockPending(5_000);
  const deliveredAt = new Date().toISOString();
  const delivered = { ...waiting, deliveredAt };
  const ackAt = new Date().toISOString();
  let phase: 'waiting' | 'delivered' | 'acknowledged' = 'waiting';
  const current = () =>
    phase === 'acknowledged'
      ? device(1, { status: DEVICE_STATUS.bloqueado, lockType: 'PorCredito', lockMessage: 'Pague su crédito' })
      : device(1, { status: DEVICE_STATUS.bloqueando, pendingCommand: phase === 'waiting' ? waiting : delivered });
  const history = () =>
    historyEntry(
      waiting,
      phase === 'waiting'
        ? {}
        : phase === 'delivered'
          ? { deliveredAt, cancellable: false }
          : { status: 'acknowledged', deliveredAt, acknowledgedAt: ackAt, cancellable: false },
    );
  stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([current()]),
    'GET /v5/devices/1': () => current(),
    'GET /v5/devices/1/history': () => ({ data: [history()], total: 1 }),
  });
  renderPage(`${PATH}?device=1`);
  const panel = await screen.findByRole('dialog', { name: `Dispositivo ${device(1).imei}` });
  const facts = within(panel).getByTestId('pending-command');
  const fact = (label: string) => within(facts).getByText(label).nextElementSibling?.textContent;
  expect(fact('Acción')).toBe('Bloquear');
  expect(fact('Tipo de bloqueo')).toBe('Por Crédito');
  expect(fact('Mensaje de bloqueo')).toBe('Pague su crédito');
  expect(within(facts).queryByText('Reportado como robado')).toBeNull();
  expect(fact('Solicitado por')).toBe('ana@demo.local');
  expect(fact('Entregado al dispositivo')).toBe('En espera de que el dispositivo se conecte');
  expect(within(panel).getByRole('button', { name: 'Cancelar comando pendiente' })).toBeTruthy();
  const rowBadge = () => screen.getAllByTestId('device-row')[0]!.querySelector('.badge')?.textContent;
  expect(rowBadge()).toBe('Bloqueando');

  // The agent's check-in receives it: the detail shows when, and it can no longer be cancelled.
  phase = 'delivered';
  await waitFor(() => expect(within(panel).getByTestId('pending-delivered').textContent).not.toBe('En espera de que el dispositivo se conecte'), {
    timeout: 5000,
  });
  expect(within(panel).getByTestId('pending-delivered').textContent).toMatch(/\d{4}/);
  expect(within(panel).queryByRole('button', { name: 'Cancelar comando pendiente' })).toBeNull();
  await waitFor(() => expect(within(panel).getByTestId('history-delivered').textContent).toMatch(/\d{4}/), { timeout: 5000 });

  // The agent acknowledges it: no pending command, the history says so, the row reads Bloqueado.
  phase = 'acknowledged';
  expect(await within(panel).findByText('Sin comandos pendientes', undefined, { timeout: 5000 })).toBeTruthy();
  await waitFor(() => expect(within(panel).getByTestId('history-entry').querySelector('.badge')?.textContent).toBe('Confirmado'), { timeout: 5000 });
  expect(within(panel).getByTestId('history-acknowledged').textContent).toMatch(/\d{4}/);
  await waitFor(() => expect(rowBadge()).toBe('Bloqueado'), { timeout: 5000 });
});

test('the row menu cancels a command the device has not received, after a confirmation; a 409 shows the server message', async () => {
  // Requested 20 minutes ago and still waiting (the device is offline): nothing polls.
  const pending = lockPending(20 * 60_000);
  const d = device(1, { status: DEVICE_STATUS.bloqueando, pendingCommand: pending });
  let refuse = true;
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([d]),
    'POST /v5/devices/1/actions/60/cancel': () => {
      if (refuse) throw apiError(409, { message: INVENTORY_MESSAGES.actions.notCancellable, code: 'NOT_CANCELLABLE' });
      return historyEntry(pending, { status: 'cancelled', cancellable: false });
    },
  });
  const user = renderPage();
  const row = (await screen.findAllByTestId('device-row'))[0]!;
  await user.click(within(row).getByRole('button', { name: `Acciones del dispositivo ${d.imei}` }));
  await user.click(await screen.findByRole('button', { name: 'Cancelar comando pendiente' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancelar comando pendiente' });
  expect(dialog.textContent).toContain(`¿Cancelar el comando pendiente "Bloquear" del dispositivo con IMEI ${d.imei}?`);

  const lists = () => calls.filter((c) => c.method === 'GET' && c.url === '/v5/devices').length;
  const before = lists();
  await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
  expect((await within(dialog).findByTestId('cancel-command-error')).textContent).toBe(INVENTORY_MESSAGES.actions.notCancellable);
  expect(screen.getByRole('dialog', { name: 'Cancelar comando pendiente' })).toBe(dialog);
  expect(screen.queryByText('Comando cancelado')).toBeNull();

  refuse = false;
  await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
  expect(await screen.findByText('Comando cancelado')).toBeTruthy();
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancelar comando pendiente' })).toBeNull());
  expect(calls.filter((c) => c.method === 'POST' && c.url === '/v5/devices/1/actions/60/cancel')).toHaveLength(2);
  // The list is fetched again after the cancellation.
  await waitFor(() => expect(lists()).toBeGreaterThan(before));
});

test('the detail of a device that does not exist says so; a failed refresh keeps the last answer on screen', async () => {
  const d = device(1, { status: DEVICE_STATUS.bloqueando, pendingCommand: lockPending(1_000) });
  let fail = false;
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([d]),
    'GET /v5/devices/1': () => {
      if (fail) throw new Error('network down');
      return d;
    },
    'GET /v5/devices/1/history': () => ({ data: [], total: 0 }),
  });
  renderPage(`${PATH}?device=2`);
  expect(await screen.findByText('El dispositivo no existe o fue eliminado')).toBeTruthy();
  act(() => toast.dismiss());
  cleanup();

  renderPage(`${PATH}?device=1`);
  const panel = await screen.findByRole('dialog', { name: `Dispositivo ${d.imei}` });
  fail = true;
  const before = calls.filter((c) => c.url === '/v5/devices/1').length;
  await waitFor(() => expect(calls.filter((c) => c.url === '/v5/devices/1').length).toBeGreaterThan(before), { timeout: 5000 });
  expect(await screen.findByText('Verifica tu conexión e intentalo de nuevo')).toBeTruthy();
  // One more refresh (it fails too): the detail never turns into 'does not exist' meanwhile.
  const failed = calls.filter((c) => c.url === '/v5/devices/1').length;
  await waitFor(() => expect(calls.filter((c) => c.url === '/v5/devices/1').length).toBeGreaterThan(failed), { timeout: 5000 });
  expect(within(panel).queryByText('El dispositivo no existe o fue eliminado')).toBeNull();
  expect(within(panel).getByTestId('pending-command').textContent).toContain('Bloquear');
});

test("Conciliación's fix (device=<id>&action=<code> in the URL) opens the action's modal on the detail once, then sends it", async () => {
  const d = device(1, { status: DEVICE_STATUS.bloqueado, lockType: 'PorCredito' });
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([d]),
    'GET /v5/devices/1': () => d,
    'POST /v5/devices/1/actions': () => ({ device: d, command: null }),
  });
  const user = renderPage(`${PATH}?device=1&action=${DEVICE_ACTION.UNLOCK}`);
  const dialog = await screen.findByRole('dialog', { name: 'Desbloquear' });
  expect(dialog.textContent).toContain(`IMEI ${d.imei}`);
  // The action leaves the URL (a reload or the way back does not open it again); the detail stays.
  await waitFor(() => expect(location).toBe('?device=1'));
  await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
  await waitFor(() =>
    expect(calls.filter((c) => c.method === 'POST').map((c) => (c.data as { action: number }).action)).toEqual([DEVICE_ACTION.UNLOCK]),
  );
});

test('a LOCK in the URL starts on the lock type it names, not the configured default', async () => {
  const d = device(1);
  stubRoutes({ ...GROUPS, ...DEFAULTS_ROUTE, 'GET /v5/devices': () => listOf([d]), 'GET /v5/devices/1': () => d });
  renderPage(`${PATH}?device=1&action=${DEVICE_ACTION.LOCK}&lockType=PorCredito`);
  const dialog = await screen.findByRole('dialog', { name: 'Bloquear' });
  await waitFor(() => expect(lockTypeIn(dialog)).toBe('PorCredito'));
  await waitFor(() => expect(location).toBe('?device=1'));
});

test('an action in the URL the profile does not hold opens nothing', async () => {
  const d = device(1, { status: DEVICE_STATUS.bloqueado, lockType: 'PorCredito' });
  stubRoutes({ ...GROUPS, 'GET /v5/devices': () => listOf([d]), 'GET /v5/devices/1': () => d });
  renderPage(`${PATH}?device=1&action=${DEVICE_ACTION.UNLOCK}`, [DEVICE_ACTION.LOCK]);
  await screen.findByRole('dialog', { name: `Dispositivo ${d.imei}` });
  await waitFor(() => expect(location).toBe('?device=1'));
  expect(screen.queryByRole('dialog', { name: 'Desbloquear' })).toBeNull();
});

test("a row's detail draws the list's row at once; its own GET, made as it opens, refreshes it", async () => {
  const d = device(1, { customerName: 'Cliente de la lista' });
  let answer: (fresh: Device) => void = () => undefined;
  const fresh = new Promise<Device>((resolve) => (answer = resolve));
  const calls = stubRoutes({
    ...GROUPS,
    'GET /v5/devices': () => listOf([d]),
    'GET /v5/devices/1': () => fresh,
    'GET /v5/devices/1/history': () => ({ data: [], total: 0 }),
  });
  const user = renderPage();
  const row = (await screen.findAllByTestId('device-row'))[0]!;
  await user.click(within(row).getByRole('button', { name: `Ver el detalle del dispositivo ${d.imei}` }));
  const panel = await screen.findByRole('dialog', { name: `Dispositivo ${d.imei}` });
  // Drawn from the row while the device's GET has not answered.
  expect(within(panel).getByTestId('device-facts').textContent).toContain('Cliente de la lista');
  await waitFor(() => expect(calls.filter((c) => c.url === '/v5/devices/1')).toHaveLength(1));
  expect(within(panel).getByTestId('device-facts').textContent).toContain('Cliente de la lista');
  act(() => answer({ ...d, customerName: 'Cliente al día' }));
  await waitFor(() => expect(within(panel).getByTestId('device-facts').textContent).toContain('Cliente al día'));
});
