/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DASHBOARD_LABELS } from '../../../shared/constants/dashboardLabels';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { DEVICE_STATUS, DEVICE_TYPE } from '../../../shared/constants/domain';
import { DATA_TABLE_LABELS } from '../../../shared/constants/labels';
import { PATHS } from '../../../shared/constants/routes';
import { DASHBOARD_DAYS, DASHBOARD_REFRESH_MS, generalDashboardResponse, type GeneralDashboard } from '../../../shared/contracts/dashboard';
import { apiError, renderPortal, seriousViolations, stubRoutes } from '../../testing/renderPortal';
import { DASHBOARD_CHART } from './chartChunk';
import GeneralDashboardPage from './GeneralDashboardPage';
import { statusColor } from '../../components/statusBadge';

// jsdom has no canvas: the chart component stands in as a canvas with the props it was given
// (chart.js itself draws in the Chromium tests, tests/e2e/dashboard.test.ts).
jest.mock('react-chartjs-2', () => ({ Chart: jest.requireActual('./testing/chartStandIn').ChartStandIn }));

const L = DASHBOARD_LABELS.general;
const C = DASHBOARD_LABELS.common;
const ALL = [PATHS.dashboard, PATHS.dashboardGeneral, PATHS.devices, PATHS.preEnrolled, PATHS.addDevice];

const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);
const series = (at: Record<number, number>) => days.map((_, i) => at[i] ?? 0);

/** A contract-valid answer (parsed by the contract's own schema). */
function answer(over: Partial<GeneralDashboard> = {}): GeneralDashboard {
  return generalDashboardResponse.parse({
    generatedAt: '2026-10-30T18:04:05.000Z',
    timeZone: 'America/Mexico_City',
    monthStart: '2026-10-01T06:00:00.000Z',
    offlineAfterHours: 72,
    totals: {
      devices: 12345,
      smartphones: 10000,
      tvs: 2345,
      preEnrolled: 1500,
      locked: 1234,
      offline: 2001,
      inFlight: 17,
      pendingCommands: 21,
      released: 4321,
      releasedThisMonth: 1002,
    },
    byStatus: [
      { status: DEVICE_STATUS.activo, count: 4789 },
      { status: DEVICE_STATUS.bloqueado, count: 1234 },
      { status: DEVICE_STATUS.sin_conexion, count: 2001 },
      { status: DEVICE_STATUS.liberado, count: 4321 },
    ],
    days,
    commandsPerDay: [
      { action: DEVICE_ACTION.LOCK, counts: series({ 0: 3, 29: 1200 }) },
      { action: DEVICE_ACTION.UNLOCK, counts: series({ 29: 5 }) },
    ],
    enrollmentsPerDay: [
      { deviceType: DEVICE_TYPE.SMARTPHONE, counts: series({ 1: 2 }) },
      { deviceType: DEVICE_TYPE.TV, counts: series({ 1: 1 }) },
    ],
    topGroups: [
      { groupId: 4, name: 'Norte', count: 9000 },
      { groupId: null, name: null, count: 3345 },
    ],
    stuckCommands: {
      total: 42,
      rows: [
        {
          commandId: 77,
          deviceId: 901,
          imei: '356938035643809',
          deviceType: DEVICE_TYPE.SMARTPHONE,
          action: DEVICE_ACTION.LOCK,
          requestedAt: '2026-10-27T10:00:00.000Z',
          deliveredAt: null,
          lastSeenAt: '2026-10-26T09:00:00.000Z',
        },
      ],
    },
    ...over,
  });
}

const renderPage = (allowed: string[] = ALL) =>
  renderPortal(<GeneralDashboardPage title="General" path={PATHS.dashboardGeneral} />, { url: PATHS.dashboardGeneral, allowed });

const card = (testId: string) => screen.getByTestId(testId);
const cardHref = (testId: string) => within(card(testId)).getAllByRole('link')[0]!.getAttribute('href');

// Loaded ahead, as the browser does before hydrating a dashboard (client/app/pages.ts).
beforeAll(() => DASHBOARD_CHART.load());

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

