/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import { DATA_TABLE_LABELS } from '../../../shared/constants/labels';
import { PATHS } from '../../../shared/constants/routes';
import type { ApiKey } from '../../../shared/contracts/apiKeys';
import { ADMIN_API_MESSAGES } from '../../../shared/areaMessages/admin';
import { INTEGRATION_MESSAGES } from '../../../shared/areaMessages/integration';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, renderPortal, seriousViolations, stubRoutes, type ApiCall, loadDialogs } from '../../testing/renderPortal';
import ApiKeysPage from './ApiKeysPage';

beforeAll(loadDialogs);

const L = INTEGRATION_LABELS.apiKeys;
const C = INTEGRATION_LABELS.common;
const F = FIELD_LABELS.apiKeys;
const M = INTEGRATION_MESSAGES;
const URL_LIST = '/v5/api-keys';
const at = '2025-03-01T12:00:00.000Z';
const SECRET = 'mlk_AbCd1234_s3cr3tS3cr3tS3cr3tS3cr3tS3cr3t';

const key = (over: Partial<ApiKey>): ApiKey => ({
  id: 1,
  name: 'Sistema de créditos',
  prefix: 'mlk_AbCd1234',
  profileId: 1,
  profileName: 'Administrador',
  allowedIps: [],
  expiresAt: null,
  createdBy: 'admin@demo.local',
  createdAt: at,
  lastUsedAt: null,
  lastUsedIp: null,
  revokedAt: null,
  revokedBy: null,
  state: 'active',
  manageable: true,
  ...over,
});
const ACTIVE = key({ lastUsedAt: new Date(Date.now() - 3 * 3_600_000).toISOString(), lastUsedIp: '203.0.113.7' });
const LIMITED = key({
  id: 2,
  name: 'Cobranza',
  prefix: 'mlk_ZzYy9876',
  profileName: 'Operador',
  allowedIps: ['198.51.100.0/24', '203.0.113.10'],
  expiresAt: '2025-04-01T00:00:00.000Z',
  state: 'expired',
});
const REVOKED = key({ id: 3, name: 'Vieja', prefix: 'mlk_Old00000', state: 'revoked', revokedAt: at, revokedBy: 'otro@demo.local' });
const ROLES = [
  { id: 1, name: 'Administrador', grantable: true },
  { id: 2, name: 'Operador', grantable: true },
  { id: 7, name: 'Superusuario', grantable: false },
];

let keys: ApiKey[] = [];
let calls: ApiCall[] = [];
/** The answer of the next POST /v5/api-keys: an error to throw, or the default creation. */
let createAnswer: ((call: ApiCall) => unknown) | undefined;

beforeEach(() => {
  keys = [ACTIVE, LIMITED, REVOKED];
  createAnswer = undefined;
  calls = stubRoutes({
    [`GET ${URL_LIST}`]: (call) => ({ data: keys.slice(0, Number(call.params.perPage)), total: keys.length }),
    [`GET ${URL_LIST}/roles`]: () => ({ data: ROLES }),
    [`POST ${URL_LIST}`]: (call) => {
      if (createAnswer) return createAnswer(call);
      const body = call.data as { name: string; profileId: number; allowedIps: string[]; expiresAt: string | null };
      const created = key({ id: 9, prefix: 'mlk_AbCd1234', name: body.name, allowedIps: body.allowedIps, expiresAt: body.expiresAt });
      keys = [created, ...keys];
      return { key: created, secret: SECRET };
    },
    [`POST ${URL_LIST}/\\d+/revoke`]: (call) => {
      const id = Number(call.url.split('/')[3]);
      keys = keys.map((k) => (k.id === id ? { ...k, state: 'revoked', revokedAt: at, revokedBy: 'a@b.mx' } : k));
      return keys.find((k) => k.id === id);
    },
  });
});
afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

const renderPage = (url: string = PATHS.apiKeys) =>
  renderPortal(
    <>
      <ApiKeysPage title="Claves de API" path={PATHS.apiKeys} />
      <PortalToastContainer />
    </>,
    { url, allowed: [PATHS.apiKeys] },
  ).user;

const creations = () => calls.filter((c) => c.method === 'POST' && c.url === URL_LIST);

/** The message under a field (its aria-describedby), or null. */
function messageOf(input: HTMLElement): string | null {
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return document.getElementById(ids[0]!)?.textContent ?? null;
}

