/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, within } from '@testing-library/react';
import { DASHBOARD_LABELS } from '../../../shared/constants/dashboardLabels';
import { DEVICE_TYPE } from '../../../shared/constants/domain';
import { DATA_TABLE_LABELS } from '../../../shared/constants/labels';
import { PATHS } from '../../../shared/constants/routes';
import { androidDashboardResponse, type AndroidDashboard } from '../../../shared/contracts/dashboard';
import { apiError, renderPortal, seriousViolations, stubRoutes } from '../../testing/renderPortal';
import AndroidDashboardPage from './AndroidDashboardPage';
import { DASHBOARD_CHART } from './chartChunk';

// jsdom has no canvas: see GeneralDashboardPage.test.tsx.
jest.mock('react-chartjs-2', () => ({ Chart: jest.requireActual('./testing/chartStandIn').ChartStandIn }));

const L = DASHBOARD_LABELS.android;
const C = DASHBOARD_LABELS.common;
const ALL = [PATHS.dashboard, PATHS.dashboardAndroid, PATHS.devices, PATHS.addDevice];

function answer(over: Partial<AndroidDashboard> = {}): AndroidDashboard {
  return androidDashboardResponse.parse({
    generatedAt: '2026-10-30T18:04:05.000Z',
    osVersions: [
      { value: '14', smartphones: 1200, tvs: 0 },
      { value: '11', smartphones: 30, tvs: 2500 },
      { value: null, smartphones: 4, tvs: 1 },
    ],
    models: [
      { brand: 'Samsung', value: 'A15', smartphones: 1000, tvs: 0 },
      { brand: null, value: null, smartphones: 4, tvs: 1 },
    ],
    otherModels: { smartphones: 230, tvs: 2500 },
    agentVersions: {
      smartphone: {
        current: '5.3.0',
        currentCount: 1100,
        outdatedCount: 130,
        unknownCount: 4,
        rows: [
          { value: '5.3.0', count: 1100, current: true },
          { value: '5.2.0', count: 130, current: false },
          { value: null, count: 4, current: false },
        ],
      },
      tv: { current: null, currentCount: 0, outdatedCount: 2500, unknownCount: 1, rows: [{ value: '1.0.0', count: 2500, current: false }] },
    },
    carriers: [
      { value: 'Telcel', count: 1000 },
      { value: null, count: 234 },
    ],
    brands: [{ value: 'Samsung', smartphones: 1234, tvs: 2501 }],
    ...over,
  });
}

const renderPage = (allowed: string[] = ALL) =>
  renderPortal(<AndroidDashboardPage title="Android" path={PATHS.dashboardAndroid} />, { url: PATHS.dashboardAndroid, allowed });

beforeAll(() => DASHBOARD_CHART.load());
afterEach(() => jest.restoreAllMocks());

const tableRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

test("agent versions: current, outdated and unknown per type, each linking to those devices; null reads 'Sin dato'", async () => {
  stubRoutes({ 'GET /v5/dashboard/android': () => answer() });
  renderPage();
  const phones = await screen.findByTestId(`agent-versions-${DEVICE_TYPE.SMARTPHONE}`);
  expect(within(phones).getByRole('heading').textContent).toBe(L.agentVersions('Móvil'));
  expect(within(phones).getByTestId(`agent-versions-1-current-version`).textContent).toBe('5.3.0');
  const current = within(phones).getByRole('link', { name: `${L.onCurrent}: 1,100` });
  expect(current.getAttribute('href')).toBe(`${PATHS.devices}?deviceType=1&agentVersion=5.3.0`);
  const outdated = within(phones).getByRole('link', { name: `${L.outdated}: 130` });
  expect(outdated.getAttribute('href')).toBe(`${PATHS.devices}?deviceType=1&agentVersionNot=5.3.0`);
  expect(within(phones).getByTestId('agent-versions-1-unknown').textContent).toBe('4');
  expect(
    within(phones)
      .getByRole('link', { name: L.versionLink('5.2.0') })
      .getAttribute('href'),
  ).toBe(`${PATHS.devices}?deviceType=1&agentVersion=5.2.0`);
  expect(tableRows(within(phones).getByRole('table'))).toEqual([
    [`5.3.0${L.currentMark}`, '1,100'],
    ['5.2.0', '130'],
    [C.noData, '4'],
  ]);

  // No current version marked for TVs: said so, and no current/outdated links.
  const tvs = screen.getByTestId(`agent-versions-${DEVICE_TYPE.TV}`);
  expect(within(tvs).getByTestId('agent-versions-2-current-version').textContent).toBe(L.noCurrent);
  expect(within(tvs).getByTestId('agent-versions-2-outdated').textContent).toBe('2,500');
  expect(within(tvs).queryByRole('link', { name: `${L.outdated}: 2,500` })).toBeNull();
  expect(await seriousViolations()).toEqual([]);
});