test('the cards show the numbers in es-MX, each a link to the devices page with the filter that lists them', async () => {
  const calls = stubRoutes({ 'GET /v5/dashboard/general': () => answer() });
  renderPage();
  await screen.findByTestId('kpi-devices');
  expect(calls[0]!.params.tz).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

  const values = Object.fromEntries(
    ['devices', 'smartphones', 'tvs', 'locked', 'offline', 'in-flight', 'released'].map((k) => [k, screen.getByTestId(`kpi-${k}-value`).textContent]),
  );
  expect(values).toEqual({
    devices: '12,345',
    smartphones: '10,000',
    tvs: '2,345',
    locked: '1,234',
    offline: '2,001',
    'in-flight': '17',
    released: '1,002',
  });
  expect(card('kpi-devices').textContent).toContain('1,500 pre-enrolados');
  expect(within(card('kpi-devices')).getByRole('link', { name: '1,500 pre-enrolados' }).getAttribute('href')).toBe(PATHS.preEnrolled);
  expect(card('kpi-in-flight').textContent).toContain('21 comandos pendientes');
  expect(card('kpi-released').textContent).toContain('4,321 liberados en total');

  expect(cardHref('kpi-devices')).toBe(PATHS.devices);
  expect(cardHref('kpi-smartphones')).toBe(`${PATHS.devices}?deviceType=${DEVICE_TYPE.SMARTPHONE}`);
  expect(cardHref('kpi-tvs')).toBe(`${PATHS.devices}?deviceType=${DEVICE_TYPE.TV}`);
  expect(cardHref('kpi-locked')).toBe(`${PATHS.devices}?locked=true`);
  expect(card('kpi-locked').textContent).toContain('Bloqueado, configurado bloqueado y bloqueando');
  expect(cardHref('kpi-offline')).toBe(`${PATHS.devices}?status=${DEVICE_STATUS.sin_conexion}`);
  expect(cardHref('kpi-in-flight')).toBe(`${PATHS.devices}?inFlight=true`);
  // This month's releases: released since the month's first instant the answer gives; the total below links to every released device.
  expect(cardHref('kpi-released')).toBe(`${PATHS.devices}?status=${DEVICE_STATUS.liberado}&releasedFrom=2026-10-01T06%3A00%3A00.000Z`);
  expect(within(card('kpi-released')).getByRole('link', { name: '4,321 liberados en total' }).getAttribute('href')).toBe(
    `${PATHS.devices}?status=${DEVICE_STATUS.liberado}`,
  );
  expect(screen.getByRole('link', { name: `${L.locked} 1,234` })).toBeTruthy();

  expect(screen.getByTestId('dashboard-updated').textContent).toMatch(/^Actualizado: 30 oct 2026, \d{1,2}:04:05/);
  expect(await seriousViolations()).toEqual([]);
});

test('without the devices page granted the cards are not links', async () => {
  stubRoutes({ 'GET /v5/dashboard/general': () => answer() });
  renderPage([PATHS.dashboardGeneral]);
  await screen.findByTestId('kpi-devices');
  expect(within(card('kpi-locked')).queryByRole('link')).toBeNull();
  expect(within(card('kpi-devices')).queryByRole('link')).toBeNull();
  expect(screen.queryByRole('link', { name: L.stuck.deviceLink('356938035643809') })).toBeNull();
});

