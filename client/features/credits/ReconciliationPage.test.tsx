/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { RECONCILIATION_LABELS } from '../../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { PATHS } from '../../../shared/constants/routes';
import type { ReconciliationCounts, ReconciliationList, ReconciliationRow } from '../../../shared/contracts/credits';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import ReconciliationPage from './ReconciliationPage';

const L = CREDIT_PAGE_LABELS.reconciliation;
const PATH = '/credits/reconciliation';

function row(over: Partial<ReconciliationRow>): ReconciliationRow {
  return {
    kind: 'paid_locked',
    creditReference: 'CR-1',
    deviceId: 11,
    imei: '356938035643809',
    deviceType: 1,
    groupId: null,
    customerName: 'Ana Pérez',
    detail: RECONCILIATION_LABELS.detail.paid_locked(),
    daysOverdue: null,
    lockDays: null,
    releasedAt: null,
    lastSeenAt: '2026-12-05T10:00:00.000Z',
    fix: DEVICE_ACTION.UNLOCK,
    ...over,
  };
}

const LOCKED = row({});
const LATE = row({
  kind: 'overdue_active',
  creditReference: 'CR-2',
  deviceId: 12,
  imei: '356938035643810',
  detail: RECONCILIATION_LABELS.detail.overdue_active(10, 7),
  daysOverdue: 10,
  lockDays: 7,
  fix: DEVICE_ACTION.LOCK,
});
const ORPHAN = row({
  kind: 'device_without_credit',
  creditReference: 'NO-EXISTE',
  deviceId: 13,
  imei: '356938035643811',
  detail: RECONCILIATION_LABELS.detail.device_without_credit(),
  fix: null,
});
const COUNTS: ReconciliationCounts = {
  paid_locked: 1,
  overdue_active: 1,
  paid_not_released: 0,
  released_reporting: 0,
  credit_without_device: 0,
  device_without_credit: 1,
};

let location = '';
function LocationProbe() {
  location = useLocation().search;
  return null;
}

let rows: ReconciliationRow[] = [];
let total = 0;
let calls: ApiCall[] = [];
const answer = (): ReconciliationList => ({ data: rows, total, counts: COUNTS });
beforeEach(() => {
  rows = [LOCKED, LATE, ORPHAN];
  total = 3;
  calls = stubRoutes({ 'GET /v5/credits/reconciliation': answer });
});
afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

const listCalls = () => calls.filter((c) => c.method === 'GET' && c.url === '/v5/credits/reconciliation');

function renderPage(url = PATH, opts: { actions?: number[]; allowed?: string[] } = {}) {
  return renderPortal(
    <>
      <Routes>
        <Route
          path={PATH}
          element={
            <>
              <ReconciliationPage title="Conciliación" path={PATH} />
              <LocationProbe />
            </>
          }
        />
      </Routes>
      <PortalToastContainer />
    </>,
    {
      url,
      allowed: opts.allowed ?? [PATH, PATHS.devices, PATHS.creditPortfolio],
      actions: opts.actions ?? [DEVICE_ACTION.LOCK, DEVICE_ACTION.UNLOCK, DEVICE_ACTION.RELEASE],
    },
  ).user;
}

test('rows show the kind, reference, IMEI, customer and detail; the kind filter shows the counts', async () => {
  renderPage();
  const locked = await screen.findByTestId('reconciliation-row-paid_locked:11');
  expect(locked.textContent).toContain(RECONCILIATION_LABELS.kinds.paid_locked);
  expect(locked.textContent).toContain('356938035643809');
  expect(locked.textContent).toContain('Ana Pérez');
  expect(screen.getByTestId('reconciliation-row-overdue_active:12').textContent).toContain('Vencido 10 días; la política bloquea a partir de 7 días');
  expect(
    within(locked)
      .getByRole('link', { name: L.openCredit('CR-1') })
      .getAttribute('href'),
  ).toBe('/credits/portfolio?credit=CR-1');
  const filter = screen.getByLabelText(L.filterKind);
  expect(within(filter).getByRole('option', { name: L.kindCount(RECONCILIATION_LABELS.kinds.paid_locked, 1) })).toBeTruthy();
  expect(listCalls()[0]!.params).toEqual({ page: 1, perPage: 25 });
  expect(await seriousViolations()).toEqual([]);
});

