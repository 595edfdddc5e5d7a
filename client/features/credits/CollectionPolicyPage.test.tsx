/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { CREDIT_MESSAGES as M } from '../../../shared/areaMessages/credit';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { COLLECTION_POLICY_LABELS } from '../../../shared/constants/collectionPolicyLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { PATHS } from '../../../shared/constants/routes';
import type { CollectionPolicyAnswer, CollectionPolicyValues } from '../../../shared/contracts/credits';
import { DEFAULT_COLLECTION_POLICY, POLICY_KEYS, type CollectionPolicySettings } from '../../../shared/credits/policySettings';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, renderPortal, seriousViolations, stubRoutes, type ApiCall } from '../../testing/renderPortal';
import CollectionPolicyPage from './CollectionPolicyPage';

const P = COLLECTION_POLICY_LABELS;
const CP = FIELD_LABELS.collectionPolicy;
const F = AGENT_SETTINGS_LABELS.form;
const at = '2026-03-05T14:05:00.000Z';
const PATH = PATHS.collectionPolicy;

/** The policy's answer as the server gives it: the defaults under the global values, a group's own over them. */
function answerOf(
  opts: {
    groupId?: number;
    global?: Partial<CollectionPolicySettings>;
    own?: Partial<CollectionPolicySettings>;
    version?: number | null;
    history?: CollectionPolicyAnswer['history'];
    overrides?: CollectionPolicyAnswer['overrides'];
  } = {},
): CollectionPolicyAnswer {
  const globalValues = { ...DEFAULT_COLLECTION_POLICY, ...opts.global };
  const own = opts.groupId === undefined ? {} : (opts.own ?? {});
  return {
    groupId: opts.groupId ?? null,
    groupName: opts.groupId === undefined ? null : 'Norte',
    version: opts.version === undefined ? 4 : opts.version,
    values: { ...globalValues, ...own },
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

function renderPage(url: string = PATH) {
  return renderPortal(
    <>
      <Routes>
        <Route path={PATH} element={<CollectionPolicyPage title="Política de cobranza" path={PATH} />} />
        <Route path="*" element={<p>Otra página</p>} />
      </Routes>
      <PortalToastContainer />
    </>,
    { url, allowed: [PATH] },
  ).user;
}

const puts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'PUT');
const form = () => screen.findByTestId('settings-form');
const block = (key: string) => screen.getByTestId(`policy-${key}`);
const inBlock = (key: string, role: string, name: string) => within(block(key)).getByRole(role, { name }) as HTMLInputElement;

afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

describe('the global policy', () => {
  test('every key of the policy with its Spanish label and the loaded values', async () => {
    stubRoutes({ ...GROUPS, 'GET /v5/collection-policy': () => answerOf({ global: { holidays: ['2026-12-24'] } }) });
    renderPage();
    const f = await form();
    for (const key of POLICY_KEYS) expect(within(f).getByRole('group', { name: CP[key] })).toBeTruthy();
    const reminders = within(block('reminders')).getAllByRole('spinbutton', { name: CP.offsetDays }) as HTMLInputElement[];
    expect(reminders.map((r) => r.value)).toEqual(['-3', '0']);
    const second = within(block('reminders')).getByRole('group', { name: P.reminder(2) });
    expect((within(second).getByRole('switch', { name: CP.barcode }) as HTMLInputElement).checked).toBe(true);
    expect((within(second).getByRole('textbox', { name: CP.reminderMessage }) as HTMLTextAreaElement).value).toContain('{referencia}');
    const kinds = within(block('ladder')).getAllByRole('combobox', { name: CP.kind }) as HTMLSelectElement[];
    expect(kinds.map((k) => k.value)).toEqual(['notification', 'persistent_notification', 'restrictions']);
    expect(inBlock('lock', 'spinbutton', CP.lockDays).value).toBe('7');
    expect(inBlock('lock', 'switch', CP.lockEnabled).checked).toBe(true);
    expect((within(block('hours')).getByLabelText(CP.hoursFrom) as HTMLInputElement).value).toBe('08:00');
    expect(inBlock('nonWorkingWeekdays', 'checkbox', 'Domingo').checked).toBe(true);
    expect(inBlock('nonWorkingWeekdays', 'checkbox', 'Sábado').checked).toBe(false);
    expect(inBlock('mexicanHolidays', 'switch', CP.mexicanHolidays).checked).toBe(true);
    expect(inBlock('holidays', 'textbox', CP.holidays).value).toBe('2026-12-24');
    expect(inBlock('shiftDueDates', 'switch', CP.shiftDueDates).checked).toBe(false);
    expect(inBlock('unlockThresholdCents', 'textbox', CP.unlockThresholdCents).value).toBe('0.00');
    expect((inBlock('release', 'combobox', CP.release) as unknown as HTMLSelectElement).value).toBe('approval');
    expect(inBlock('manualUnlockHoldHours', 'spinbutton', CP.manualUnlockHoldHours).value).toBe('24');
  });

  test('saves every key with the loaded version: a new reminder, a removed rung, the lock day, a weekday, the holidays', async () => {
    let saved = answerOf();
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/collection-policy': () => saved,
      'PUT /v5/collection-policy': (c) => (saved = answerOf({ version: 5, global: (c.data as { values: CollectionPolicySettings }).values })),
    });
    const user = renderPage();
    await form();
    await user.click(within(block('reminders')).getByRole('button', { name: P.addReminder }));
    const third = within(block('reminders')).getByRole('group', { name: P.reminder(3) });
    const offset = within(third).getByRole('spinbutton', { name: CP.offsetDays });
    await user.clear(offset);
    await user.type(offset, '2');
    await user.type(within(third).getByRole('textbox', { name: CP.reminderMessage }), 'Hola {{nombre}');
    await user.click(within(block('ladder')).getByRole('button', { name: P.removeRung(3) }));
    const days = inBlock('lock', 'spinbutton', CP.lockDays);
    await user.clear(days);
    await user.type(days, '10');
    await user.click(inBlock('nonWorkingWeekdays', 'checkbox', 'Sábado'));
    await user.type(inBlock('holidays', 'textbox', CP.holidays), '2026-12-24{enter}2026-12-31');
    await user.selectOptions(inBlock('release', 'combobox', CP.release), 'automatic');
    const threshold = inBlock('unlockThresholdCents', 'textbox', CP.unlockThresholdCents);
    await user.clear(threshold);
    await user.type(threshold, '500.50');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(P.saved)).toBeTruthy();

    const put = puts(calls)[0]!;
    expect(put.params).toEqual({});
    const body = put.data as { version: number; values: CollectionPolicyValues };
    expect(body.version).toBe(4);
    expect(Object.keys(body.values).sort()).toEqual([...POLICY_KEYS].sort());
    expect(body.values.reminders).toEqual([...DEFAULT_COLLECTION_POLICY.reminders, { offsetDays: 2, message: 'Hola {nombre}', barcode: false }]);
    expect(body.values.ladder).toEqual(DEFAULT_COLLECTION_POLICY.ladder.slice(0, 2));
    expect(body.values).toMatchObject({
      lock: { enabled: true, daysOverdue: 10 },
      nonWorkingWeekdays: [0, 6],
      holidays: ['2026-12-24', '2026-12-31'],
      release: 'automatic',
      unlockThresholdCents: 50050,
      manualUnlockHoldHours: 24,
    });
    // The saved answer is the page's now: 'Cancelar' has nothing to undo.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Cancelar' }) as HTMLButtonElement).disabled).toBe(true));
  });

  test("the contract's messages under the fields name them, no save; a server 400 lands under its field", async () => {
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/collection-policy': () => answerOf(),
      'PUT /v5/collection-policy': () => {
        throw apiError(400, {
          message: 'El campo Días de atraso del escalón no es válido (servidor)',
          code: 'VALIDATION',
          field: 'values.ladder.1.daysOverdue',
        });
      },
    });
    const user = renderPage();
    await form();
    const days = inBlock('lock', 'spinbutton', CP.lockDays);
    await user.clear(days);
    await user.type(days, '400');
    const to = within(block('hours')).getByLabelText(CP.hoursTo) as HTMLInputElement;
    await user.clear(to);
    await user.type(to, '07:00');
    await user.type(inBlock('holidays', 'textbox', CP.holidays), '2026-02-30');
    const threshold = inBlock('unlockThresholdCents', 'textbox', CP.unlockThresholdCents);
    await user.clear(threshold);
    await user.type(threshold, '1,250');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'));
    expect(threshold.getAttribute('aria-invalid')).toBe('true');
    expect(block('unlockThresholdCents').textContent).toContain(M.field.threshold(CP.unlockThresholdCents));
    expect(block('lock').textContent).toContain(M.field.integer(CP.lockDays, 1, 365));
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(block('hours').textContent).toContain(M.field.hoursOrder(CP.hoursFrom, CP.hoursTo));
    expect(block('holidays').textContent).toContain(M.field.calendarDate(CP.holidays));
    expect(puts(calls)).toHaveLength(0);

    // Across keys, as the API checks it: a rung on or after the lock's day (rungs at 1, 3 and 5).
    await user.clear(to);
    await user.type(to, '20:00');
    await user.clear(inBlock('holidays', 'textbox', CP.holidays));
    await user.clear(threshold);
    await user.type(threshold, '0');
    await user.clear(days);
    await user.type(days, '4');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const third = within(block('ladder')).getByRole('group', { name: P.rung(3) });
    await waitFor(() => expect(third.textContent).toContain(M.field.integer(CP.daysOverdue, 1, 3)));
    expect(within(third).getByRole('spinbutton', { name: CP.daysOverdue }).getAttribute('aria-invalid')).toBe('true');
    expect(puts(calls)).toHaveLength(0);

    await user.clear(days);
    await user.type(days, '7');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const rung = within(block('ladder')).getByRole('group', { name: P.rung(2) });
    await waitFor(() => expect(rung.textContent).toContain('no es válido (servidor)'));
    expect(within(rung).getByRole('spinbutton', { name: CP.daysOverdue }).getAttribute('aria-invalid')).toBe('true');
    expect(puts(calls)).toHaveLength(1);
  });

  test("a 409 shows the conflict's message with 'Recargar', which loads the latest version", async () => {
    let version = 4;
    stubRoutes({
      ...GROUPS,
      'GET /v5/collection-policy': () => answerOf({ version, global: version > 4 ? { manualUnlockHoldHours: 48 } : {} }),
      'PUT /v5/collection-policy': () => {
        version = 5;
        throw apiError(409, { message: M.collection.conflict, code: 'POLICY_VERSION_CONFLICT', field: 'version' });
      },
    });
    const user = renderPage();
    await form();
    const hold = inBlock('manualUnlockHoldHours', 'spinbutton', CP.manualUnlockHoldHours);
    await user.clear(hold);
    await user.type(hold, '12');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const conflict = await screen.findByTestId('settings-conflict');
    expect(conflict.textContent).toContain(M.collection.conflict);
    await user.click(within(conflict).getByRole('button', { name: F.reload }));
    await waitFor(() => expect(screen.queryByTestId('settings-conflict')).toBeNull());
    expect(inBlock('manualUnlockHoldHours', 'spinbutton', CP.manualUnlockHoldHours).value).toBe('48');
  });

  test('a load error offers a retry', async () => {
    let fail = true;
    stubRoutes({
      ...GROUPS,
      'GET /v5/collection-policy': () => {
        if (fail) throw apiError(500, { message: 'Error', code: 'INTERNAL' });
        return answerOf();
      },
    });
    const user = renderPage();
    expect(await screen.findByText(P.loadError)).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await form()).toBeTruthy();
  });
});

