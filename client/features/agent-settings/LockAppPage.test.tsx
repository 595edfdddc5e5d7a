/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { PATHS } from '../../../shared/constants/routes';
import { RELEASE_NOTES_MAX, type LockAppVersion } from '../../../shared/contracts/agentSettings';
import { ADMIN_API_MESSAGES } from '../../../shared/areaMessages/admin';
import { AGENT_SETTINGS_MESSAGES } from '../../../shared/areaMessages/agentSettings';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, loadDialogs, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import LockAppPage, { notesPreview } from './LockAppPage';
import { LABELS } from '../../../shared/constants/labels';

beforeAll(loadDialogs);

const L = AGENT_APPS_LABELS.lockApp;
const F = FIELD_LABELS.lockApp;
const M = AGENT_SETTINGS_MESSAGES.field;
const A = ADMIN_API_MESSAGES.field;
const PHONE_URL = '/v5/agent-settings/smartphone/app-lock';
const TV_URL = '/v5/agent-settings/tv/app-lock';
const at = '2025-03-01T12:00:00.000Z';
const SHA = 'b'.repeat(64);
const LONG_NOTES = `Corrige el bloqueo por cambio de SIM en equipos con doble ranura y mejora el consumo de batería.\nSegunda línea con más detalle.`;

const version = (id: number, name: string, app: string, extra: Partial<LockAppVersion> = {}): LockAppVersion => ({
  id,
  deviceType: 1,
  versionName: name,
  versionApp: app,
  appType: 2,
  packageName: 'com.macrolock.agent',
  downloadUrl: `https://cdn.example.com/macrolock-${app}.apk`,
  sha256: SHA,
  releaseNotes: null,
  isCurrent: false,
  devices: 0,
  createdAt: at,
  createdBy: 'admin@demo.local',
  ...extra,
});
const V1 = version(1, '3.0.0', '300', { isCurrent: true, devices: 1250, releaseNotes: 'Versión estable' });
const V2 = version(2, '3.1.0', '310', { releaseNotes: LONG_NOTES, devices: 3 });
const TV1 = version(5, '1.2.0', '120', { deviceType: 2, appType: 5, packageName: null, isCurrent: true });

let phones: LockAppVersion[] = [];
let calls: ApiCall[] = [];
let deleteAnswer: (() => unknown) | undefined;

beforeEach(() => {
  phones = [V2, V1];
  deleteAnswer = undefined;
  calls = stubRoutes({
    [`GET ${PHONE_URL}`]: () => ({ data: phones, total: phones.length }),
    [`GET ${TV_URL}`]: () => ({ data: [TV1], total: 1 }),
    [`POST ${PHONE_URL}`]: (call) => version(9, 'x', 'y', call.data as Partial<LockAppVersion>),
    [`POST ${TV_URL}`]: (call) => version(9, 'x', 'y', { deviceType: 2, ...(call.data as Partial<LockAppVersion>) }),
    [`PUT ${PHONE_URL}/\\d+`]: (call) => ({ ...V2, ...(call.data as Partial<LockAppVersion>) }),
    [`POST ${PHONE_URL}/\\d+/current`]: () => {
      phones = [
        { ...V2, isCurrent: true },
        { ...V1, isCurrent: false },
      ];
      return phones[0];
    },
    [`DELETE ${PHONE_URL}/\\d+`]: () => (deleteAnswer ? deleteAnswer() : null),
  });
});
afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

function renderPage(path: typeof PATHS.appLock | typeof PATHS.appLockTv = PATHS.appLock) {
  return renderPortal(
    <>
      <LockAppPage title="App de bloqueo" path={path} />
      <PortalToastContainer />
    </>,
    { url: path, allowed: [path] },
  ).user;
}

const rowOf = (name: string) => screen.findByTestId(`lock-app-row-${name}`);

/** The message under a field (its aria-describedby), or null. */
function messageOf(input: HTMLElement): string | null {
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return document.getElementById(ids[0]!)?.textContent ?? null;
}

