/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { defaultsOf, fieldsOf, settingField, type SettingsSectionKey, type SettingsValues } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { UNSAVED_CHANGES_LABELS } from '../../../shared/constants/labels';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import type { SettingsChange, SettingsOverride, SettingsSectionAnswer } from '../../../shared/contracts/agentSettings';
import { AGENT_SETTINGS_MESSAGES as M } from '../../../shared/areaMessages/agentSettings';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, loadDialogs, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import SettingsSectionPage from './SettingsSectionPage';

beforeAll(loadDialogs);

const F = AGENT_SETTINGS_LABELS.form;
const at = '2026-03-05T14:05:00.000Z';
const label = (key: string) => settingField(key)!.label;

/** A section's answer as the server gives it: the defaults, then `values`; a group's `values` over them. */
function answerOf(
  deviceType: DeviceTypeCode,
  section: SettingsSectionKey,
  opts: {
    groupId?: number;
    values?: SettingsValues;
    global?: SettingsValues;
    version?: number | null;
    history?: SettingsChange[];
    overrides?: SettingsOverride[];
  } = {},
): SettingsSectionAnswer {
  const keys = fieldsOf(deviceType, section).map((f) => f.key);
  const pick = (v: SettingsValues) => Object.fromEntries(keys.map((k) => [k, v[k]!]));
  const globalValues = pick({ ...defaultsOf(deviceType), ...opts.global });
  const own = opts.groupId === undefined ? {} : (opts.values ?? {});
  return {
    deviceType: deviceType as 1 | 2,
    section,
    groupId: opts.groupId ?? null,
    version: opts.version === undefined ? 4 : opts.version,
    updatedAt: at,
    updatedBy: 'admin@demo.local',
    values: opts.groupId === undefined ? pick({ ...globalValues, ...opts.values }) : { ...globalValues, ...own },
    globalValues,
    overridden: Object.keys(own),
    overrides: opts.overrides ?? [],
    history: opts.history ?? [],
  };
}

const GROUPS = {
  'GET /v5/groups': () => ({
    data: [
      { id: 3, name: 'Norte', description: null, deviceCount: 2, createdAt: at, updatedAt: at },
      { id: 5, name: 'Sur', description: null, deviceCount: 0, createdAt: at, updatedAt: at },
    ],
    total: 2,
  }),
};

let search = '';
function LocationProbe() {
  search = useLocation().search;
  return null;
}

function renderPage(path: string, url: string = path) {
  return renderPortal(
    <>
      <Routes>
        <Route
          path={path}
          element={
            <>
              <SettingsSectionPage title="Página" path={path as never} />
              <LocationProbe />
            </>
          }
        />
        <Route path="*" element={<p>Otra página</p>} />
      </Routes>
      <PortalToastContainer />
    </>,
    { url, allowed: [path] },
  ).user;
}

const puts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'PUT');
const form = () => screen.findByTestId('settings-form');

afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

