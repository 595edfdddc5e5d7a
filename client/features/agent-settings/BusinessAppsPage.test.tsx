/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { PATHS } from '../../../shared/constants/routes';
import type { BusinessApp } from '../../../shared/contracts/agentSettings';
import type { Group } from '../../../shared/contracts/groups';
import { ADMIN_API_MESSAGES } from '../../../shared/areaMessages/admin';
import { AGENT_SETTINGS_MESSAGES } from '../../../shared/areaMessages/agentSettings';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, loadDialogs, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import BusinessAppsPage from './BusinessAppsPage';
import { DATA_TABLE_LABELS } from '../../../shared/constants/labels';

beforeAll(loadDialogs);

const L = AGENT_APPS_LABELS.businessApps;
const F = FIELD_LABELS.businessApps;
const M = AGENT_SETTINGS_MESSAGES.field;
const A = ADMIN_API_MESSAGES.field;
const URL_LIST = '/v5/agent-settings/smartphone/business-apps';
const at = '2025-03-01T12:00:00.000Z';
const SHA = 'a'.repeat(64);

const group = (id: number, name: string): Group => ({
  id,
  name,
  description: null,
  deviceCount: 0,
  enrolledCount: 0,
  preEnrolledCount: 0,
  createdAt: at,
  updatedAt: at,
});
const GROUPS = [group(1, 'Norte'), group(2, 'Sur'), group(3, 'Este')];
const CATALOG: BusinessApp = {
  id: 1,
  name: 'Catálogo',
  packageName: 'com.tienda.catalogo',
  versionName: '2.1.0',
  versionCode: 210,
  appType: 4,
  downloadUrl: 'https://cdn.example.com/catalogo.apk',
  sha256: SHA,
  groups: [],
  createdAt: at,
  updatedAt: at,
  updatedBy: 'admin@demo.local',
};
const PAGOS: BusinessApp = { ...CATALOG, id: 2, name: 'Pagos', packageName: 'com.tienda.pagos', appType: 2, groups: [{ id: 2, name: 'Sur' }] };

let apps: BusinessApp[] = [];
let calls: ApiCall[] = [];
/** The answer of the next POST or PUT: the app saved, or an error to throw. */
let saveAnswer: ((call: ApiCall) => unknown) | undefined;

beforeEach(() => {
  apps = [CATALOG, PAGOS];
  saveAnswer = undefined;
  const save = (call: ApiCall) => (saveAnswer ? saveAnswer(call) : { ...CATALOG, id: 9, ...(call.data as object), groups: [] });
  calls = stubRoutes({
    'GET /v5/groups': () => ({ data: GROUPS, total: GROUPS.length }),
    [`GET ${URL_LIST}`]: () => ({ data: apps, total: apps.length }),
    [`POST ${URL_LIST}`]: save,
    [`PUT ${URL_LIST}/\\d+`]: save,
    [`DELETE ${URL_LIST}/\\d+`]: () => null,
  });
});
afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

const renderPage = (allowed: string[] = [PATHS.businessApp]) =>
  renderPortal(
    <>
      <BusinessAppsPage title="Apps de negocio" path={PATHS.businessApp} />
      <PortalToastContainer />
    </>,
    { url: PATHS.businessApp, allowed },
  ).user;

const saves = () => calls.filter((c) => c.method === 'POST' || c.method === 'PUT');

/** The message under a field (its aria-describedby), or null. */
function messageOf(input: HTMLElement): string | null {
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

async function openCreate(user: ReturnType<typeof renderPage>) {
  await screen.findByTestId('business-app-row-com.tienda.catalogo');
  await user.click(screen.getByRole('button', { name: L.create }));
  return screen.findByRole('dialog', { name: L.createTitle });
}

async function fillValid(user: ReturnType<typeof renderPage>, dialog: HTMLElement) {
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'Tienda');
  await user.type(within(dialog).getByRole('textbox', { name: F.packageName }), 'com.tienda.app');
  await user.type(within(dialog).getByRole('textbox', { name: F.versionName }), '1.0.0');
  await user.type(within(dialog).getByRole('textbox', { name: F.versionCode }), '100');
  await user.selectOptions(within(dialog).getByRole('combobox', { name: F.appType }), 'Downloader');
  await user.type(within(dialog).getByRole('textbox', { name: F.downloadUrl }), 'https://cdn.example.com/tienda.apk');
  await user.type(within(dialog).getByRole('textbox', { name: F.sha256 }), 'AB'.repeat(32));
}

