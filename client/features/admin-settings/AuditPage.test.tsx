/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, waitFor, within } from '@testing-library/react';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { AUDIT_ACTIONS } from '../../../shared/constants/audit';
import type { AuditEntryView } from '../../../shared/contracts/audit';
import { loadDialogs, renderPortal, stubApi, type ApiCall } from '../../testing/renderPortal';
import AuditPage from './AuditPage';

beforeAll(loadDialogs);

const PATH = '/admin-settings/audit';
const ROW: AuditEntryView = {
  id: 7,
  at: '2026-03-05T14:05:09',
  actorAdminId: 1,
  actorEmail: 'admin@demo.local',
  ip: null,
  requestId: null,
  entity: 'device',
  entityId: '12',
  action: 'lock',
  before: null,
  after: null,
  outcome: 'success',
  detail: null,
};

let calls: ApiCall[] = [];
beforeEach(() => {
  calls = stubApi(() => ({ data: [ROW], total: 1 }));
});
afterEach(() => jest.restoreAllMocks());

const renderPage = (url = PATH) => renderPortal(<AuditPage title="Auditoría" path={PATH} />, { url, allowed: [PATH] }).user;

test('the entity filter offers every entity the server records, devices, groups, bulk jobs and agent settings included', async () => {
  renderPage();
  await screen.findByTestId('audit-row');
  const select = screen.getByRole('combobox', { name: L.audit.entity });
  const options = within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);
  expect(options).toEqual([
    'Todos',
    'Rol',
    'Administrador',
    'Sesión',
    'Auditoría',
    'Dispositivo',
    'Grupo de dispositivos',
    'Acción masiva',
    'Token de enrolamiento',
    'Configuración del agente',
    'App de negocio',
    'Versión de la app de bloqueo',
    'Clave de API',
    'Webhook',
    'Crédito',
    'Política de cobranza',
  ]);
});

test('the action filter offers every action the server records, each with its Spanish label', async () => {
  renderPage();
  await screen.findByTestId('audit-row');
  const select = screen.getByRole('combobox', { name: L.audit.action });
  const options = within(select).getAllByRole('option') as HTMLOptionElement[];
  expect(options.slice(1).map((o) => o.value)).toEqual([...AUDIT_ACTIONS]);
  for (const o of options.slice(1)) expect(o.textContent).toBe(L.audit.actionNames[o.value as keyof typeof L.audit.actionNames]);
  expect(options.map((o) => o.textContent)).toEqual(expect.arrayContaining(['Importar', 'Cancelar liberación', 'Lote de acción masiva', 'Bloquear']));
});

test('a device action reads with its labels and the date in es-MX with seconds', async () => {
  renderPage(`${PATH}?entity=device&action=lock`);
  const row = await screen.findByTestId('audit-row');
  expect(calls.find((c) => c.url === '/v5/audit')!.params).toMatchObject({ entity: 'device', action: 'lock', page: 1, perPage: 10 });
  const cells = within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);
  expect(cells).toEqual(expect.arrayContaining(['Dispositivo', 'Bloquear', '12']));
  expect(cells[0]).toMatch(/5 mar 2026.*(14|2):05:09/);
  expect((screen.getByRole('combobox', { name: L.audit.action }) as HTMLSelectElement).value).toBe('lock');
});

test('values in the URL that name nothing recorded are left out of the request', async () => {
  renderPage(`${PATH}?entity=bogus&action=drop_table&outcome=maybe&page=x&perPage=7`);
  await screen.findByTestId('audit-row');
  expect(calls.find((c) => c.url === '/v5/audit')!.params).toEqual({ page: 1, perPage: 10 });
});

test('the detail of an entry is read-only: one Cerrar in its footer, no Cancelar, and Cerrar closes it', async () => {
  const user = renderPage();
  await screen.findByTestId('audit-row');
  await user.click(screen.getByRole('button', { name: L.audit.viewOf(ROW.id) }));
  const dialog = await screen.findByRole('dialog', { name: L.audit.detailTitle(ROW.id) });
  const footer = dialog.querySelector<HTMLElement>('.modal-footer')!;
  expect(
    within(footer)
      .getAllByRole('button')
      .map((b) => b.textContent),
  ).toEqual([L.close]);
  expect(within(dialog).queryByRole('button', { name: 'Cancelar' })).toBeNull();
  await user.click(within(footer).getByRole('button', { name: L.close }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('the dates are shown and typed as dd/mm/aaaa (not the browser’s format) and sent as days; a text that is no date holds the filter back', async () => {
  const user = renderPage(`${PATH}?from=2026-03-05`);
  await screen.findByTestId('audit-row');
  const from = screen.getByRole('textbox', { name: L.audit.from }) as HTMLInputElement;
  const to = screen.getByRole('textbox', { name: L.audit.to }) as HTMLInputElement;
  expect([from.type, from.value, to.value, to.placeholder]).toEqual(['text', '05/03/2026', '', 'dd/mm/aaaa']);

  await user.type(to, '31/02/2026');
  expect(to.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText('Escriba una fecha válida como dd/mm/aaaa')).toBeTruthy();
  const before = calls.length;
  await user.click(screen.getByRole('button', { name: L.audit.filter }));
  expect(calls.length).toBe(before);

  await user.clear(to);
  await user.type(to, '9/4/2026');
  expect(to.getAttribute('aria-invalid')).toBeNull();
  await user.click(screen.getByRole('button', { name: L.audit.filter }));
  await waitFor(() => expect(calls.at(-1)!.params).toMatchObject({ from: '2026-03-05', to: '2026-04-09' }));
});