test('the rows: name (version), type, Actual badge on the current one, devices, who created it, notes shortened with a way to read them whole', async () => {
  const user = renderPage();
  const current = await rowOf('3.0.0 (300)');
  expect(current.getAttribute('data-current')).toBe('true');
  expect(within(current).getByText(L.current)).toBeTruthy();
  expect(current.textContent).toContain('Macrolock');
  expect(current.textContent).toContain('1,250');
  expect(current.textContent).toContain('Versión estable');
  expect(current.textContent).toContain('por admin@demo.local');
  expect(screen.getByTestId('lock-app-current').textContent).toBe(L.currentIs('3.0.0 (300)'));

  const other = await rowOf('3.1.0 (310)');
  expect(within(other).queryByText(L.current)).toBeNull();
  expect(other.textContent).not.toContain('Segunda línea');
  expect(other.textContent).toContain(notesPreview(LONG_NOTES)!);
  await user.click(within(other).getByRole('button', { name: L.notesShowOf('3.1.0 (310)') }));
  const notes = await screen.findByRole('dialog', { name: L.notesTitle('3.1.0 (310)') });
  expect(within(notes).getByTestId('lock-app-notes').textContent).toBe(LONG_NOTES);
  expect(document.body.textContent).toContain(`«${L.pushNote.action}»`);
  expect(L.pushNote.action).toBe('Actualizar app de bloqueo');
});

test('notesPreview: the first line, at most 60 characters; null when the text fits', () => {
  expect(notesPreview('Corto')).toBeNull();
  expect(notesPreview('Uno\nDos')).toBe('Uno…');
  expect(notesPreview('x'.repeat(61))).toBe(`${'x'.repeat(60)}…`);
  expect(notesPreview('x'.repeat(60))).toBeNull();
});

test('the form judges with the shared contract: Spanish messages naming each field, the notes counter', async () => {
  const user = renderPage();
  await rowOf('3.0.0 (300)');
  await user.click(screen.getByRole('button', { name: L.create }));
  const dialog = await screen.findByRole('dialog', { name: L.createTitle });
  const field = (label: string) => within(dialog).getByRole('textbox', { name: label });
  // A smartphone version starts as Macrolock.
  expect((within(dialog).getByRole('combobox', { name: F.appType }) as HTMLSelectElement).value).toBe('2');
  await user.type(field(F.packageName), 'macrolock');
  await user.type(field(F.downloadUrl), 'ftp://cdn.example.com/a.apk');
  await user.type(field(F.sha256), 'z'.repeat(64));
  const notes = field(F.releaseNotes);
  await user.click(notes);
  await user.paste('n'.repeat(RELEASE_NOTES_MAX + 1));
  expect(dialog.textContent).toContain(LABELS.counter(RELEASE_NOTES_MAX + 1, RELEASE_NOTES_MAX));
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

  await waitFor(() => expect(messageOf(field(F.versionName))).toBe(A.empty(F.versionName)));
  expect(messageOf(field(F.versionApp))).toBe(A.empty(F.versionApp));
  expect(messageOf(field(F.packageName))).toBe(M.packageName(F.packageName));
  expect(messageOf(field(F.downloadUrl))).toBe(M.url(F.downloadUrl));
  expect(messageOf(field(F.sha256))).toBe(M.sha256(F.sha256));
  expect(messageOf(notes)).toBe(A.tooLong(F.releaseNotes, RELEASE_NOTES_MAX));
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
});

test('a new version: the body of the contract (empty notes and package as null)', async () => {
  const user = renderPage();
  await rowOf('3.0.0 (300)');
  await user.click(screen.getByRole('button', { name: L.create }));
  const dialog = await screen.findByRole('dialog', { name: L.createTitle });
  const field = (label: string) => within(dialog).getByRole('textbox', { name: label });
  await user.type(field(F.versionName), '3.2.0');
  await user.type(field(F.versionApp), '320');
  await user.type(field(F.downloadUrl), 'https://cdn.example.com/m-320.apk');
  await user.type(field(F.sha256), 'C'.repeat(64));
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
  expect(calls.find((c) => c.method === 'POST')!.data).toEqual({
    versionName: '3.2.0',
    versionApp: '320',
    appType: 2,
    packageName: null,
    downloadUrl: 'https://cdn.example.com/m-320.apk',
    sha256: 'c'.repeat(64),
    releaseNotes: null,
  });
  expect(await screen.findByText(L.createdDone('3.2.0 (320)'))).toBeTruthy();
});