async function openCreate(user: ReturnType<typeof renderPage>) {
  await screen.findByTestId('api-key-row-mlk_ZzYy9876');
  await user.click(screen.getByRole('button', { name: L.create }));
  const dialog = await screen.findByRole('dialog', { name: L.createTitle });
  await within(dialog).findByRole('option', { name: 'Operador' });
  return dialog;
}

test('the rows: prefix, role, state badges, allowed addresses, expiry, last use with its address, who created and who revoked', async () => {
  renderPage();
  const active = await screen.findByTestId('api-key-row-mlk_AbCd1234');
  expect(within(active).getByText('mlk_AbCd1234').tagName).toBe('CODE');
  expect(active.textContent).toContain(L.states.active);
  expect(active.textContent).toContain(L.anyIp);
  expect(active.textContent).toContain(L.noExpiry);
  expect(active.textContent).toContain('hace 3 horas');
  expect(active.textContent).toContain(L.fromIp('203.0.113.7'));
  expect(active.textContent).toContain(C.by('admin@demo.local'));
  expect(within(active).getByRole('button', { name: L.revokeOf('Sistema de créditos') })).toBeTruthy();

  const limited = screen.getByTestId('api-key-row-mlk_ZzYy9876');
  expect(limited.textContent).toContain(L.states.expired);
  expect(limited.textContent).toContain('Operador');
  expect(limited.textContent).toContain('198.51.100.0/24, 203.0.113.10');
  expect(limited.textContent).toContain(L.neverUsed);
  expect(limited.textContent).not.toContain(L.noExpiry);

  const revoked = screen.getByTestId('api-key-row-mlk_Old00000');
  expect(revoked.textContent).toContain(L.states.revoked);
  expect(revoked.textContent).toMatch(/Revocada por otro@demo\.local el /);
  // A revoked key cannot be revoked again.
  expect(within(revoked).queryByRole('button')).toBeNull();
  expect(screen.getByText('Página 1 de 1 (3 registros)', { exact: false })).toBeTruthy();
});

test('a key whose role holds more than the caller is read-only: the reason shows and its revoke button is disabled', async () => {
  const SUPERIOR = key({ id: 4, name: 'Superior', prefix: 'mlk_Sup00000', profileName: 'Superusuario', manageable: false });
  keys = [ACTIVE, SUPERIOR, { ...REVOKED, manageable: false }];
  const user = renderPage();
  const row = await screen.findByTestId('api-key-row-mlk_Sup00000');
  expect(within(row).getByTestId('api-key-read-only').textContent).toBe(L.notManageable);
  const revoke = within(row).getByRole('button', { name: L.revokeOf('Superior') }) as HTMLButtonElement;
  expect([revoke.disabled, revoke.title]).toEqual([true, L.notManageable]);
  await user.click(revoke);
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(calls.filter((c) => c.url.endsWith('/revoke'))).toHaveLength(0);

  // A key within the caller's grants stays revocable; a revoked one has nothing to manage.
  const active = screen.getByTestId('api-key-row-mlk_AbCd1234');
  expect(within(active).queryByTestId('api-key-read-only')).toBeNull();
  expect((within(active).getByRole('button', { name: L.revokeOf('Sistema de créditos') }) as HTMLButtonElement).disabled).toBe(false);
  const revoked = screen.getByTestId('api-key-row-mlk_Old00000');
  expect(within(revoked).queryByTestId('api-key-read-only')).toBeNull();
  expect(within(revoked).queryByRole('button')).toBeNull();
  expect(await seriousViolations()).toEqual([]);
});

test('empty: the message and a create button that opens the form', async () => {
  keys = [];
  const user = renderPage();
  const empty = await screen.findByTestId('api-keys-empty');
  expect(empty.textContent).toContain(L.empty);
  await user.click(within(empty).getByRole('button', { name: L.create }));
  expect(await screen.findByRole('dialog', { name: L.createTitle })).toBeTruthy();
});