test("'Ver como tabla' shows the chart's numbers as a table, 'Ver como gráfica' goes back", async () => {
  stubRoutes({ 'GET /v5/dashboard/general': () => answer() });
  const { user } = renderPage();
  const panel = await screen.findByTestId('chart-by-status');
  const toTable = within(panel).getByRole('button', { name: C.showTable });
  const toChart = within(panel).getByRole('button', { name: C.showChart });
  expect([toChart.getAttribute('aria-pressed'), toTable.getAttribute('aria-pressed')]).toEqual(['true', 'false']);
  // The canvas names every value.
  const canvas = await within(panel).findByRole('img');
  expect(canvas.getAttribute('aria-label')).toBe('Dispositivos por estado: Activo 4,789, Liberado 4,321, Sin conexión 2,001, Bloqueado 1,234');
  // Horizontal bars, largest first, each in the colour of its status badge's family.
  expect([canvas.getAttribute('data-type'), canvas.getAttribute('data-index-axis')]).toEqual(['bar', 'y']);
  const drawn = JSON.parse(canvas.getAttribute('data-chart')!) as { labels: string[]; datasets: { data: number[]; backgroundColor: string[] }[] };
  expect(drawn.labels).toEqual(['Activo', 'Liberado', 'Sin conexión', 'Bloqueado']);
  expect(drawn.datasets[0]!.data).toEqual([4789, 4321, 2001, 1234]);
  expect(drawn.datasets[0]!.backgroundColor).toEqual(
    [DEVICE_STATUS.activo, DEVICE_STATUS.liberado, DEVICE_STATUS.sin_conexion, DEVICE_STATUS.bloqueado].map(statusColor),
  );

  await user.click(toTable);
  expect([toChart.getAttribute('aria-pressed'), toTable.getAttribute('aria-pressed')]).toEqual(['false', 'true']);
  const table = within(panel).getByTestId('chart-by-status-table');
  const rows = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );
  expect(rows).toEqual([
    ['Activo', '4,789'],
    ['Liberado', '4,321'],
    ['Sin conexión', '2,001'],
    ['Bloqueado', '1,234'],
  ]);
  expect(within(table).getByRole('link', { name: 'Bloqueado' }).getAttribute('href')).toBe(`${PATHS.devices}?status=${DEVICE_STATUS.bloqueado}`);
  expect(within(panel).queryByRole('img')).toBeNull();

  // Commands per day: a row per day, a column per action and the day's total.
  const commands = screen.getByTestId('chart-commands');
  await user.click(within(commands).getByRole('button', { name: C.showTable }));
  const commandTable = within(commands).getByTestId('chart-commands-table');
  expect(
    within(commandTable)
      .getAllByRole('columnheader')
      .map((h) => h.textContent),
  ).toEqual(['Día', 'Bloquear', 'Desbloquear', 'Total']);
  const last = within(commandTable).getAllByRole('row').at(-1)!;
  expect(
    within(last)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  ).toEqual(['30 oct 2026', '1,200', '5', '1,205']);

  // Groups: the devices without a group read 'Sin grupo' and open that filter.
  const groups = screen.getByTestId('chart-top-groups');
  await user.click(within(groups).getByRole('button', { name: C.showTable }));
  expect(within(groups).getByRole('link', { name: L.noGroup }).getAttribute('href')).toBe(`${PATHS.devices}?groupId=none`);
  expect(within(groups).getByRole('link', { name: 'Norte' }).getAttribute('href')).toBe(`${PATHS.devices}?groupId=4`);

  await user.click(toChart);
  expect(await within(panel).findByRole('img')).toBeTruthy();
});

test('the stuck-command board links each device to its detail and counts the rows it does not show', async () => {
  stubRoutes({ 'GET /v5/dashboard/general': () => answer() });
  renderPage();
  const board = await screen.findByTestId('stuck-commands');
  expect(within(board).getByTestId('stuck-commands-total').textContent).toBe('42');
  const link = within(board).getByRole('link', { name: L.stuck.deviceLink('356938035643809') });
  expect(link.getAttribute('href')).toBe(`${PATHS.devices}?device=901`);
  const row = within(board).getAllByRole('row')[1]!;
  const cells = within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);
  expect(cells[1]).toBe('Bloquear (Móvil)');
  expect(cells[2]).toMatch(/27 oct 2026/);
  expect(cells[3]).toBe(L.stuck.notDelivered);
  expect(cells[4]).toMatch(/26 oct 2026/);
  expect(within(board).getByTestId('stuck-commands-more').textContent).toBe(L.stuck.shownOf(1, 42));
});

test("no stuck command: 'Sin comandos detenidos'", async () => {
  stubRoutes({ 'GET /v5/dashboard/general': () => answer({ stuckCommands: { total: 0, rows: [] } }) });
  renderPage();
  expect((await screen.findByTestId('stuck-commands-empty')).textContent).toBe(L.stuck.empty);
  expect(screen.queryByTestId('stuck-commands-more')).toBeNull();
});

