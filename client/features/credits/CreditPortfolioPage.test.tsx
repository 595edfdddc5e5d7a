/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import type { Approval, ApprovalList, CreditDetail, CreditList, CreditRow, CreditSummary } from '../../../shared/contracts/credits';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, loadDialogs, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import CreditPortfolioPage from './CreditPortfolioPage';

beforeAll(loadDialogs);

const L = CREDIT_PAGE_LABELS.portfolio;
const PATH = '/credits/portfolio';

function row(reference: string, over: Partial<CreditRow> = {}): CreditRow {
  return {
    reference,
    currency: 'MXN',
    state: 'current',
    daysOverdue: 0,
    amountOverdue: '0.00',
    nextDueDate: '2026-12-10',
    nextDueAmount: '250.00',
    total: '13000.00',
    paid: '1250.00',
    balance: '11750.00',
    customerName: `Cliente ${reference}`,
    deviceCount: 1,
    ...over,
  };
}

const OVERDUE = row('CR-7', { state: 'overdue', daysOverdue: 5, amountOverdue: '1250.50', nextDueDate: '2026-11-30', balance: '12345.67' });
const CURRENT = row('CR-8', { deviceCount: 2 });
const SUMMARY: CreditSummary = {
  today: '2026-12-05',
  timeZone: 'America/Mexico_City',
  total: 12,
  byState: { current: 7, overdue: 4, paid_off: 1, cancelled: 0 },
  overdueBuckets: { '1-7': 2, '8-30': 1, '31+': 1 },
  dueThisWeek: 3,
  amountOverdue: [{ currency: 'MXN', amount: '5000.00' }],
  paymentsToday: { count: 2, amounts: [{ currency: 'MXN', amount: '500.00' }] },
};
const DETAIL: CreditDetail = {
  ...OVERDUE,
  customerPhone: null,
  today: '2026-12-05',
  cancelled: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  installments: [{ number: 1, dueDate: '2026-11-30', amount: '1250.50', paid: '0.00', state: 'overdue' }],
  payments: [],
  devices: [],
  nextStep: null,
  steps: [],
  pause: null,
};

let location = '';
function LocationProbe() {
  location = useLocation().search;
  return null;
}

const APPROVAL: Approval = {
  id: 12,
  reference: 'CR-9',
  customerName: 'Luis Gómez',
  requestedAt: '2026-12-04T18:00:00.000Z',
  status: 'pending',
  decidedAt: null,
  decidedBy: null,
};

let rows: CreditRow[] = [OVERDUE, CURRENT];
let approvals: Approval[] = [];
let calls: ApiCall[] = [];
beforeEach(() => {
  rows = [OVERDUE, CURRENT];
  approvals = [];
  calls = stubRoutes({
    'GET /v5/credits': (): CreditList => ({ data: rows, total: rows.length }),
    'GET /v5/credits/approvals': (): ApprovalList => ({ data: approvals, total: approvals.length }),
    'POST /v5/credits/approvals/12/(approve|reject)': (call) => {
      const approved = call.url.endsWith('/approve');
      approvals = [];
      return { ...APPROVAL, status: approved ? 'approved' : 'rejected', decidedAt: '2026-12-05T10:00:00.000Z', decidedBy: 'ana@macrolock.mx' };
    },
    'GET /v5/credits/summary': () => SUMMARY,
    'GET /v5/credits/CR-7': () => DETAIL,
    'GET /v5/groups': () => ({ data: [{ id: 3, name: 'Norte', description: null, deviceCount: 2, createdAt: '', updatedAt: '' }], total: 1 }),
  });
});
afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

function renderPage(url = PATH, actions: number[] = []) {
  return renderPortal(
    <>
      <Routes>
        <Route
          path={PATH}
          element={
            <>
              <CreditPortfolioPage title="Cartera de créditos" path={PATH} />
              <LocationProbe />
            </>
          }
        />
      </Routes>
      <PortalToastContainer />
    </>,
    { url, allowed: [PATH], actions },
  ).user;
}

const listCalls = () => calls.filter((c) => c.method === 'GET' && c.url === '/v5/credits');