test('the rows: version, type label, groups (all smartphones when none), who changed it; the note on the device action', async () => {
  renderPage([PATHS.businessApp, PATHS.devices]);
  const catalog = await screen.findByTestId('business-app-row-com.tienda.catalogo');
  expect(catalog.textContent).toContain('Catálogo');
  expect(catalog.textContent).toContain('2.1.0 (210)');
  expect(catalog.textContent).toContain('Downloader');
  expect(catalog.textContent).toContain(L.allSmartphones);
  expect(catalog.textContent).toContain('por admin@demo.local');
  const pagos = screen.getByTestId('business-app-row-com.tienda.pagos');
  expect(pagos.textContent).toContain('Macrolock');
  expect(pagos.textContent).toContain('Sur');
  expect(pagos.textContent).not.toContain(L.allSmartphones);
  expect(document.body.textContent).toContain(`«${L.pushNote.action}»`);
  expect(L.pushNote.action).toBe('Actualizar apps de negocio');
  expect(screen.getByRole('link', { name: AGENT_APPS_LABELS.common.devicesPage }).getAttribute('href')).toBe(PATHS.devices);
});

test('empty: the message and a create button that opens the form', async () => {
  apps = [];
  const user = renderPage();
  const empty = await screen.findByTestId('business-apps-empty');
  expect(empty.textContent).toContain(L.empty);
  await user.click(within(empty).getByRole('button', { name: L.create }));
  expect(await screen.findByRole('dialog', { name: L.createTitle })).toBeTruthy();
});

test('the form judges with the shared contract: Spanish messages naming each field, nothing sent', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  const field = (label: string) => within(dialog).getByRole('textbox', { name: label });
  await user.type(field(F.packageName), 'tienda');
  await user.type(field(F.versionCode), '1.5');
  await user.type(field(F.downloadUrl), 'http://cdn.example.com/a.apk');
  await user.type(field(F.sha256), 'abc123');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

  await waitFor(() => expect(messageOf(field(F.packageName))).toBe(M.packageName(F.packageName)));
  expect(messageOf(field(F.name))).toBe(A.empty(F.name));
  expect(messageOf(field(F.versionName))).toBe(A.empty(F.versionName));
  expect(messageOf(field(F.versionCode))).toBe(A.positiveInteger(F.versionCode));
  expect(messageOf(within(dialog).getByRole('combobox', { name: F.appType }))).toBe(A.required(F.appType));
  expect(messageOf(field(F.downloadUrl))).toBe(M.url(F.downloadUrl));
  expect(messageOf(field(F.sha256))).toBe(M.sha256(F.sha256));
  expect(saves()).toHaveLength(0);

  // A field put right loses its message at once.
  await user.clear(field(F.packageName));
  await user.type(field(F.packageName), 'com.tienda.app');
  await waitFor(() => expect(messageOf(field(F.packageName))).toBeNull());
});

test('groups: Todos los smartphones is none selected; checking it clears the selection; the body carries the chosen ids', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  await fillValid(user, dialog);
  const all = within(dialog).getByRole('checkbox', { name: L.allSmartphones }) as HTMLInputElement;
  await within(dialog).findByRole('checkbox', { name: 'Norte' });
  expect(all.checked).toBe(true);

  await user.click(within(dialog).getByRole('checkbox', { name: 'Norte' }));
  await user.click(within(dialog).getByRole('checkbox', { name: 'Este' }));
  expect(all.checked).toBe(false);
  expect(dialog.textContent).toContain(L.groupsSelected(2));
  // Checking 'Todos los smartphones' clears them.
  await user.click(all);
  expect(all.checked).toBe(true);
  expect((within(dialog).getByRole('checkbox', { name: 'Norte' }) as HTMLInputElement).checked).toBe(false);
  // Keyboard: Tab to a group and Space checks it.
  within(dialog).getByRole('checkbox', { name: 'Sur' }).focus();
  await user.keyboard(' ');
  await user.click(within(dialog).getByRole('checkbox', { name: 'Este' }));

  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(saves()[0]).toMatchObject({
    method: 'POST',
    url: URL_LIST,
    data: {
      name: 'Tienda',
      packageName: 'com.tienda.app',
      versionName: '1.0.0',
      versionCode: 100,
      appType: 4,
      downloadUrl: 'https://cdn.example.com/tienda.apk',
      sha256: 'ab'.repeat(32),
      groupIds: [2, 3],
    },
  });
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(await screen.findByText(L.createdDone('Tienda'))).toBeTruthy();
});