test('no device at all: the empty state points to the registration page when granted', async () => {
  const empty = answer({
    totals: {
      devices: 0,
      smartphones: 0,
      tvs: 0,
      preEnrolled: 0,
      locked: 0,
      offline: 0,
      inFlight: 0,
      pendingCommands: 0,
      released: 0,
      releasedThisMonth: 0,
    },
    byStatus: [],
    commandsPerDay: [],
    enrollmentsPerDay: [],
    topGroups: [],
    stuckCommands: { total: 0, rows: [] },
  });
  stubRoutes({ 'GET /v5/dashboard/general': () => empty });
  renderPage();
  const state = await screen.findByTestId('dashboard-empty');
  expect(within(state).getByRole('link', { name: C.addDevice }).getAttribute('href')).toBe(PATHS.addDevice);
  expect(screen.queryByTestId('kpi-devices')).toBeNull();
});

test('no device at all, registration not granted: the empty state without the link', async () => {
  const empty = answer({
    totals: {
      devices: 0,
      smartphones: 0,
      tvs: 0,
      preEnrolled: 0,
      locked: 0,
      offline: 0,
      inFlight: 0,
      pendingCommands: 0,
      released: 0,
      releasedThisMonth: 0,
    },
    byStatus: [],
    topGroups: [],
  });
  stubRoutes({ 'GET /v5/dashboard/general': () => empty });
  renderPage([PATHS.dashboardGeneral]);
  const state = await screen.findByTestId('dashboard-empty');
  expect(within(state).queryByRole('link')).toBeNull();
});

test('a failed load shows the error with Reintentar, which loads again', async () => {
  let fail = true;
  const calls = stubRoutes({
    'GET /v5/dashboard/general': () => {
      if (fail) throw apiError(500, { message: 'Error interno del servidor', code: 'INTERNAL' });
      return answer();
    },
  });
  const { user } = renderPage();
  const retry = await screen.findByRole('button', { name: DATA_TABLE_LABELS.retry });
  expect(screen.getByText(DATA_TABLE_LABELS.loadError)).toBeTruthy();
  fail = false;
  await user.click(retry);
  expect((await screen.findByTestId('kpi-devices-value')).textContent).toBe('12,345');
  expect(calls).toHaveLength(2);
});

test('the page re-reads its numbers every DASHBOARD_REFRESH_MS; pausing stops that, resuming starts it again', async () => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  let locked = 1234;
  const calls = stubRoutes({ 'GET /v5/dashboard/general': () => answer({ totals: { ...answer().totals, locked } }) });
  renderPage();
  await act(async () => {
    await jest.advanceTimersByTimeAsync(10);
  });
  await waitFor(() => expect(screen.getByTestId('kpi-locked-value').textContent).toBe('1,234'));
  expect(calls).toHaveLength(1);

  locked = 1300;
  await act(async () => {
    await jest.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS);
  });
  expect(calls).toHaveLength(2);
  await waitFor(() => expect(screen.getByTestId('kpi-locked-value').textContent).toBe('1,300'));

  fireEvent.click(screen.getByRole('button', { name: C.pause }));
  expect(screen.getByText(C.paused)).toBeTruthy();
  await act(async () => {
    await jest.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS * 3);
  });
  expect(calls).toHaveLength(2);

  fireEvent.click(screen.getByRole('button', { name: C.resume }));
  await act(async () => {
    await jest.advanceTimersByTimeAsync(DASHBOARD_REFRESH_MS);
  });
  expect(calls.length).toBeGreaterThanOrEqual(3);
});

const credits = {
  today: '2026-10-30',
  timeZone: 'America/Mexico_City',
  overdue: 1234,
  overdueBuckets: { '1-7': 700, '8-30': 400, '31+': 134 },
  amountOverdue: [
    { currency: 'MXN', amount: '1250000.50' },
    { currency: 'USD', amount: '80.00' },
  ],
  paymentsToday: { count: 56, amounts: [{ currency: 'MXN', amount: '45000.00' }] },
  automaticLocksToday: 12,
  automaticUnlocksToday: 9,
  unlockedAfterLock: { locked: 80, unlocked: 50 },
};
const K = L.credits;

