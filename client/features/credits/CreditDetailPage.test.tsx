/** @jest-environment jsdom */
import { parseDateTimeText } from '../../components/DateInput';
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { CREDIT_MESSAGES } from '../../../shared/areaMessages/credit';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { ROLE_ACTION } from '../../../shared/constants/roleActions';
import type { CreditDetail, PaymentResult } from '../../../shared/contracts/credits';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, loadDialogs, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import CreditDetailPage from './CreditDetailPage';

beforeAll(loadDialogs);

const L = CREDIT_PAGE_LABELS.detail;
const P = FIELD_LABELS.payments;
const DEVICES_PATH = '/inventory-management/devices';

const PAYMENT = {
  externalId: 'LOAN-991',
  amount: '500.00',
  paidAt: '2026-11-20T16:00:00.000Z',
  source: 'integration' as const,
  reversedAt: null,
  recordedAt: '2026-11-20T16:00:01.000Z',
  recordedBy: null,
  reversedBy: null,
};
const DETAIL: CreditDetail = {
  reference: 'CR-7',
  currency: 'MXN',
  state: 'overdue',
  daysOverdue: 5,
  amountOverdue: '750.00',
  nextDueDate: '2026-11-30',
  nextDueAmount: '750.00',
  total: '2500.00',
  paid: '500.00',
  balance: '2000.00',
  customerName: 'Ana Pérez',
  customerPhone: '5512345678',
  today: '2026-12-05',
  cancelled: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  installments: [
    { number: 1, dueDate: '2026-11-30', amount: '1250.00', paid: '500.00', state: 'overdue' },
    { number: 2, dueDate: '2026-12-30', amount: '1250.00', paid: '0.00', state: 'pending' },
  ],
  payments: [PAYMENT],
  devices: [{ id: 41, imei: '356938035643809', deviceType: 1, status: 3 }],
  nextStep: null,
  steps: [],
  pause: null,
};

let detail: CreditDetail = DETAIL;
let calls: ApiCall[] = [];
let paymentAnswer: (call: ApiCall) => PaymentResult;
let pauseAnswer: (call: ApiCall) => CreditDetail;
const standing = (over: Partial<PaymentResult['credit']> = {}): PaymentResult['credit'] => {
  const { reference, currency, state, daysOverdue, amountOverdue, nextDueDate, nextDueAmount, total, paid, balance } = detail;
  return { reference, currency, state, daysOverdue, amountOverdue, nextDueDate, nextDueAmount, total, paid, balance, ...over };
};

beforeEach(() => {
  detail = DETAIL;
  pauseAnswer = (call) => {
    const body = call.data as { until: string; reason: string };
    detail = { ...detail, pause: { until: `${body.until}T06:00:00.000Z`, by: 'ana@macrolock.mx', reason: body.reason } };
    return detail;
  };
  paymentAnswer = (call) => {
    const body = call.data as { externalId: string; amount: string; paidAt: string };
    return { payment: { ...body, source: 'portal', reversedAt: null }, credit: standing({ amountOverdue: '0.00', state: 'current' }) };
  };
  calls = stubRoutes({
    'GET /v5/credits/CR-7': () => detail,
    'GET /v5/credits/NOPE': () => {
      throw apiError(404, { message: CREDIT_MESSAGES.credits.notFound, code: 'CREDIT_NOT_FOUND' });
    },
    'POST /v5/credits/CR-7/payments': (call) => paymentAnswer(call),
    'POST /v5/credits/CR-7/payments/LOAN-991/reversal': () => ({ payment: { ...PAYMENT, reversedAt: '2026-12-05T10:00:00Z' }, credit: standing() }),
    'POST /v5/credits/CR-7/pause': (call) => pauseAnswer(call),
    'DELETE /v5/credits/CR-7/pause': () => {
      detail = { ...detail, pause: null };
      return detail;
    },
  });
});
afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

function renderPage({
  reference = 'CR-7',
  actions = [ROLE_ACTION.REGISTER_PAYMENTS] as number[],
  allowed = ['/credits/portfolio', DEVICES_PATH],
} = {}) {
  const onBack = jest.fn();
  const { user } = renderPortal(
    <>
      <CreditDetailPage reference={reference} onBack={onBack} />
      <PortalToastContainer />
    </>,
    { url: '/credits/portfolio?credit=' + reference, allowed, actions },
  );
  return { user, onBack };
}

