/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, within } from '@testing-library/react';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import type { CreditRow } from '../../../shared/contracts/credits';
import { renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import { DeviceCreditPanel } from './DeviceCreditPanel';

const L = CREDIT_PAGE_LABELS.devicePanel;
const PORTFOLIO = '/credits/portfolio';
const CREDIT: CreditRow = {
  reference: 'CR 7/a',
  currency: 'MXN',
  state: 'overdue',
  daysOverdue: 12,
  amountOverdue: '1500.00',
  nextDueDate: '2026-12-01',
  nextDueAmount: '750.00',
  total: '9000.00',
  paid: '3000.00',
  balance: '6000.00',
  customerName: 'Ana',
  deviceCount: 1,
};

let answer: unknown = CREDIT;
let calls: ApiCall[] = [];
beforeEach(() => {
  answer = CREDIT;
  calls = stubRoutes({ 'GET /v5/devices/5/credit': () => answer });
});
afterEach(() => jest.restoreAllMocks());

function renderPanel(creditReference: string | null, allowed = ['/inventory-management/devices', PORTFOLIO]) {
  renderPortal(<DeviceCreditPanel device={{ id: 5, creditReference }} />, { allowed, actions: [] });
}

test('the credit of the device: next due date and amount, days and amount overdue, state, and a link to its page', async () => {
  renderPanel('CR 7/a');
  const facts = await screen.findByTestId('device-credit');
  const text = facts.textContent!;
  expect(text).toMatch(/1 dic 2026/);
  expect(text).toContain('750.00 MXN');
  expect(text).toContain('1,500.00 MXN');
  expect(text).toContain('12');
  expect(within(facts).getByTestId('credit-state').textContent).toBe('Vencido · 12 días');
  expect(text).not.toContain(L.nextStep);
  const link = screen.getByRole('link', { name: L.open('CR 7/a') });
  expect(link.getAttribute('href')).toBe(`${PORTFOLIO}?credit=CR%207%2Fa`);
  expect(await seriousViolations()).toEqual([]);
});

test("the engine's next step when the answer has one; no link without the portfolio page", async () => {
  answer = { ...CREDIT, nextStep: { kind: 'lock', at: '2026-12-03T14:00:00Z', text: 'Se bloqueará el 3 dic., 08:00, si no se registra el pago' } };
  renderPanel('CR 7/a', ['/inventory-management/devices']);
  const facts = await screen.findByTestId('device-credit');
  expect(facts.textContent).toContain('Se bloqueará el 3 dic., 08:00, si no se registra el pago');
  expect(screen.queryByRole('link')).toBeNull();
});

test('a reference no credit has: the empty state names it', async () => {
  answer = null;
  renderPanel('CR-404');
  expect(await screen.findByText(L.noCredit('CR-404'))).toBeTruthy();
  expect(screen.queryByTestId('device-credit')).toBeNull();
});

test('a device without a reference: the empty state, and no request', async () => {
  renderPanel(null);
  expect(screen.getByText(L.noReference)).toBeTruthy();
  expect(calls).toHaveLength(0);
});