describe('one input per kind', () => {
  test('the lock page: switches with their help, a select, numbers with their unit and times shown by their `when`', async () => {
    stubRoutes({ ...GROUPS, 'GET /v5/agent-settings/smartphone/restrictions-lock': () => answerOf(1, 'lock') });
    const user = renderPage(PATHS.restrictionsLock);
    const f = await form();
    // Blocks as headings (fieldset legends).
    for (const block of ['Bloqueo', 'Mientras está bloqueado', 'Bloqueo automático', 'Sin conexión', 'Recordatorio de pago'])
      expect(within(f).getByRole('group', { name: block })).toBeTruthy();
    const camera = within(f).getByRole('switch', { name: label('disable_camera') }) as HTMLInputElement;
    expect(camera.checked).toBe(true);
    expect(document.getElementById(camera.getAttribute('aria-describedby')!)?.textContent).toBe(settingField('disable_camera')!.help);
    expect((within(f).getByRole('combobox', { name: label('default_lock_type') }) as HTMLSelectElement).value).toBe('PorCredito');
    // TV-only flags are not phone settings.
    expect(within(f).queryByRole('switch', { name: label('disable_streaming') })).toBeNull();

    // offline_lock_days shows only while offline_lock_enabled.
    expect(within(f).queryByRole('spinbutton', { name: label('offline_lock_days') })).toBeNull();
    await user.click(within(f).getByRole('switch', { name: label('offline_lock_enabled') }));
    const days = within(f).getByRole('spinbutton', { name: label('offline_lock_days') }) as HTMLInputElement;
    expect(days.value).toBe('15');
    expect(within(screen.getByTestId('setting-offline_lock_days')).getByText('días')).toBeTruthy();

    await user.click(within(f).getByRole('switch', { name: label('payment_reminder_enabled') }));
    const start = screen.getByTestId('setting-quiet_hours_start').querySelector('input')!;
    expect(start.type).toBe('time');
    expect(start.value).toBe('21:00');
  });

  test('the TV lock page shows the TV flags and none of the phone ones', async () => {
    stubRoutes({ ...GROUPS, 'GET /v5/agent-settings/tv/restrictions-lock': () => answerOf(2, 'lock') });
    renderPage(PATHS.restrictionsLockTv);
    const f = await form();
    for (const key of ['disable_tv_hospitality_mode', 'disable_media_player', 'disable_streaming'])
      expect(within(f).getByRole('switch', { name: label(key) })).toBeTruthy();
    for (const key of ['disable_camera', 'disable_sms', 'lock_sim_change', 'disable_incoming_calls'])
      expect(within(f).queryByRole('switch', { name: label(key) })).toBeNull();
  });

  test('the enrollment notice: a text area with its live counter, or the https link, by the choice', async () => {
    stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-enrollment': () => answerOf(1, 'enrollment', { values: { enrollment_notice_text: 'Hola' } }),
    });
    const user = renderPage(PATHS.restrictionsEnrollment);
    const f = await form();
    const text = within(f).getByRole('textbox', { name: label('enrollment_notice_text') });
    expect(text.tagName).toBe('TEXTAREA');
    const counter = within(screen.getByTestId('setting-enrollment_notice_text')).getByText('4/2,000');
    await user.type(text, ' mundo');
    expect(counter.textContent).toBe('10/2,000');
    expect(within(f).queryByRole('textbox', { name: label('enrollment_notice_url') })).toBeNull();
    await user.selectOptions(within(f).getByRole('combobox', { name: label('enrollment_notice') }), 'url');
    expect(within(f).queryByRole('textbox', { name: label('enrollment_notice_text') })).toBeNull();
    expect((within(f).getByRole('textbox', { name: label('enrollment_notice_url') }) as HTMLInputElement).type).toBe('url');
  });
});

