/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, waitFor, within } from '@testing-library/react';
import { defaultsOf, fieldsOf, sectionsOf, settingField } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { AGENT_SETTINGS_OVERVIEW_LABELS } from '../../../shared/constants/agentSettingsOverviewLabels';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import type { LockAppVersion, SettingsOverview } from '../../../shared/contracts/agentSettings';
import { apiError, renderPortal, seriousViolations, stubRoutes } from '../../testing/renderPortal';
import SettingsOverviewPage from './SettingsOverviewPage';
import { DATA_TABLE_LABELS } from '../../../shared/constants/labels';

const O = AGENT_SETTINGS_OVERVIEW_LABELS;
const label = (key: string) => settingField(key)!.label;
const at = '2026-03-05T14:05:00.000Z';

const VERSION: LockAppVersion = {
  id: 1,
  deviceType: 1,
  versionName: 'Macrolock 5.3',
  versionApp: '5.3.0',
  appType: 2,
  packageName: 'com.macrolock.agent',
  downloadUrl: 'https://descargas.example.com/agent.apk',
  sha256: 'ab'.repeat(32),
  releaseNotes: null,
  isCurrent: true,
  devices: 10,
  createdAt: at,
  createdBy: 'admin@demo.local',
};

function overviewOf(deviceType: DeviceTypeCode, over: Partial<SettingsOverview> = {}): SettingsOverview {
  const defaults = defaultsOf(deviceType);
  return {
    deviceType: deviceType as 1 | 2,
    sections: sectionsOf(deviceType).map((s) => ({
      section: s.key,
      version: 3,
      updatedAt: s.key === 'lock' ? at : null,
      updatedBy: s.key === 'lock' ? 'ana@demo.local' : null,
      values: Object.fromEntries(fieldsOf(deviceType, s.key).map((f) => [f.key, defaults[f.key]!])),
      overrides: s.key === 'lock' ? [{ groupId: 3, groupName: 'Norte', keys: ['disable_camera', 'offline_lock_enabled'] }] : [],
    })),
    lockApp: { current: VERSION, versions: 2, devices: 12, outdated: 2 },
    businessApps: deviceType === 1 ? { total: 4 } : null,
    ...over,
  };
}

function renderPage(path: typeof PATHS.agentSettings | typeof PATHS.agentSettingsTv, allowed: string[]) {
  renderPortal(<SettingsOverviewPage title="Configuración de agente" path={path} />, { url: path, allowed });
}

afterEach(() => jest.restoreAllMocks());

test('smartphones: a card per section with its global values, last change, overriding groups and link; lock app and business apps', async () => {
  stubRoutes({ 'GET /v5/agent-settings/smartphone/overview': () => overviewOf(1) });
  renderPage(PATHS.agentSettings, [PATHS.agentSettings, PATHS.restrictionsLock, PATHS.screenDesign, PATHS.appLock]);
  const lock = await screen.findByTestId('overview-lock');
  expect(within(lock).getByRole('heading', { name: 'Restricciones de bloqueo' })).toBeTruthy();
  const term = within(lock).getByText(label('disable_camera'));
  expect(term.nextElementSibling?.textContent).toBe('Sí');
  expect(within(lock).getByText(label('disable_sms')).nextElementSibling?.textContent).toBe('No');
  // Only what applies: the offline days hide while the offline lock is off.
  expect(within(lock).queryByText(label('offline_lock_days'))).toBeNull();
  expect(lock.textContent).toContain('ana@demo.local');
  expect(within(lock).getByRole('link', { name: 'Norte' }).getAttribute('href')).toBe(`${PATHS.restrictionsLock}?groupId=3`);
  expect(lock.textContent).toContain('2 valores');
  expect(
    within(lock)
      .getByRole('link', { name: O.openOf('Restricciones de bloqueo') })
      .getAttribute('href'),
  ).toBe(PATHS.restrictionsLock);

  // A page the profile does not grant: no link.
  const enrollment = screen.getByTestId('overview-enrollment');
  expect(within(enrollment).queryByRole('link')).toBeNull();
  expect(enrollment.textContent).toContain(O.neverChanged);
  expect(enrollment.textContent).toContain(AGENT_SETTINGS_LABELS.overrides.none);

  // Empty values read '-'.
  const design = screen.getByTestId('overview-screen');
  expect(within(design).getByText(label('contact_phone')).nextElementSibling?.textContent).toBe('-');
  expect(within(design).getByText(label('primary_color')).nextElementSibling?.textContent).toBe('#0b5ed7');

  const app = screen.getByTestId('overview-lock-app');
  expect(within(app).getByTestId('overview-current-version').textContent).toBe('Macrolock 5.3 (5.3.0)');
  expect(app.textContent).toContain('2 dispositivos');
  expect(
    within(app)
      .getByRole('link', { name: O.openOf(O.lockApp) })
      .getAttribute('href'),
  ).toBe(PATHS.appLock);
  const business = screen.getByTestId('overview-business-apps');
  expect(business.textContent).toContain('4');
  expect(within(business).queryByRole('link')).toBeNull();
});

test('TVs: no screen design and no business apps; no current version reads N/A', async () => {
  stubRoutes({ 'GET /v5/agent-settings/tv/overview': () => overviewOf(2, { lockApp: { current: null, versions: 0, devices: 0, outdated: 0 } }) });
  renderPage(PATHS.agentSettingsTv, [PATHS.agentSettingsTv]);
  const lock = await screen.findByTestId('overview-lock');
  expect(within(lock).getByText(label('disable_streaming'))).toBeTruthy();
  expect(within(lock).queryByText(label('disable_camera'))).toBeNull();
  expect(screen.queryByTestId('overview-screen')).toBeNull();
  expect(screen.queryByTestId('overview-business-apps')).toBeNull();
  expect(within(screen.getByTestId('overview-lock-app')).getByTestId('overview-current-version').textContent).toBe('N/A');
});

test('a failed load offers to retry', async () => {
  let fail = true;
  stubRoutes({
    'GET /v5/agent-settings/smartphone/overview': () => {
      if (fail) throw apiError(500, { message: 'Error interno del servidor', code: 'INTERNAL' });
      return overviewOf(1);
    },
  });
  renderPage(PATHS.agentSettings, [PATHS.agentSettings]);
  const retry = await screen.findByRole('button', { name: DATA_TABLE_LABELS.retry });
  expect(screen.getByText(AGENT_SETTINGS_LABELS.common.loadError)).toBeTruthy();
  fail = false;
  retry.click();
  await waitFor(() => expect(screen.getByTestId('overview-lock')).toBeTruthy());
});

test('axe: no serious violations on the overview', async () => {
  stubRoutes({ 'GET /v5/agent-settings/smartphone/overview': () => overviewOf(1) });
  renderPage(PATHS.agentSettings, [PATHS.agentSettings, PATHS.restrictionsLock, PATHS.appLock, PATHS.businessApp]);
  await screen.findByTestId('overview-lock');
  expect(await seriousViolations()).toEqual([]);
});