test('many groups: a filter narrows the checkboxes, keeping what is checked', async () => {
  jest.restoreAllMocks();
  const many = Array.from({ length: 12 }, (_, i) => group(i + 1, i === 7 ? 'Peñasco' : `Zona ${i + 1}`));
  stubRoutes({
    'GET /v5/groups': () => ({ data: many, total: many.length }),
    [`GET ${URL_LIST}`]: () => ({ data: apps, total: apps.length }),
  });
  const user = renderPage();
  const dialog = await openCreate(user);
  await user.click(await within(dialog).findByRole('checkbox', { name: 'Zona 2' }));
  const filter = within(dialog).getByRole('searchbox', { name: L.filterGroups });
  await user.type(filter, 'peña');
  const list = within(dialog).getByTestId('business-app-groups');
  expect(
    within(list)
      .getAllByRole('checkbox')
      .map((c) => (c as HTMLInputElement).labels?.[0]?.textContent),
  ).toEqual(['Peñasco']);
  await user.clear(filter);
  await user.type(filter, 'ninguno');
  expect(list.textContent).toBe(L.noGroupMatches);
  await user.clear(filter);
  expect((within(list).getByRole('checkbox', { name: 'Zona 2' }) as HTMLInputElement).checked).toBe(true);
  expect(dialog.textContent).toContain(L.groupsSelected(1));
});

test('a 409 of the server shows under the field it names, the dialog open', async () => {
  saveAnswer = () => {
    throw apiError(409, { message: AGENT_SETTINGS_MESSAGES.businessApps.packageTaken, code: 'PACKAGE_TAKEN', field: 'packageName' });
  };
  const user = renderPage();
  const dialog = await openCreate(user);
  await fillValid(user, dialog);
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  const pkg = within(dialog).getByRole('textbox', { name: F.packageName });
  await waitFor(() => expect(messageOf(pkg)).toBe(AGENT_SETTINGS_MESSAGES.businessApps.packageTaken));
  expect(document.activeElement).toBe(pkg);
  expect(screen.getByRole('dialog', { name: L.createTitle })).toBeTruthy();
});

test('edit: the form holds the app (its groups checked) and PUTs the change', async () => {
  const user = renderPage();
  const row = await screen.findByTestId('business-app-row-com.tienda.pagos');
  await user.click(within(row).getByRole('button', { name: L.editOf('Pagos') }));
  const dialog = await screen.findByRole('dialog', { name: L.editTitle });
  const name = within(dialog).getByRole('textbox', { name: F.name }) as HTMLInputElement;
  expect(name.value).toBe('Pagos');
  expect((within(dialog).getByRole('textbox', { name: F.versionCode }) as HTMLInputElement).value).toBe('210');
  expect((within(dialog).getByRole('combobox', { name: F.appType }) as HTMLSelectElement).value).toBe('2');
  expect(((await within(dialog).findByRole('checkbox', { name: 'Sur' })) as HTMLInputElement).checked).toBe(true);
  expect((within(dialog).getByRole('checkbox', { name: L.allSmartphones }) as HTMLInputElement).checked).toBe(false);
  await user.clear(name);
  await user.type(name, 'Pagos 2');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(saves()[0]).toMatchObject({ method: 'PUT', url: `${URL_LIST}/2`, data: { name: 'Pagos 2', groupIds: [2], versionCode: 210, sha256: SHA } });
});

test('delete asks for confirmation naming the app; Cancelar sends nothing, Eliminar sends DELETE', async () => {
  const user = renderPage();
  const row = await screen.findByTestId('business-app-row-com.tienda.catalogo');
  await user.click(within(row).getByRole('button', { name: L.deleteOf('Catálogo') }));
  let dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(dialog.textContent).toContain(L.confirmDelete('Catálogo', 'com.tienda.catalogo'));
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

  await user.click(within(row).getByRole('button', { name: L.deleteOf('Catálogo') }));
  dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
  apps = [PAGOS];
  await user.click(within(dialog).getByRole('button', { name: AGENT_APPS_LABELS.common.delete }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
  expect(calls.find((c) => c.method === 'DELETE')!.url).toBe(`${URL_LIST}/1`);
  await waitFor(() => expect(screen.queryByTestId('business-app-row-com.tienda.catalogo')).toBeNull());
  expect(await screen.findByText(L.deletedDone('Catálogo'))).toBeTruthy();
});

test('a list that fails to load offers a retry', async () => {
  let fail = true;
  jest.restoreAllMocks();
  stubRoutes({
    [`GET ${URL_LIST}`]: () => {
      if (fail) throw apiError(500, { message: 'Error interno' });
      return { data: apps, total: apps.length };
    },
  });
  const user = renderPage();
  const retry = await screen.findByRole('button', { name: DATA_TABLE_LABELS.retry });
  fail = false;
  await user.click(retry);
  expect(await screen.findByTestId('business-app-row-com.tienda.catalogo')).toBeTruthy();
});

test('axe: no serious violations on the page, the form (with its messages) and the delete dialog', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  await within(dialog).findByRole('checkbox', { name: 'Norte' });
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(within(dialog).getByRole('textbox', { name: F.name }).getAttribute('aria-invalid')).toBe('true'));
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(screen.getByTestId('business-app-row-com.tienda.catalogo')).getByRole('button', { name: L.deleteOf('Catálogo') }));
  await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(await seriousViolations()).toEqual([]);
});
