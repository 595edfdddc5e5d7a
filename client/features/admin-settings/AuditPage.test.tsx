/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, within } from '@testing-library/react';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import type { AuditEntryView } from '../../../shared/contracts/audit';
import { renderPortal, stubApi, type ApiCall } from '../../testing/renderPortal';
import AuditPage from './AuditPage';

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

test('the entity filter offers every entity the server records, devices, groups and bulk jobs included', async () => {
  renderPage();
  await screen.findByTestId('audit-row');
  const select = screen.getByRole('combobox', { name: L.audit.entity });
  const options = within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);
  expect(options).toEqual(['Todos', 'Rol', 'Administrador', 'Sesión', 'Auditoría', 'Dispositivo', 'Grupo de dispositivos', 'Acción masiva']);
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