test('edit: the form holds the version and PUTs the change', async () => {
  const user = renderPage();
  const row = await rowOf('3.1.0 (310)');
  await user.click(within(row).getByRole('button', { name: L.editOf('3.1.0 (310)') }));
  const dialog = await screen.findByRole('dialog', { name: `${L.editTitle}: 3.1.0 (310)` });
  const notes = within(dialog).getByRole('textbox', { name: F.releaseNotes }) as HTMLTextAreaElement;
  expect(notes.value).toBe(LONG_NOTES);
  expect((within(dialog).getByRole('textbox', { name: F.packageName }) as HTMLInputElement).value).toBe('com.macrolock.agent');
  await user.clear(notes);
  await user.type(notes, 'Notas nuevas');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
  expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
    url: `${PHONE_URL}/2`,
    data: { versionName: '3.1.0', versionApp: '310', packageName: 'com.macrolock.agent', releaseNotes: 'Notas nuevas' },
  });
});

test('Marcar como actual: a confirmation saying the agents will update and the sidebar will show it, then the POST', async () => {
  const user = renderPage();
  const current = await rowOf('3.0.0 (300)');
  expect((within(current).getByRole('button', { name: L.markCurrentOf('3.0.0 (300)') }) as HTMLButtonElement).disabled).toBe(true);
  const row = await rowOf('3.1.0 (310)');
  await user.click(within(row).getByRole('button', { name: L.markCurrentOf('3.1.0 (310)') }));
  let dialog = await screen.findByRole('dialog', { name: L.markCurrentTitle });
  expect(dialog.textContent).toContain(L.confirmMarkCurrent('3.1.0 (310)'));
  expect(dialog.textContent).toContain(L.markCurrentAgents(1));
  expect(dialog.textContent).toContain(L.markCurrentSidebar);
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(calls.filter((c) => c.url.endsWith('/current'))).toHaveLength(0);

  await user.click(within(row).getByRole('button', { name: L.markCurrentOf('3.1.0 (310)') }));
  dialog = await screen.findByRole('dialog', { name: L.markCurrentTitle });
  await user.click(within(dialog).getByRole('button', { name: L.markCurrent }));
  await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/current'))).toHaveLength(1));
  expect(calls.find((c) => c.url.endsWith('/current'))).toMatchObject({ method: 'POST', url: `${PHONE_URL}/2/current` });
  expect(await screen.findByText(L.markedCurrentDone('3.1.0 (310)'))).toBeTruthy();
  await waitFor(() => expect(screen.getByTestId('lock-app-current').textContent).toBe(L.currentIs('3.1.0 (310)')));
  expect(screen.getByTestId('lock-app-row-3.1.0 (310)').getAttribute('data-current')).toBe('true');
});