test("a fixable row links to the device's detail with the action's modal; the others show none", async () => {
  renderPage();
  const unlock = await screen.findByRole('link', { name: L.fix('Desbloquear', '356938035643809') });
  expect(unlock.getAttribute('href')).toBe(`${PATHS.devices}?device=11&action=${DEVICE_ACTION.UNLOCK}`);
  const lock = screen.getByRole('link', { name: L.fix('Bloquear', '356938035643810') });
  expect(lock.getAttribute('href')).toBe(`${PATHS.devices}?device=12&action=${DEVICE_ACTION.LOCK}&lockType=PorCredito`);
  expect(within(screen.getByTestId('reconciliation-row-device_without_credit:13')).getByText(L.noFix)).toBeTruthy();
  // NO-EXISTE is no credit: plain text, no link.
  expect(screen.queryByRole('link', { name: L.openCredit('NO-EXISTE') })).toBeNull();
});

test('without the action no fix is offered for it', async () => {
  renderPage(PATH, { actions: [DEVICE_ACTION.LOCK] });
  await screen.findByTestId('reconciliation-row-paid_locked:11');
  expect(screen.queryByRole('link', { name: L.fix('Desbloquear', '356938035643809') })).toBeNull();
  expect(screen.getByRole('link', { name: L.fix('Bloquear', '356938035643810') })).toBeTruthy();
});

test('without the devices page no fix is offered', async () => {
  renderPage(PATH, { allowed: [PATH] });
  await screen.findByTestId('reconciliation-row-paid_locked:11');
  expect(screen.queryByRole('link', { name: L.fix('Bloquear', '356938035643810') })).toBeNull();
});

test('the kind filter writes the URL (back to page 1) and the request', async () => {
  const user = renderPage(`${PATH}?page=2`);
  await screen.findByTestId('reconciliation-row-paid_locked:11');
  await user.selectOptions(screen.getByLabelText(L.filterKind), 'overdue_active');
  await waitFor(() => expect(location).toBe('?kind=overdue_active'));
  await waitFor(() => expect(listCalls().at(-1)!.params).toEqual({ kind: 'overdue_active', page: 1, perPage: 25 }));
});

test('a bad kind in the URL reads as all', async () => {
  renderPage(`${PATH}?kind=todo`);
  await screen.findByTestId('reconciliation-row-paid_locked:11');
  expect(listCalls()[0]!.params).toEqual({ page: 1, perPage: 25 });
});

test('paging: the pager moves the page in the URL', async () => {
  total = 60;
  const user = renderPage();
  await screen.findByTestId('reconciliation-row-paid_locked:11');
  expect(screen.getByText(L.pageOf(1, 3, 60))).toBeTruthy();
  await user.click(within(screen.getByRole('navigation', { name: L.pagination })).getByRole('button', { name: '2' }));
  await waitFor(() => expect(location).toBe('?page=2'));
  await waitFor(() => expect(listCalls().at(-1)!.params).toEqual({ page: 2, perPage: 25 }));
});

test('empty states: no rows at all, or none of the kind', async () => {
  rows = [];
  total = 0;
  renderPage();
  expect((await screen.findByTestId('reconciliation-empty')).textContent).toContain(L.empty);
});

test('empty state of a kind', async () => {
  rows = [];
  total = 0;
  renderPage(`${PATH}?kind=released_reporting`);
  expect((await screen.findByTestId('reconciliation-empty')).textContent).toContain(L.emptyFiltered);
});

test('an error state with a retry', async () => {
  let fail = true;
  calls = stubRoutes({
    'GET /v5/credits/reconciliation': () => {
      if (fail) throw apiError(500, { message: 'Error interno' });
      return answer();
    },
  });
  const user = renderPage();
  const retry = await screen.findByRole('button', { name: 'Reintentar' });
  fail = false;
  await user.click(retry);
  expect(await screen.findByTestId('reconciliation-row-paid_locked:11')).toBeTruthy();
});