describe("a group's policy", () => {
  test('inherited and overridden keys; editing overrides, "Usar valor global" inherits again; the save sends the own keys', async () => {
    const calls = stubRoutes({
      ...GROUPS,
      'GET /v5/collection-policy': (c) =>
        String(c.params.groupId) === '3' ? answerOf({ groupId: 3, version: 2, own: { release: 'automatic' } }) : answerOf(),
      'PUT /v5/collection-policy': (c) => answerOf({ groupId: 3, version: 3, own: (c.data as { values: Partial<CollectionPolicySettings> }).values }),
    });
    const user = renderPage(`${PATH}?groupId=3`);
    await form();
    expect(screen.getByTestId('group-override-count').textContent).toBe(F.overriddenCount(1));
    const release = screen.getByTestId('scope-state-release');
    expect(release.textContent).toContain(F.overridden);
    expect(release.textContent).toContain(F.inheritedValue(P.releaseModes.approval));
    expect(screen.getByTestId('scope-state-lock').textContent).toBe(F.inherited);

    const days = inBlock('lock', 'spinbutton', CP.lockDays);
    await user.clear(days);
    await user.type(days, '10');
    expect(screen.getByTestId('scope-state-lock').textContent).toContain(F.overridden);
    expect(screen.getByTestId('scope-state-lock').textContent).toContain(F.inheritedValue(P.lockAt(P.days(7))));
    await user.click(within(release).getByRole('button', { name: F.backToGlobalOf(CP.release) }));
    expect(screen.getByTestId('scope-state-release').textContent).toBe(F.inherited);
    expect((inBlock('release', 'combobox', CP.release) as unknown as HTMLSelectElement).value).toBe('approval');

    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await screen.findByText(P.saved);
    const put = puts(calls)[0]!;
    expect(put.params).toEqual({ groupId: 3 });
    expect(put.data).toEqual({ version: 2, values: { lock: { ...DEFAULT_COLLECTION_POLICY.lock, daysOverdue: 10 } } });
  });

  test('the groups that override link to their scope; the history says each change in words', async () => {
    stubRoutes({
      ...GROUPS,
      'GET /v5/collection-policy': () =>
        answerOf({
          overrides: [{ groupId: 5, groupName: 'Sur', version: 1 }],
          history: [
            { version: 4, changedAt: at, changedBy: 'admin@demo.local', changes: [{ key: 'manualUnlockHoldHours', before: 24, after: 48 }] },
            { version: 3, changedAt: at, changedBy: null, changes: [{ key: 'release', after: 'automatic' }] },
          ],
        }),
    });
    const user = renderPage();
    await form();
    expect(within(screen.getByTestId('settings-overrides')).getByRole('link', { name: 'Sur' }).getAttribute('href')).toBe(`${PATH}?groupId=5`);
    const history = screen.getByTestId('settings-history');
    await user.click(within(history).getByRole('button', { name: /Historial de cambios/ }));
    expect(within(history).getByTestId('history-4').textContent).toContain(`${CP.manualUnlockHoldHours}: 24 h → 48 h`);
    expect(within(history).getByTestId('history-3').textContent).toContain(
      `${CP.release}: ${AGENT_SETTINGS_LABELS.history.defaultOf(P.releaseModes.approval)} → ${P.releaseModes.automatic}`,
    );
  });

  test('axe: no serious violations on the global and group forms', async () => {
    stubRoutes({
      ...GROUPS,
      'GET /v5/collection-policy': (c) => (String(c.params.groupId) === '3' ? answerOf({ groupId: 3, own: { release: 'automatic' } }) : answerOf()),
    });
    renderPage(`${PATH}?groupId=3`);
    await form();
    expect(await seriousViolations()).toEqual([]);
  });
});
