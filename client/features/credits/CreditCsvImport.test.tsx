/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { CREDIT_MESSAGES } from '../../../shared/areaMessages/credit';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { ROLE_ACTION } from '../../../shared/constants/roleActions';
import type { CreditImportResult } from '../../../shared/contracts/creditImport';
import { loadDialogs, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import { CreditCsvImport } from './CreditCsvImport';
import CreditPortfolioPage from './CreditPortfolioPage';
import { CSV_IMPORT_LABELS } from '../../../shared/constants/csvImportLabels';

beforeAll(loadDialogs);

const L = CREDIT_PAGE_LABELS.csvImport;
const C = CSV_IMPORT_LABELS;
const PATH = '/credits/portfolio';

const EMPTY: CreditImportResult = {
  mode: 'preview',
  kind: 'payments',
  encoding: 'Windows-1252',
  ignoredColumns: [],
  rows: 2,
  invalid: [],
  schedules: [],
  created: 0,
  replaced: 0,
  payments: [],
  newPayments: 0,
  alreadyApplied: 0,
  applied: false,
};
const PAYMENTS_PREVIEW: CreditImportResult = {
  ...EMPTY,
  payments: [
    { line: 2, reference: 'CR-1', externalId: 'P-1', amount: '1250.00', currency: 'MXN', paidAt: '2026-12-01T16:30:00.000Z', outcome: 'new' },
    {
      line: 3,
      reference: 'CR-1',
      externalId: 'P-0',
      amount: '500.00',
      currency: 'MXN',
      paidAt: '2026-11-01T16:30:00.000Z',
      outcome: 'already_applied',
    },
  ],
  newPayments: 1,
  alreadyApplied: 1,
};
const SCHEDULES_WITH_ERRORS: CreditImportResult = {
  ...EMPTY,
  kind: 'schedules',
  encoding: 'UTF-8',
  rows: 3,
  invalid: [{ line: 3, reference: 'CR-2', errors: [{ field: 'monto', message: CREDIT_MESSAGES.csvImport.amount('monto') }] }],
  schedules: [{ reference: 'CR-1', customerName: 'José Muñoz', currency: 'MXN', installments: 2, total: '2500.00', imeis: [], outcome: 'create' }],
  created: 1,
};

let calls: ApiCall[] = [];
let preview: CreditImportResult = PAYMENTS_PREVIEW;
beforeEach(() => {
  preview = PAYMENTS_PREVIEW;
  calls = stubRoutes({
    'GET /v5/credits': () => ({ data: [], total: 0 }),
    'GET /v5/credits/summary': () => ({
      today: '2026-12-05',
      timeZone: 'America/Mexico_City',
      total: 0,
      byState: { current: 0, overdue: 0, paid_off: 0, cancelled: 0 },
      overdueBuckets: { '1-7': 0, '8-30': 0, '31+': 0 },
      dueThisWeek: 0,
      amountOverdue: [],
      paymentsToday: { count: 0, amounts: [] },
    }),
    'GET /v5/credits/approvals': () => ({ data: [], total: 0 }),
    'GET /v5/groups': () => ({ data: [], total: 0 }),
    'POST /v5/credits/import': (call) =>
      (call.params as { mode: string }).mode === 'commit' ? { ...preview, mode: 'commit', applied: true } : preview,
  });
});
afterEach(() => jest.restoreAllMocks());

const csv = (text: string) => new File([text], 'pagos.csv', { type: 'text/csv' });
const importCalls = () => calls.filter((c) => c.url === '/v5/credits/import');

test('the portfolio offers Importar CSV only with the action of registering payments; the dialog opens and closes by keyboard', async () => {
  renderPortal(<CreditPortfolioPage title="Cartera de créditos" path={PATH} />, { url: PATH, allowed: [PATH], actions: [] });
  await screen.findByText(CREDIT_PAGE_LABELS.portfolio.empty);
  expect(screen.queryByRole('button', { name: L.open })).toBeNull();
  cleanup();

  const { user } = renderPortal(<CreditPortfolioPage title="Cartera de créditos" path={PATH} />, {
    url: PATH,
    allowed: [PATH],
    actions: [ROLE_ACTION.REGISTER_PAYMENTS],
  });
  const open = await screen.findByRole('button', { name: L.open });
  open.focus();
  await user.keyboard('{Enter}');
  const dialog = await screen.findByRole('dialog', { name: L.title });
  const group = within(dialog).getByRole('group', { name: L.kind });
  expect((within(group).getByRole('radio', { name: L.kinds.schedules }) as HTMLInputElement).checked).toBe(true);
  expect(within(dialog).getByText(L.intro.schedules('10,000', 2))).toBeTruthy();
  expect(await seriousViolations()).toEqual([]);
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('payments: the preview shows new and already applied payments; applying sends the same file in commit mode and says what was applied', async () => {
  const { user } = renderPortal(<CreditCsvImport />);
  await user.click(screen.getByRole('radio', { name: L.kinds.payments }));
  expect(screen.getByText(L.intro.payments('10,000', 2))).toBeTruthy();
  const file = csv('referencia,id_externo,monto,fecha_pago\nCR-1,P-1,"$1,250.00",01/12/2026 10:30\n');
  await user.upload(screen.getByLabelText(C.file), file);

  const table = await screen.findByRole('table', { name: L.paymentsTitle });
  expect(importCalls()).toHaveLength(1);
  expect(importCalls()[0]).toMatchObject({ method: 'POST', params: { kind: 'payments', mode: 'preview' }, headers: { 'Content-Type': 'text/csv' } });
  expect(importCalls()[0]!.data).toBe(file);
  const rows = within(table).getAllByRole('row');
  expect(rows[1]!.textContent).toContain('1,250.00 MXN');
  expect(rows[1]!.textContent).toContain(L.outcomes.new);
  expect(rows[2]!.textContent).toContain(L.outcomes.already_applied);
  expect(screen.getByTestId('csv-counts').textContent).toContain('Windows-1252');
  expect(screen.getByText(L.allOrNothing)).toBeTruthy();

  await user.click(screen.getByRole('button', { name: L.apply }));
  const result = await screen.findByTestId('csv-result');
  expect(result.textContent).toBe(L.appliedPayments(1, 1));
  expect(importCalls()[1]).toMatchObject({ params: { kind: 'payments', mode: 'commit' } });
  expect(importCalls()[1]!.data).toBe(file);
  expect(screen.getByRole('button', { name: C.importAnother })).toBeTruthy();
});

test('schedules with a row in error: the error names line, reference and column, and nothing can be applied', async () => {
  preview = SCHEDULES_WITH_ERRORS;
  const { user } = renderPortal(<CreditCsvImport />);
  await user.upload(screen.getByLabelText(C.file), csv('referencia,cliente,numero,vencimiento,monto\n'));
  const errors = await screen.findByRole('table', { name: C.invalidTitle });
  const row = within(errors).getAllByRole('row')[1]!;
  expect(row.textContent).toContain('3');
  expect(row.textContent).toContain('CR-2');
  expect(row.textContent).toContain(`monto: ${CREDIT_MESSAGES.csvImport.amount('monto')}`);
  expect(screen.getByRole('table', { name: L.schedulesTitle }).textContent).toContain('José Muñoz');
  expect(screen.getByText(L.hasErrors)).toBeTruthy();
  expect((screen.getByRole('button', { name: L.apply }) as HTMLButtonElement).disabled).toBe(true);
  expect(importCalls().map((c) => (c.params as { kind: string }).kind)).toEqual(['schedules']);
  await user.click(screen.getByRole('button', { name: L.cancel }));
  await waitFor(() => expect(screen.queryByTestId('credit-import-preview')).toBeNull());
});

test('a file whose payments are all already applied has nothing to apply', async () => {
  preview = { ...PAYMENTS_PREVIEW, payments: [PAYMENTS_PREVIEW.payments[1]!], newPayments: 0 };
  const { user } = renderPortal(<CreditCsvImport />);
  await user.click(screen.getByRole('radio', { name: L.kinds.payments }));
  await user.upload(screen.getByLabelText(C.file), csv('referencia,id_externo,monto,fecha_pago\n'));
  expect(await screen.findByText(L.nothingToApply)).toBeTruthy();
  expect((screen.getByRole('button', { name: L.apply }) as HTMLButtonElement).disabled).toBe(true);
});