test('a list that fails to load offers a retry', async () => {
  let fail = true;
  jest.restoreAllMocks();
  stubRoutes({
    [`GET ${URL_LIST}`]: () => {
      if (fail) throw apiError(500, { message: 'Error interno' });
      return { data: keys, total: keys.length };
    },
  });
  const user = renderPage();
  const retry = await screen.findByRole('button', { name: DATA_TABLE_LABELS.retry });
  fail = false;
  await user.click(retry);
  expect(await screen.findByTestId('api-key-row-mlk_AbCd1234')).toBeTruthy();
});

test('the page size is in the URL and reaches the API', async () => {
  renderPage(`${PATHS.apiKeys}?perPage=25&page=1`);
  await screen.findByTestId('api-key-row-mlk_AbCd1234');
  expect(calls.find((c) => c.method === 'GET' && c.url === URL_LIST)!.params).toEqual({ page: 1, perPage: 25 });
});

test('roles: a role holding more than the caller is disabled, saying why', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  const superuser = within(dialog).getByRole('option', { name: `Superusuario — ${L.notGrantable}` }) as HTMLOptionElement;
  expect(superuser.disabled).toBe(true);
  expect((within(dialog).getByRole('option', { name: 'Operador' }) as HTMLOptionElement).disabled).toBe(false);
  expect(dialog.textContent).toContain(L.someNotGrantable(1));
});

test('the form judges with the shared contract: name, role, a bad address and a past expiry, nothing sent', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  const ips = within(dialog).getByRole('textbox', { name: F.allowedIps });
  const expires = within(dialog).getByLabelText(F.expiresAt);
  expect(within(dialog).getByTestId('api-key-expires-help').textContent).toBe(L.expiresHelpEmpty);
  await user.type(ips, '203.0.113.10\n10.0.0.300');
  expect((expires as HTMLInputElement).placeholder).toBe('dd/mm/aaaa hh:mm');
  fireEvent.change(expires, { target: { value: '01/01/2020 10:00' } });
  expect(within(dialog).getByTestId('api-key-expires-help').textContent).toBe(L.expiresHelpSet);
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

  const name = within(dialog).getByRole('textbox', { name: F.name });
  await waitFor(() => expect(messageOf(name)).toBe(ADMIN_API_MESSAGES.field.empty(F.name)));
  expect(messageOf(within(dialog).getByRole('combobox', { name: F.profileId }))).toBe(ADMIN_API_MESSAGES.field.required(F.profileId));
  expect(messageOf(ips)).toBe(M.field.cidr(F.allowedIps, '10.0.0.300'));
  expect(messageOf(expires)).toBe(M.field.futureDate(F.expiresAt));
  expect(creations()).toHaveLength(0);

  // Put right, the address' message goes at once.
  await user.clear(ips);
  await user.type(ips, '10.0.0.0/8');
  await waitFor(() => expect(messageOf(ips)).toBeNull());
});

