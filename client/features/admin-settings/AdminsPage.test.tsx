/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, waitFor } from '@testing-library/react';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import type { Admin } from '../../../shared/contracts/admins';
import { renderPortal, stubApi, type ApiCall, loadDialogs } from '../../testing/renderPortal';
import AdminsPage from './AdminsPage';

beforeAll(loadDialogs);

const PATH = '/admin-settings/admins';
const ADMIN: Admin = {
  id: 3,
  correo: 'ana@demo.local',
  nombres: 'Ana',
  apellidos: 'Pérez',
  enabled: true,
  profileId: 1,
  profileNombre: 'Soporte',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

let calls: ApiCall[] = [];
beforeEach(() => {
  calls = stubApi((call) => (call.url === '/v5/roles' ? { data: [], total: 0 } : { data: [ADMIN], total: 1 }));
});
afterEach(() => jest.restoreAllMocks());

const listCalls = () => calls.filter((c) => c.url === '/v5/admins');
const renderPage = (url = PATH) => renderPortal(<AdminsPage title="Administradores" path={PATH} />, { url, allowed: [PATH] }).user;

test('the search is the `search` parameter, in the URL and in the request, like every list', async () => {
  renderPage(`${PATH}?search=ana&enabled=true&sort=correo&order=desc`);
  await screen.findByTestId(`admin-row-${ADMIN.correo}`);
  expect(listCalls()[0]!.params).toEqual({ search: 'ana', enabled: true, sort: 'correo', order: 'desc', page: 1, perPage: 10 });
  expect((screen.getByRole('searchbox', { name: L.admins.search }) as HTMLInputElement).value).toBe('ana');
});

test('the columns sort: by name ascending by default, a header click sorts by it', async () => {
  const user = renderPage();
  await screen.findByTestId(`admin-row-${ADMIN.correo}`);
  expect(screen.getByRole('columnheader', { name: new RegExp(L.admins.name) }).getAttribute('aria-sort')).toBe('ascending');
  await user.click(screen.getByRole('button', { name: L.admins.email }));
  await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ sort: 'correo', order: 'asc' }));
  expect(screen.getByRole('columnheader', { name: new RegExp(L.admins.email) }).getAttribute('aria-sort')).toBe('ascending');
  await user.click(screen.getByRole('button', { name: L.admins.email }));
  await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ sort: 'correo', order: 'desc' }));
});