test('the URL drives the request; rows show the state with days overdue, amounts, next due date and devices', async () => {
  renderPage(`${PATH}?state=overdue&overdue=1-7&dueThisWeek=true&groupId=3&search=ana&sort=balance&order=desc&page=2&perPage=50`);
  const tr = await screen.findByTestId('credit-row-CR-7');
  expect(listCalls()[0]!.params).toEqual({
    state: 'overdue',
    overdue: '1-7',
    dueThisWeek: 'true',
    groupId: '3',
    search: 'ana',
    sort: 'balance',
    order: 'desc',
    page: 2,
    perPage: 50,
  });
  expect(within(tr).getByTestId('credit-state').textContent).toBe('Vencido · 5 días');
  expect(tr.textContent).toContain('Cliente CR-7');
  expect(tr.textContent).toContain('1,250.50 MXN');
  expect(tr.textContent).toContain('12,345.67 MXN');
  // A calendar date reads as the day written, whatever the zone.
  expect(tr.textContent).toMatch(/30 nov 2026/);
  expect(within(screen.getByTestId('credit-row-CR-8')).getByTestId('credit-state').textContent).toBe('Al corriente');
  expect(screen.getByRole('columnheader', { name: /Saldo/ }).getAttribute('aria-sort')).toBe('descending');
  expect((screen.getByRole('combobox', { name: L.filterState }) as HTMLSelectElement).value).toBe('overdue');
  expect((screen.getByRole('combobox', { name: L.filterGroup }) as HTMLSelectElement).value).toBe('3');
});

test('a bad URL reads as the defaults: the most overdue first, no filter', async () => {
  renderPage(`${PATH}?state=late&overdue=99&dueThisWeek=maybe&groupId=x&sort=imei&perPage=7`);
  await screen.findByTestId('credit-row-CR-7');
  expect(listCalls()[0]!.params).toEqual({ sort: 'dueDate', order: 'asc', page: 1, perPage: 25 });
  expect(screen.getByRole('columnheader', { name: /Próximo vencimiento/ }).getAttribute('aria-sort')).toBe('ascending');
});

test('filters and sort write the URL (back to page 1); a summary figure replaces the filter with its own', async () => {
  const user = renderPage(`${PATH}?page=3&search=ana`);
  await screen.findByTestId('credit-row-CR-7');
  await user.selectOptions(screen.getByRole('combobox', { name: L.filterOverdue }), '8-30');
  await waitFor(() => expect(location).toBe('?search=ana&overdue=8-30'));
  await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ overdue: '8-30', search: 'ana', page: 1 }));

  await user.click(screen.getByRole('button', { name: /Referencia/ }));
  await waitFor(() => expect(location).toContain('sort=reference&order=asc'));

  expect(await screen.findByTestId(`credit-figure-${L.overdue}`)).toBeTruthy();
  expect(screen.getByTestId(`credit-figure-${L.amountOverdue}`).textContent).toBe('5,000.00 MXN');
  await user.click(screen.getByRole('button', { name: L.showFiltered(L.dueThisWeek, '3') }));
  await waitFor(() => expect(new URLSearchParams(location).get('dueThisWeek')).toBe('true'));
  expect(new URLSearchParams(location).get('overdue')).toBeNull();
  expect(new URLSearchParams(location).get('search')).toBeNull();
  await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ dueThisWeek: 'true' }));
  expect(listCalls().at(-1)!.params).not.toHaveProperty('search');
});

test('paid today: the URL and the Pagos select drive the request; the Pagos de hoy figure shows the credits paid today', async () => {
  const user = renderPage(`${PATH}?paidToday=true`);
  await screen.findByTestId('credit-row-CR-7');
  expect(listCalls()[0]!.params).toEqual({ paidToday: 'true', sort: 'dueDate', order: 'asc', page: 1, perPage: 25 });
  const select = screen.getByRole('combobox', { name: L.filterPaidToday }) as HTMLSelectElement;
  expect(select.value).toBe('true');
  await user.selectOptions(select, 'false');
  await waitFor(() => expect(location).toBe('?paidToday=false'));
  await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ paidToday: 'false' }));

  await user.selectOptions(screen.getByRole('combobox', { name: L.filterState }), 'overdue');
  await waitFor(() => expect(new URLSearchParams(location).get('state')).toBe('overdue'));
  const figure = await screen.findByTestId(`credit-figure-${L.paymentsToday}`);
  await user.click(within(figure).getByRole('button', { name: L.showFiltered(L.paymentsToday, '2') }));
  await waitFor(() => expect(location).toBe('?paidToday=true'));
  // The same list as the first (answered from the cache): the select shows it, the state filter is gone.
  await waitFor(() => expect((screen.getByRole('combobox', { name: L.filterPaidToday }) as HTMLSelectElement).value).toBe('true'));
  expect((screen.getByRole('combobox', { name: L.filterState }) as HTMLSelectElement).value).toBe('');
});

test('empty states: filtered with "Limpiar filtros", unfiltered the plain text', async () => {
  rows = [];
  const user = renderPage(`${PATH}?state=paid_off`);
  const empty = await screen.findByTestId('credits-empty');
  expect(empty.textContent).toContain(L.emptyFiltered);
  await user.click(within(empty).getByRole('button', { name: L.clearFilters }));
  await waitFor(() => expect(location).toBe(''));
  await waitFor(() => expect(screen.getByTestId('credits-empty').textContent).toContain(L.empty));
  expect(within(screen.getByTestId('credits-empty')).queryByRole('button')).toBeNull();
  // The filters' own button waits for a filter.
  expect((screen.getByRole('button', { name: L.clearFilters }) as HTMLButtonElement).disabled).toBe(true);
});