test('the credit figures: each count opens the portfolio filtered the same way, the policy’s locks its audit log, the measure its definition', async () => {
  stubRoutes({ 'GET /v5/dashboard/general': () => answer({ credits }) });
  renderPage([...ALL, PATHS.creditPortfolio, PATHS.audit]);
  const section = await screen.findByTestId('dashboard-credits');
  expect(within(section).getByRole('heading', { name: K.title })).toBeTruthy();
  expect(section.textContent).toContain('Cifras al 30 oct 2026');
  const values = Object.fromEntries(
    ['overdue', 'amount-overdue', 'payments-today', 'auto-locks', 'auto-unlocks', 'unlocked-after-lock'].map((k) => [
      k,
      screen.getByTestId(`kpi-credits-${k}-value`).textContent,
    ]),
  );
  expect(values).toEqual({
    overdue: '1,234',
    'amount-overdue': '1,250,000.50 MXN · 80.00 USD',
    'payments-today': '56',
    'auto-locks': '12',
    'auto-unlocks': '9',
    'unlocked-after-lock': '63%',
  });
  expect(cardHref('kpi-credits-overdue')).toBe(`${PATHS.creditPortfolio}?state=overdue`);
  expect(cardHref('kpi-credits-amount-overdue')).toBe(`${PATHS.creditPortfolio}?state=overdue`);
  expect(cardHref('kpi-credits-payments-today')).toBe(`${PATHS.creditPortfolio}?paidToday=true`);
  expect(card('kpi-credits-payments-today').textContent).toContain('45,000.00 MXN');
  expect(cardHref('kpi-credits-auto-locks')).toBe(
    `${PATHS.audit}?actor=Pol%C3%ADtica+de+cobranza&entity=device&action=lock&from=2026-10-30&to=2026-10-30`,
  );
  expect(cardHref('kpi-credits-auto-unlocks')).toBe(
    `${PATHS.audit}?actor=Pol%C3%ADtica+de+cobranza&entity=device&action=unlock&from=2026-10-30&to=2026-10-30`,
  );
  // The measure says what it counts, in its card.
  const measure = card('kpi-credits-unlocked-after-lock');
  expect(within(measure).queryByRole('link')).toBeNull();
  expect(measure.textContent).toContain('Desbloqueados en 7 días');
  expect(measure.textContent).toContain('50 de 80');
  expect(measure.textContent).toContain(
    'De los dispositivos bloqueados Por Crédito en los últimos 30 días, los desbloqueados o liberados en los 7 días siguientes al bloqueo',
  );

  // The buckets: bars in the chart, each a link to the portfolio's bucket.
  const panel = screen.getByTestId('chart-overdue-buckets');
  const canvas = await within(panel).findByRole('img');
  expect(canvas.getAttribute('aria-label')).toBe('Créditos vencidos por días de atraso: 1 a 7 días 700, 8 a 30 días 400, 31 días o más 134');
  expect(within(panel).getByRole('link', { name: '31 días o más: 134' }).getAttribute('href')).toBe(`${PATHS.creditPortfolio}?overdue=31%2B`);
  expect(within(panel).getByRole('link', { name: '1 a 7 días: 700' }).getAttribute('href')).toBe(`${PATHS.creditPortfolio}?overdue=1-7`);
  expect(await seriousViolations()).toEqual([]);
});

test('without overdue credits or locks the credit figures say so; without the audit page the policy’s counts are not links', async () => {
  stubRoutes({
    'GET /v5/dashboard/general': () =>
      answer({
        credits: {
          ...credits,
          overdue: 0,
          overdueBuckets: { '1-7': 0, '8-30': 0, '31+': 0 },
          amountOverdue: [],
          paymentsToday: { count: 0, amounts: [] },
          unlockedAfterLock: { locked: 0, unlocked: 0 },
        },
      }),
  });
  renderPage([...ALL, PATHS.creditPortfolio]);
  await screen.findByTestId('dashboard-credits');
  expect(screen.getByTestId('kpi-credits-amount-overdue-value').textContent).toBe(K.noAmount);
  expect(screen.getByTestId('kpi-credits-unlocked-after-lock-value').textContent).toBe(K.noLocks);
  expect(within(card('kpi-credits-auto-locks')).queryByRole('link')).toBeNull();
  const panel = screen.getByTestId('chart-overdue-buckets');
  expect(panel.textContent).toContain(C.noChartData);
  expect(within(panel).queryByRole('img')).toBeNull();
});

test('an answer without the credits section (a role without the portfolio) shows no credit figures', async () => {
  stubRoutes({ 'GET /v5/dashboard/general': () => answer() });
  renderPage();
  await screen.findByTestId('kpi-devices');
  expect(screen.queryByTestId('dashboard-credits')).toBeNull();
  expect(screen.queryByText(K.overdue)).toBeNull();
});