test('create: the body from the form, then the secret once with its warning and a curl example; closed, it is gone', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'ERP');
  await user.selectOptions(within(dialog).getByRole('combobox', { name: F.profileId }), 'Operador');
  await user.type(within(dialog).getByRole('textbox', { name: F.allowedIps }), '203.0.113.10, 198.51.100.0/24\n2001:db8::/32');
  const future = new Date(Date.now() + 30 * 86_400_000);
  future.setSeconds(0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${pad(future.getDate())}/${pad(future.getMonth() + 1)}/${future.getFullYear()} ${pad(future.getHours())}:${pad(future.getMinutes())}`;
  fireEvent.change(within(dialog).getByLabelText(F.expiresAt), { target: { value: local } });
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

  await waitFor(() => expect(creations()).toHaveLength(1));
  expect(creations()[0]!.data).toEqual({
    name: 'ERP',
    profileId: 2,
    allowedIps: ['203.0.113.10', '198.51.100.0/24', '2001:db8::/32'],
    expiresAt: future.toISOString(),
  });
  const secretDialog = await screen.findByRole('dialog', { name: L.secretTitle });
  expect((within(secretDialog).getByTestId('api-key-secret') as HTMLInputElement).value).toBe(SECRET);
  expect(secretDialog.textContent).toContain(C.secretOnce);
  expect(within(secretDialog).getByTestId('api-key-curl').textContent).toBe(
    `curl -H "Authorization: Bearer ${SECRET}" "${window.location.origin}/api/integration/v1/devices?imei=..."`,
  );
  expect(within(secretDialog).getByRole('button', { name: `${C.copy} ${L.secretLabel}` })).toBeTruthy();
  expect(await screen.findByText(L.createdDone('ERP'))).toBeTruthy();

  await user.click(within(secretDialog).getByRole('button', { name: C.secretUnderstood }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(document.body.innerHTML).not.toContain(SECRET);
  expect(await screen.findAllByTestId('api-key-row-mlk_AbCd1234')).toHaveLength(2);
});

test('copying the secret puts it on the clipboard; the toast does not repeat it', async () => {
  const user = renderPage();
  const writeText = jest.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  const dialog = await openCreate(user);
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'ERP');
  await user.selectOptions(within(dialog).getByRole('combobox', { name: F.profileId }), 'Administrador');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  const secretDialog = await screen.findByRole('dialog', { name: L.secretTitle });
  await user.click(within(secretDialog).getByRole('button', { name: `${C.copy} ${L.secretLabel}` }));
  expect(writeText).toHaveBeenCalledWith(SECRET);
  const copied = await screen.findByText(C.copied(L.secretLabel));
  expect(copied.textContent).not.toContain(SECRET);
  expect(creations()[0]!.data).toEqual({ name: 'ERP', profileId: 1, allowedIps: [], expiresAt: null });
});

test('a 409 of the server shows under the field it names, the dialog open', async () => {
  createAnswer = () => {
    throw apiError(409, { message: M.apiKeys.nameTaken, code: 'NAME_TAKEN', field: 'name' });
  };
  const user = renderPage();
  const dialog = await openCreate(user);
  const name = within(dialog).getByRole('textbox', { name: F.name });
  await user.type(name, 'Sistema de créditos');
  await user.selectOptions(within(dialog).getByRole('combobox', { name: F.profileId }), 'Operador');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(messageOf(name)).toBe(M.apiKeys.nameTaken));
  expect(document.activeElement).toBe(name);
  expect(screen.getByRole('dialog', { name: L.createTitle })).toBeTruthy();
  expect(screen.queryByRole('dialog', { name: L.secretTitle })).toBeNull();
});

test('revoke asks for confirmation naming the key; Cancelar sends nothing, Revocar revokes it', async () => {
  const user = renderPage();
  const row = await screen.findByTestId('api-key-row-mlk_AbCd1234');
  await user.click(within(row).getByRole('button', { name: L.revokeOf('Sistema de créditos') }));
  let dialog = await screen.findByRole('dialog', { name: L.revokeTitle });
  expect(dialog.textContent).toContain(L.confirmRevoke('Sistema de créditos', 'mlk_AbCd1234'));
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  const revokes = () => calls.filter((c) => c.url.endsWith('/revoke'));
  expect(revokes()).toHaveLength(0);

  await user.click(within(row).getByRole('button', { name: L.revokeOf('Sistema de créditos') }));
  dialog = await screen.findByRole('dialog', { name: L.revokeTitle });
  await user.click(within(dialog).getByRole('button', { name: L.revoke }));
  await waitFor(() => expect(revokes()).toHaveLength(1));
  expect(revokes()[0]!).toMatchObject({ method: 'POST', url: `${URL_LIST}/1/revoke` });
  expect(await screen.findByText(L.revokedDone('Sistema de créditos'))).toBeTruthy();
  await waitFor(() => expect(screen.getByTestId('api-key-row-mlk_AbCd1234').getAttribute('data-state')).toBe('revoked'));
  expect(screen.getByTestId('api-key-row-mlk_AbCd1234').textContent).toMatch(/Revocada por a@b\.mx el /);
});

test('axe: no serious violations on the page, the form with its messages, the secret and the confirmation', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(within(dialog).getByRole('textbox', { name: F.name }).getAttribute('aria-invalid')).toBe('true'));
  expect(await seriousViolations()).toEqual([]);
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'ERP');
  await user.selectOptions(within(dialog).getByRole('combobox', { name: F.profileId }), 'Operador');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  const secretDialog = await screen.findByRole('dialog', { name: L.secretTitle });
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(secretDialog).getByRole('button', { name: C.secretUnderstood }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await user.click(within(screen.getAllByTestId('api-key-row-mlk_AbCd1234')[0]!).getByRole('button', { name: L.revokeOf('ERP') }));
  await screen.findByRole('dialog', { name: L.revokeTitle });
  expect(await seriousViolations()).toEqual([]);
});