describe('the global scope', () => {
  test('saves every value of the section with the loaded version, toasts, and the form is clean again', async () => {
    let saved = answerOf(1, 'lock');
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': () => saved,
      'PUT /v5/agent-settings/smartphone/restrictions-lock': (c) =>
        (saved = answerOf(1, 'lock', { version: 5, values: (c.data as { values: SettingsValues }).values })),
    });
    const user = renderPage(PATHS.restrictionsLock);
    const f = await form();
    await user.click(within(f).getByRole('switch', { name: label('disable_sms') }));
    await user.click(within(f).getByRole('switch', { name: label('offline_lock_enabled') }));
    const days = within(f).getByRole('spinbutton', { name: label('offline_lock_days') });
    await user.clear(days);
    await user.type(days, '30');
    await user.click(within(f).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(F.saved)).toBeTruthy();
    const put = puts(calls)[0]!;
    expect(put.params).toEqual({});
    const body = put.data as { version: number; values: SettingsValues };
    expect(body.version).toBe(4);
    expect(Object.keys(body.values).sort()).toEqual(
      fieldsOf(1, 'lock')
        .map((x) => x.key)
        .sort(),
    );
    expect(body.values).toMatchObject({ disable_sms: true, offline_lock_enabled: true, offline_lock_days: 30, quiet_hours_start: '21:00' });
    // The saved answer is the page's now: 'Cancelar' has nothing to undo.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Cancelar' }) as HTMLButtonElement).disabled).toBe(true));
    expect((screen.getByRole('switch', { name: label('disable_sms') }) as HTMLInputElement).checked).toBe(true);
  });

  test("the contract's messages under the fields, no save; a server 400 lands under its field", async () => {
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': () => answerOf(1, 'lock', { values: { offline_lock_enabled: true } }),
      'PUT /v5/agent-settings/smartphone/restrictions-lock': () => {
        throw apiError(400, { message: 'El campo Días sin conexión no es válido (servidor)', code: 'VALIDATION', field: 'values.offline_lock_days' });
      },
    });
    const user = renderPage(PATHS.restrictionsLock);
    const f = await form();
    const days = within(f).getByRole('spinbutton', { name: label('offline_lock_days') });
    await user.clear(days);
    await user.type(days, '500');
    await user.click(within(f).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(days.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(
      M.field.integer(label('offline_lock_days'), 3, 200),
    );
    // Across fields: the warning must come before the lock.
    await user.clear(days);
    await user.type(days, '3');
    await user.click(within(f).getByRole('button', { name: 'Guardar' }));
    const warning = within(f).getByRole('spinbutton', { name: label('offline_warning_days') });
    await waitFor(() => expect(warning.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByTestId('setting-offline_warning_days').textContent).toContain('debe ser menor que Días sin conexión (3)');
    expect(puts(calls)).toHaveLength(0);

    await user.clear(days);
    await user.type(days, '20');
    await user.click(within(f).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.getByTestId('setting-offline_lock_days').textContent).toContain('no es válido (servidor)'));
    expect(puts(calls)).toHaveLength(1);
  });

  test("'Cancelar' returns to the loaded values", async () => {
    stubRoutes({ ...GROUPS, 'GET /v5/agent-settings/smartphone/restrictions-release': () => answerOf(1, 'release') });
    const user = renderPage(PATHS.restrictionsRelease);
    const f = await form();
    const sw = within(f).getByRole('switch', { name: label('release_uninstall_agent') }) as HTMLInputElement;
    await user.click(sw);
    expect(sw.checked).toBe(false);
    await user.click(within(f).getByRole('button', { name: 'Cancelar' }));
    expect(sw.checked).toBe(true);
  });

  test("a 409 conflict shows its message with 'Recargar', which loads the latest version into the form", async () => {
    let version = 4;
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-release': () =>
        answerOf(1, 'release', { version, values: version > 4 ? { release_uninstall_agent: false } : {} }),
      'PUT /v5/agent-settings/smartphone/restrictions-release': () => {
        version = 5;
        throw apiError(409, { message: M.settings.conflict, code: 'SETTINGS_VERSION_CONFLICT', field: 'version' });
      },
    });
    const user = renderPage(PATHS.restrictionsRelease);
    const f = await form();
    await user.type(within(f).getByRole('textbox', { name: label('release_message') }), ' Gracias');
    await user.click(within(f).getByRole('button', { name: 'Guardar' }));
    const conflict = await screen.findByTestId('settings-conflict');
    expect(conflict.textContent).toContain(M.settings.conflict);
    // The page refetches after the failed save: the edit and the message stay until 'Recargar'.
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.url.endsWith('restrictions-release'))).toHaveLength(2));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.getByTestId('settings-conflict')).toBe(conflict);
    expect((screen.getByRole('textbox', { name: label('release_message') }) as HTMLTextAreaElement).value).toContain('Gracias');
    await user.click(within(conflict).getByRole('button', { name: F.reload }));
    await waitFor(() => expect(screen.queryByTestId('settings-conflict')).toBeNull());
    expect((screen.getByRole('switch', { name: label('release_uninstall_agent') }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('textbox', { name: label('release_message') }) as HTMLTextAreaElement).value).not.toContain('Gracias');
    expect(calls.filter((c) => c.method === 'GET' && c.url.endsWith('restrictions-release'))).toHaveLength(3);
  });

  test('the history: version, date, who, and each change in words', async () => {
    stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': () =>
        answerOf(1, 'lock', {
          history: [
            {
              version: 4,
              changedAt: at,
              changedBy: 'ana@demo.local',
              changes: [
                { key: 'disable_sms', before: false, after: true },
                { key: 'offline_lock_days', after: 30 },
                { key: 'default_lock_type', before: 'PorCredito', after: 'SinKiosko' },
              ],
            },
          ],
        }),
    });
    const user = renderPage(PATHS.restrictionsLock);
    const history = await screen.findByTestId('settings-history');
    const toggle = within(history).getByRole('button', { name: /Historial de cambios/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const entry = within(history).getByTestId('history-4');
    expect(entry.textContent).toContain('Versión 4');
    expect(entry.textContent).toContain('ana@demo.local');
    expect(entry.textContent).toContain('2026');
    const items = within(entry)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      `${label('disable_sms')}: No → Sí`,
      `${label('offline_lock_days')}: Predeterminado (15 días) → 30 días`,
      expect.stringMatching(new RegExp(`^${label('default_lock_type')}: .+ → .+$`)),
    ]);
  });
});