const postCalls = () => calls.filter((c) => c.method === 'POST');

test("the credit's page: header, figures, schedule, payments and the devices it finances, each a link to its detail", async () => {
  renderPage();
  await screen.findByTestId('credit-detail');
  expect(screen.getByRole('heading', { name: 'Crédito CR-7', level: 1 })).toBeTruthy();
  expect(screen.getAllByTestId('credit-state')[0]!.textContent).toBe('Vencido · 5 días');
  const figures = screen.getByTestId('credit-figures').textContent!;
  for (const text of ['Ana Pérez', '5512345678', '2,500.00 MXN', '2,000.00 MXN', '750.00 MXN']) expect(figures).toContain(text);
  // nextStep null (nothing planned): no line for it.
  expect(figures).not.toContain(L.nextStep);

  const schedule = within(screen.getByTestId('credit-schedule')).getAllByRole('row');
  expect(schedule).toHaveLength(3);
  expect(schedule[1]!.textContent).toMatch(/1.*30 nov 2026.*1,250\.00 MXN.*500\.00 MXN.*Vencida/);
  expect(schedule[2]!.textContent).toContain('Pendiente');

  const payment = screen.getByTestId('payment-row-LOAN-991');
  expect(payment.textContent).toContain('500.00 MXN');
  expect(payment.textContent).toContain('Integración');
  expect(payment.textContent).toContain(L.notReversed);

  const device = within(screen.getByTestId('credit-devices')).getByRole('link', { name: L.openDevice('356938035643809') });
  expect(device.getAttribute('href')).toBe(`${DEVICES_PATH}?device=41`);
  expect(screen.getByTestId('credit-devices').textContent).toContain('Bloqueado');
  expect(await seriousViolations()).toEqual([]);
});

test("the engine's next step shows when the answer carries one", async () => {
  detail = {
    ...DETAIL,
    nextStep: { kind: 'lock', at: '2026-12-03T14:00:00Z', text: 'Se bloqueará el 3 dic., 08:00, si no se registra el pago' },
  };
  renderPage();
  const figures = await screen.findByTestId('credit-figures');
  expect(figures.textContent).toContain(L.nextStep);
  expect(figures.textContent).toContain('Se bloqueará el 3 dic., 08:00, si no se registra el pago');
});

test('without the role action 100 there is no Registrar pago nor Revertir; without the devices page, IMEIs are plain text', async () => {
  renderPage({ actions: [], allowed: ['/credits/portfolio'] });
  await screen.findByTestId('credit-detail');
  expect(screen.queryByRole('button', { name: L.register })).toBeNull();
  expect(screen.queryByRole('button', { name: L.reverseOf('LOAN-991') })).toBeNull();
  expect(within(screen.getByTestId('credit-devices')).queryByRole('link')).toBeNull();
  expect(screen.getByTestId('credit-devices').textContent).toContain('356938035643809');
});