test('a page past the end goes back to the first page', async () => {
  rows = [];
  renderPage(`${PATH}?page=4`);
  await waitFor(() => expect(location).toBe(''));
  await waitFor(() => expect(listCalls().at(-1)!.params).toMatchObject({ page: 1 }));
});

test('an error state with a retry', async () => {
  let fail = true;
  calls = stubRoutes({
    'GET /v5/credits': () => {
      if (fail) throw apiError(500, { message: 'Error interno' });
      return { data: rows, total: rows.length };
    },
    'GET /v5/credits/summary': () => SUMMARY,
    'GET /v5/credits/approvals': () => ({ data: [], total: 0 }),
    'GET /v5/groups': () => ({ data: [], total: 0 }),
  });
  const user = renderPage();
  const retry = await screen.findByRole('button', { name: 'Reintentar' });
  fail = false;
  await user.click(retry);
  expect(await screen.findByTestId('credit-row-CR-7')).toBeTruthy();
});

test("a row's reference opens the credit's page in the URL; 'Volver a la cartera' goes back to the list as it was", async () => {
  const user = renderPage(`${PATH}?state=overdue`);
  const link = within(await screen.findByTestId('credit-row-CR-7')).getByRole('link', { name: L.open('CR-7') });
  expect(await seriousViolations()).toEqual([]);
  await user.click(link);
  await waitFor(() => expect(location).toBe('?state=overdue&credit=CR-7'));
  expect(await screen.findByRole('heading', { name: 'Crédito CR-7', level: 1 })).toBeTruthy();
  await user.click(screen.getByRole('button', { name: CREDIT_PAGE_LABELS.detail.back }));
  await waitFor(() => expect(location).toBe('?state=overdue'));
  expect(await screen.findByTestId('credit-row-CR-7')).toBeTruthy();
});

const A = CREDIT_PAGE_LABELS.approvals;

test('the releases waiting for approval: none, the empty state', async () => {
  renderPage(PATH, [DEVICE_ACTION.RELEASE]);
  const section = await screen.findByTestId('release-approvals');
  expect(within(section).getByRole('heading', { name: A.title })).toBeTruthy();
  expect((await within(section).findByTestId('approvals-empty')).textContent).toContain(A.empty);
  expect(calls.find((c) => c.url === '/v5/credits/approvals')!.params).toEqual({ status: 'pending', page: 1, perPage: 25 });
});

test('Aprobar liberación asks first, names the credit and its customer, then the queue empties', async () => {
  approvals = [APPROVAL];
  const user = renderPage(PATH, [DEVICE_ACTION.RELEASE]);
  const tr = await screen.findByTestId('approval-row-CR-9');
  expect(tr.textContent).toContain('Luis Gómez');
  expect(
    within(tr)
      .getByRole('link', { name: L.open('CR-9') })
      .getAttribute('href'),
  ).toBe(`${PATH}?credit=CR-9`);
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(tr).getByRole('button', { name: A.approveOf('CR-9') }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog.textContent).toContain(A.approveConfirm('CR-9', 'Luis Gómez'));
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: A.approve }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/v5/credits/approvals/12/approve']));
  expect(await screen.findByText(A.approved('CR-9'))).toBeTruthy();
  expect(await screen.findByTestId('approvals-empty')).toBeTruthy();
});

test('Rechazar asks first, then rejects; Cancelar sends nothing', async () => {
  approvals = [APPROVAL];
  const user = renderPage(PATH, [DEVICE_ACTION.RELEASE]);
  const tr = await screen.findByTestId('approval-row-CR-9');
  await user.click(within(tr).getByRole('button', { name: A.rejectOf('CR-9') }));
  let dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await user.click(within(tr).getByRole('button', { name: A.rejectOf('CR-9') }));
  dialog = await screen.findByRole('dialog');
  expect(dialog.textContent).toContain(A.rejectConfirm('CR-9'));
  await user.click(within(dialog).getByRole('button', { name: A.reject }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/v5/credits/approvals/12/reject']));
  expect(await screen.findByText(A.rejected('CR-9'))).toBeTruthy();
});

test('without the device action RELEASE the queue shows, with no decision buttons', async () => {
  approvals = [APPROVAL];
  renderPage(PATH, []);
  const tr = await screen.findByTestId('approval-row-CR-9');
  expect(within(tr).queryByRole('button')).toBeNull();
});