describe('a group scope', () => {
  const NORTE = { groupId: 3, groupName: 'Norte', keys: ['disable_camera'] };

  test('inherited and overridden values; editing overrides, "Usar valor global" inherits again; the save sends the own keys', async () => {
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': (c) =>
        c.params.groupId === 3
          ? answerOf(1, 'lock', { groupId: 3, values: { disable_camera: false }, overrides: [NORTE] })
          : answerOf(1, 'lock', { overrides: [NORTE] }),
      'PUT /v5/agent-settings/smartphone/restrictions-lock': (c) =>
        answerOf(1, 'lock', { groupId: 3, version: 7, values: (c.data as { values: SettingsValues }).values, overrides: [NORTE] }),
    });
    const user = renderPage(PATHS.restrictionsLock, `${PATHS.restrictionsLock}?groupId=3`);
    const f = await form();
    expect((screen.getByRole('combobox', { name: AGENT_SETTINGS_LABELS.scope.label }) as HTMLSelectElement).value).toBe('3');
    expect(screen.getByTestId('scope-state-disable_camera').textContent).toContain(F.overridden);
    expect(screen.getByTestId('scope-state-disable_camera').textContent).toContain('Valor global: Sí');
    expect(screen.getByTestId('scope-state-disable_sms').textContent).toContain(F.inherited);

    await user.click(within(f).getByRole('switch', { name: label('disable_sms') }));
    expect(screen.getByTestId('scope-state-disable_sms').textContent).toContain(F.overridden);
    await user.click(within(f).getByRole('button', { name: F.backToGlobalOf(label('disable_camera')) }));
    expect(screen.getByTestId('scope-state-disable_camera').textContent).toContain(F.inherited);
    expect((within(f).getByRole('switch', { name: label('disable_camera') }) as HTMLInputElement).checked).toBe(true);

    await user.click(within(f).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(F.saved)).toBeTruthy();
    const put = puts(calls)[0]!;
    expect(put.params).toEqual({ groupId: 3 });
    expect(put.data).toEqual({ version: 4, values: { disable_sms: true } });
  });

  test("'Quitar personalización del grupo' asks, then saves no value for the group", async () => {
    let saved = answerOf(1, 'lock', { groupId: 3, values: { disable_camera: false }, overrides: [NORTE] });
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': () => saved,
      'PUT /v5/agent-settings/smartphone/restrictions-lock': () => (saved = answerOf(1, 'lock', { groupId: 3, version: 8 })),
    });
    const user = renderPage(PATHS.restrictionsLock, `${PATHS.restrictionsLock}?groupId=3`);
    await form();
    await user.click(screen.getByRole('button', { name: F.removeOverride }));
    const dialog = await screen.findByRole('dialog', { name: F.removeOverrideTitle });
    expect(dialog.textContent).toContain('Norte');
    expect(puts(calls)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: F.removeOverrideConfirm }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.data).toEqual({ version: 4, values: {} });
    expect(await screen.findByText(F.overrideRemoved('Norte'))).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('scope-state-disable_camera').textContent).toContain(F.inherited));
    expect(screen.queryByRole('button', { name: F.removeOverride })).toBeNull();
  });

  test('the groups that override the section link to their scope; a group that does not exist offers Global', async () => {
    stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': (c) => {
        if (c.params.groupId === 99) throw apiError(404, { message: M.settings.groupNotFound, code: 'GROUP_NOT_FOUND', field: 'groupId' });
        return answerOf(1, 'lock', { overrides: [NORTE] });
      },
    });
    const user = renderPage(PATHS.restrictionsLock, `${PATHS.restrictionsLock}?groupId=99`);
    await user.click(await screen.findByRole('button', { name: AGENT_SETTINGS_LABELS.scope.backToGlobal }));
    await waitFor(() => expect(search).toBe(''));
    const overrides = await screen.findByTestId('settings-overrides');
    expect(within(overrides).getByRole('link', { name: 'Norte' }).getAttribute('href')).toBe(`${PATHS.restrictionsLock}?groupId=3`);
    expect(overrides.textContent).toContain('1 valor');
    expect(overrides.textContent).toContain(label('disable_camera'));
  });
});