test('Registrar pago: Spanish errors naming the field, then one externalId per dialog through a retry, the wire forms, a toast', async () => {
  const { user } = renderPage();
  await user.click(await screen.findByRole('button', { name: L.register }));
  const dialog = await screen.findByRole('dialog');
  const paidAt = within(dialog).getByLabelText(P.paidAt) as HTMLInputElement;
  // Now, to the minute, in the browser's zone, as dd/mm/aaaa hh:mm whatever the browser's language.
  expect(paidAt.value).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  expect(Math.abs(parseDateTimeText(paidAt.value)!.getTime() - Date.now())).toBeLessThan(120_000);

  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  expect(await within(dialog).findByText(CREDIT_MESSAGES.field.amount(P.amount))).toBeTruthy();
  expect(postCalls()).toHaveLength(0);

  await user.type(within(dialog).getByLabelText(P.amount), '1250.5');
  await user.clear(paidAt);
  await user.type(paidAt, '04/12/2026 09:30');
  paymentAnswer = () => {
    throw apiError(400, { message: CREDIT_MESSAGES.field.future(P.paidAt), code: 'BAD_REQUEST', field: 'paidAt' });
  };
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  expect(await within(dialog).findAllByText(CREDIT_MESSAGES.field.future(P.paidAt))).not.toHaveLength(0);
  const first = postCalls()[0]!.data as { externalId: string; amount: string; paidAt: string };
  expect(first.externalId).toMatch(/^portal-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(first.amount).toBe('1250.50');
  expect(first.paidAt).toBe(new Date('2026-12-04T09:30').toISOString());

  paymentAnswer = (call) => {
    const body = call.data as { externalId: string; amount: string; paidAt: string };
    return { payment: { ...body, source: 'portal', reversedAt: null }, credit: standing() };
  };
  const reads = () => calls.filter((c) => c.method === 'GET' && c.url === '/v5/credits/CR-7').length;
  const readsBefore = reads();
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(postCalls()).toHaveLength(2);
  expect((postCalls()[1]!.data as { externalId: string }).externalId).toBe(first.externalId);
  expect(await screen.findByText(CREDIT_PAGE_LABELS.payment.registered('1,250.50 MXN', 'CR-7'))).toBeTruthy();
  // The credit is read again after the payment.
  await waitFor(() => expect(reads()).toBeGreaterThan(readsBefore));

  await user.click(screen.getByRole('button', { name: L.register }));
  const again = await screen.findByRole('dialog');
  await user.type(within(again).getByLabelText(P.amount), '10');
  await user.click(within(again).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(postCalls()).toHaveLength(3));
  expect((postCalls()[2]!.data as { externalId: string }).externalId).not.toBe(first.externalId);
});

test('Revertir asks first, then reverses the payment', async () => {
  const { user } = renderPage();
  await user.click(await screen.findByRole('button', { name: L.reverseOf('LOAN-991') }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog.textContent).toContain(CREDIT_PAGE_LABELS.payment.reverseConfirm('500.00 MXN', 'LOAN-991'));
  expect(postCalls()).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: L.reverse }));
  await waitFor(() => expect(postCalls().map((c) => c.url)).toEqual(['/v5/credits/CR-7/payments/LOAN-991/reversal']));
  expect(await screen.findByText(CREDIT_PAGE_LABELS.payment.reversed('LOAN-991'))).toBeTruthy();
});

test('a cancelled credit offers Registrar pago disabled, saying why', async () => {
  detail = { ...DETAIL, state: 'cancelled', cancelled: true };
  renderPage();
  const register = (await screen.findByRole('button', { name: L.register })) as HTMLButtonElement;
  expect(register.disabled).toBe(true);
  expect(register.title).toBe(L.cancelled);
});

test('a reference no credit has: the page says so; the back button calls back', async () => {
  const { user, onBack } = renderPage({ reference: 'NOPE' });
  expect(await screen.findByText(L.notFound)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: L.back }));
  expect(onBack).toHaveBeenCalled();
});

const Z = CREDIT_PAGE_LABELS.pause;
const CP = FIELD_LABELS.collectionPolicy;
const STEPS: CreditDetail['steps'] = [
  {
    key: '1:lock:2026-12-03T14:00:00.000Z',
    installment: 1,
    kind: 'lock',
    outcome: 'skipped',
    action: null,
    devices: [],
    skippedDevices: [{ id: 41, reason: 'ya bloqueado' }],
    reason: 'vencido 5 días, 750.00 MXN, política Global v2',
    at: '2026-12-03T14:00:00.000Z',
  },
  {
    key: '1:reminder:-3',
    installment: 1,
    kind: 'reminder',
    outcome: 'done',
    action: 4,
    devices: [41],
    skippedDevices: [],
    reason: 'vence en 3 días (30 nov.), 1,250.00 MXN, política Global v2',
    at: '2026-11-27T15:00:00.000Z',
  },
];

test("the policy's past steps: when, what, whether it was applied and why (a skipped device and its reason)", async () => {
  detail = { ...DETAIL, steps: STEPS };
  renderPage();
  const rows = within(await screen.findByTestId('credit-steps')).getAllByRole('row');
  expect(rows).toHaveLength(3);
  const lock = rows[1]!.textContent!;
  for (const text of ['Bloqueo', L.stepSkipped, 'vencido 5 días, 750.00 MXN, política Global v2', L.stepSkippedDevice(41, 'ya bloqueado')]) {
    expect(lock).toContain(text);
  }
  expect(rows[2]!.textContent).toContain('Recordatorio');
  expect(rows[2]!.textContent).toContain(L.stepDone);
});