test("models: the top ones plus 'Otros'; OS versions, carriers and brands as tables with 'Sin dato' for null", async () => {
  stubRoutes({ 'GET /v5/dashboard/android': () => answer() });
  const { user } = renderPage();
  const models = await screen.findByTestId('chart-models');
  const canvas = within(models).getByRole('img');
  expect(canvas.getAttribute('aria-label')).toBe(`${L.models(15)}: Samsung A15 1,000, Sin dato 5, Otros 2,730`);
  await user.click(within(models).getByRole('button', { name: C.showTable }));
  expect(tableRows(within(models).getByRole('table'))).toEqual([
    ['Samsung A15', '1,000', '0', '1,000'],
    [C.noData, '4', '1', '5'],
    [C.others, '230', '2,500', '2,730'],
  ]);

  const os = screen.getByTestId('chart-os-versions');
  await user.click(within(os).getByRole('button', { name: C.showTable }));
  expect(tableRows(within(os).getByRole('table'))).toEqual([
    ['14', '1,200', '0', '1,200'],
    ['11', '30', '2,500', '2,530'],
    [C.noData, '4', '1', '5'],
  ]);

  const carriers = screen.getByTestId('chart-carriers');
  await user.click(within(carriers).getByRole('button', { name: C.showTable }));
  expect(tableRows(within(carriers).getByRole('table'))).toEqual([
    ['Telcel', '1,000'],
    [C.noData, '234'],
  ]);

  const brands = screen.getByTestId('chart-brands');
  expect(JSON.parse(within(brands).getByRole('img').getAttribute('data-chart')!)).toMatchObject({
    labels: ['Samsung'],
    datasets: [
      { label: C.smartphones, data: [1234] },
      { label: C.tvs, data: [2501] },
    ],
  });
});

test('no device past pre-enrolment: the empty state', async () => {
  stubRoutes({
    'GET /v5/dashboard/android': () =>
      answer({
        osVersions: [],
        models: [],
        otherModels: { smartphones: 0, tvs: 0 },
        carriers: [],
        brands: [],
        agentVersions: {
          smartphone: { current: null, currentCount: 0, outdatedCount: 0, unknownCount: 0, rows: [] },
          tv: { current: null, currentCount: 0, outdatedCount: 0, unknownCount: 0, rows: [] },
        },
      }),
  });
  renderPage();
  const state = await screen.findByTestId('dashboard-empty');
  expect(within(state).getByRole('link', { name: C.addDevice }).getAttribute('href')).toBe(PATHS.addDevice);
});

test('a failed load offers Reintentar', async () => {
  let fail = true;
  stubRoutes({
    'GET /v5/dashboard/android': () => {
      if (fail) throw apiError(500, { message: 'Error interno del servidor', code: 'INTERNAL' });
      return answer();
    },
  });
  const { user } = renderPage();
  const retry = await screen.findByRole('button', { name: DATA_TABLE_LABELS.retry });
  fail = false;
  await user.click(retry);
  expect(await screen.findByTestId('chart-models')).toBeTruthy();
});