describe('unsaved changes', () => {
  test('changing the scope or following a link with unsaved changes asks first', async () => {
    stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': (c) => answerOf(1, 'lock', c.params.groupId ? { groupId: 5 } : {}),
    });
    const user = renderPage(PATHS.restrictionsLock);
    const f = await form();
    const scope = screen.getByRole('combobox', { name: AGENT_SETTINGS_LABELS.scope.label });
    // Clean: the scope changes at once.
    await user.selectOptions(scope, 'Sur');
    await waitFor(() => expect(search).toBe('?groupId=5'));
    await user.selectOptions(scope, 'Global');
    await waitFor(() => expect(search).toBe(''));

    await user.click(within(await form()).getByRole('switch', { name: label('disable_sms') }));
    await user.selectOptions(scope, 'Sur');
    const dialog = await screen.findByRole('dialog', { name: UNSAVED_CHANGES_LABELS.title });
    expect(dialog.textContent).toContain(UNSAVED_CHANGES_LABELS.question);
    await user.click(within(dialog).getByRole('button', { name: UNSAVED_CHANGES_LABELS.stay }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(search).toBe('');
    expect((scope as HTMLSelectElement).value).toBe('');
    expect((screen.getByRole('switch', { name: label('disable_sms') }) as HTMLInputElement).checked).toBe(true);

    await user.selectOptions(scope, 'Sur');
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: UNSAVED_CHANGES_LABELS.leave }));
    await waitFor(() => expect(search).toBe('?groupId=5'));
    void f;
  });

  test('axe: no serious violations on the global and group forms and the dialogs', async () => {
    stubRoutes({
      ...GROUPS,
      'GET /v5/agent-settings/smartphone/restrictions-lock': (c) =>
        c.params.groupId
          ? answerOf(1, 'lock', { groupId: 3, values: { disable_camera: false, payment_reminder_enabled: true } })
          : answerOf(1, 'lock'),
    });
    const user = renderPage(PATHS.restrictionsLock, `${PATHS.restrictionsLock}?groupId=3`);
    await form();
    expect(await seriousViolations()).toEqual([]);
    await user.click(screen.getByRole('button', { name: F.removeOverride }));
    await screen.findByRole('dialog', { name: F.removeOverrideTitle });
    expect(await seriousViolations()).toEqual([]);
  });
});