test('no steps yet: the collection section says so', async () => {
  renderPage();
  expect(within(await screen.findByTestId('credit-collection')).getByText(L.noSteps)).toBeTruthy();
  expect(screen.queryByTestId('credit-pause')).toBeNull();
});

test('Pausar cobranza: Spanish errors naming the fields, the server refusing a past day, then the pause shown with who and why', async () => {
  const { user } = renderPage({ actions: [ROLE_ACTION.PAUSE_COLLECTION] });
  expect(screen.queryByRole('button', { name: L.resume })).toBeNull();
  await user.click(await screen.findByRole('button', { name: L.pause }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog.textContent).toContain(Z.title('CR-7'));
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  expect(await within(dialog).findByText(CREDIT_MESSAGES.field.calendarDate(CP.pauseUntil))).toBeTruthy();
  expect(postCalls()).toHaveLength(0);

  const until = within(dialog).getByLabelText(CP.pauseUntil) as HTMLInputElement;
  expect(until.min).toBe('2026-12-05');
  await user.type(until, '2026-12-01');
  await user.type(within(dialog).getByLabelText(CP.pauseReason), 'Paga el viernes con su aguinaldo');
  const refused = pauseAnswer;
  pauseAnswer = () => {
    throw apiError(400, { message: CREDIT_MESSAGES.field.pauseFuture(CP.pauseUntil), code: 'VALIDATION', field: 'until' });
  };
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  expect(await within(dialog).findAllByText(CREDIT_MESSAGES.field.pauseFuture(CP.pauseUntil))).not.toHaveLength(0);

  pauseAnswer = refused;
  await user.clear(until);
  await user.type(until, '2026-12-12');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(postCalls().map((c) => [c.url, c.data])).toEqual([
    ['/v5/credits/CR-7/pause', { until: '2026-12-01', reason: 'Paga el viernes con su aguinaldo' }],
    ['/v5/credits/CR-7/pause', { until: '2026-12-12', reason: 'Paga el viernes con su aguinaldo' }],
  ]);
  expect(await screen.findByText(Z.paused('CR-7', '12 dic 2026'))).toBeTruthy();
  const pause = await screen.findByTestId('credit-pause');
  expect(pause.textContent).toContain(L.pausedBy('ana@macrolock.mx'));
  expect(pause.textContent).toContain(L.pausedWhy('Paga el viernes con su aguinaldo'));
  expect(screen.getByRole('button', { name: L.resume })).toBeTruthy();
  expect(await seriousViolations()).toEqual([]);
});

test('Reanudar cobranza asks first, then ends the pause', async () => {
  detail = { ...DETAIL, pause: { until: '2026-12-13T06:00:00.000Z', by: null, reason: 'Promesa por teléfono' } };
  const { user } = renderPage({ actions: [ROLE_ACTION.PAUSE_COLLECTION] });
  const pause = await screen.findByTestId('credit-pause');
  expect(pause.textContent).toContain(L.pausedBy(null));
  expect(screen.queryByRole('button', { name: L.pause })).toBeNull();
  await user.click(screen.getByRole('button', { name: L.resume }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog.textContent).toContain(Z.resumeConfirm('CR-7'));
  expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  await user.click(within(dialog).getByRole('button', { name: L.resume }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/v5/credits/CR-7/pause']));
  expect(await screen.findByText(Z.resumed('CR-7'))).toBeTruthy();
  await waitFor(() => expect(screen.queryByTestId('credit-pause')).toBeNull());
});

test('without the role action 101 a pause shows, but neither Pausar nor Reanudar cobranza', async () => {
  detail = { ...DETAIL, pause: { until: '2026-12-13T06:00:00.000Z', by: 'ana@macrolock.mx', reason: 'Promesa' } };
  renderPage({ actions: [ROLE_ACTION.REGISTER_PAYMENTS] });
  expect(await screen.findByTestId('credit-pause')).toBeTruthy();
  expect(screen.queryByRole('button', { name: L.pause })).toBeNull();
  expect(screen.queryByRole('button', { name: L.resume })).toBeNull();
});