test('delete: a confirmation naming the version; the current one cannot be deleted; a 409 of the server is shown', async () => {
  const user = renderPage();
  // The current version: the dialog says why and only closes.
  await user.click(within(await rowOf('3.0.0 (300)')).getByRole('button', { name: L.deleteOf('3.0.0 (300)') }));
  let dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(within(dialog).getByRole('alert').textContent).toBe(AGENT_SETTINGS_MESSAGES.lockApp.currentNotDeleted);
  expect(within(dialog).queryByRole('button', { name: AGENT_APPS_LABELS.common.delete })).toBeNull();
  await user.click(within(dialog).getAllByRole('button', { name: 'Cerrar' }).at(-1)!);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  // Another administrator made it current meanwhile: the server's 409 is toasted and the dialog turns into the explanation.
  deleteAnswer = () => {
    phones = [
      { ...V2, isCurrent: true },
      { ...V1, isCurrent: false },
    ];
    throw apiError(409, { message: AGENT_SETTINGS_MESSAGES.lockApp.currentNotDeleted, code: 'LOCK_APP_CURRENT' });
  };
  await user.click(within(await rowOf('3.1.0 (310)')).getByRole('button', { name: L.deleteOf('3.1.0 (310)') }));
  dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(dialog.textContent).toContain(L.confirmDelete('3.1.0 (310)'));
  expect(dialog.textContent).toContain(L.devicesOf(3));
  await user.click(within(dialog).getByRole('button', { name: AGENT_APPS_LABELS.common.delete }));
  await waitFor(() => expect(document.querySelector('.Toastify__toast')?.textContent).toContain(AGENT_SETTINGS_MESSAGES.lockApp.currentNotDeleted));
  await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(AGENT_SETTINGS_MESSAGES.lockApp.currentNotDeleted));
  await user.click(within(dialog).getAllByRole('button', { name: 'Cerrar' }).at(-1)!);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  // A version that is not current: deleted.
  deleteAnswer = undefined;
  await user.click(within(await rowOf('3.0.0 (300)')).getByRole('button', { name: L.deleteOf('3.0.0 (300)') }));
  dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
  await user.click(within(dialog).getByRole('button', { name: AGENT_APPS_LABELS.common.delete }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`${PHONE_URL}/2`, `${PHONE_URL}/1`]));
  expect(await screen.findByText(L.deletedDone('3.0.0 (300)'))).toBeTruthy();
});

test('the TV page lists the TV versions and its form has no package name', async () => {
  const user = renderPage(PATHS.appLockTv);
  const row = await rowOf('1.2.0 (120)');
  expect(row.textContent).toContain('Macrolock.TV');
  expect(calls.filter((c) => c.method === 'GET').map((c) => c.url)).toEqual([TV_URL]);
  await user.click(screen.getByRole('button', { name: L.create }));
  const dialog = await screen.findByRole('dialog', { name: L.createTitle });
  expect(within(dialog).queryByRole('textbox', { name: F.packageName })).toBeNull();
  expect((within(dialog).getByRole('combobox', { name: F.appType }) as HTMLSelectElement).value).toBe('5');
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  // Marking the current TV version current again is not offered.
  const mark = within(row).getByRole('button', { name: L.markCurrentOf('1.2.0 (120)') }) as HTMLButtonElement;
  expect(mark.disabled).toBe(true);
  expect(mark.title).toBe(L.alreadyCurrent);
});

test('empty: the message and a create button', async () => {
  phones = [];
  const user = renderPage();
  const empty = await screen.findByTestId('lock-app-empty');
  expect(empty.textContent).toContain(L.empty);
  await user.click(within(empty).getByRole('button', { name: L.create }));
  expect(await screen.findByRole('dialog', { name: L.createTitle })).toBeTruthy();
});

test('axe: no serious violations on the page, the form, the mark-current and delete dialogs', async () => {
  const user = renderPage();
  const row = await rowOf('3.1.0 (310)');
  expect(await seriousViolations()).toEqual([]);
  await user.click(screen.getByRole('button', { name: L.create }));
  const form = await screen.findByRole('dialog', { name: L.createTitle });
  await user.click(within(form).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(within(form).getByRole('textbox', { name: F.versionName }).getAttribute('aria-invalid')).toBe('true'));
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(form).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await user.click(within(row).getByRole('button', { name: L.markCurrentOf('3.1.0 (310)') }));
  await screen.findByRole('dialog', { name: L.markCurrentTitle });
  expect(await seriousViolations()).toEqual([]);
  await user.click(screen.getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await user.click(within(row).getByRole('button', { name: L.deleteOf('3.1.0 (310)') }));
  await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(await seriousViolations()).toEqual([]);
});
