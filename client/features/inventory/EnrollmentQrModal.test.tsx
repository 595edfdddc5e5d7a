/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, waitFor, within } from '@testing-library/react';
import { ENROLLMENT_LABELS } from '../../../shared/constants/enrollmentLabels';
import type { Device } from '../../../shared/contracts/devices';
import type { EnrollmentToken, EnrollmentTokenCreated } from '../../../shared/contracts/enrollment';
import type { Group } from '../../../shared/contracts/groups';
import { AGENT_MESSAGES } from '../../../shared/areaMessages/agent';
import { apiError, renderPortal, seriousViolations, stubRoutes, type ApiCall, type ApiHandler, loadDialogs } from '../../testing/renderPortal';
import { formatDateTime } from '../../components/formatDate';
import { EnrollmentQrModal, svgFileName, type EnrollmentScope } from './EnrollmentQrModal';
import GroupsPage from './GroupsPage';
import PreEnrolledPage from './PreEnrolledPage';

beforeAll(loadDialogs);

const L = ENROLLMENT_LABELS;
const at = '2025-03-01T12:00:00.000Z';
const expires = '2025-03-04T12:00:00.000Z';
const NORTE: Group = {
  id: 1,
  name: 'Norte Mérida',
  description: null,
  deviceCount: 3,
  enrolledCount: 3,
  preEnrolledCount: 0,
  createdAt: at,
  updatedAt: at,
};
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h7v7H0z"/></svg>';
const MISSING = AGENT_MESSAGES.tokens.noPackage('2.4.0');

const liveToken = (id: number, hint: string, extra: Partial<EnrollmentToken> = {}): EnrollmentToken => ({
  id,
  groupId: 1,
  deviceId: null,
  hint,
  createdAt: at,
  createdBy: 'ana@macrolock.mx',
  expiresAt: expires,
  uses: 2,
  lastUsedAt: null,
  ...extra,
});

const created = (id: number, payload: string | null, extra: Partial<EnrollmentTokenCreated> = {}): EnrollmentTokenCreated => ({
  ...liveToken(id, 'WXYZ', { uses: 0, createdBy: 'a@b.mx' }),
  token: 'tok_live_0123456789abcdefWXYZ',
  shortCode: 'K7QP-9M2D-X4TB',
  serverUrl: 'https://portal.example.mx',
  smartphone: { provisioningPayload: payload, missing: payload === null ? MISSING : null, qrSvg: SVG },
  ...extra,
});

let createObjectURL: jest.Mock;
let revokeObjectURL: jest.Mock;
beforeEach(() => {
  // jsdom has no Blob URLs.
  createObjectURL = jest.fn(() => 'blob:http://localhost/qr-1');
  revokeObjectURL = jest.fn();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});
afterEach(() => jest.restoreAllMocks());

const GROUP_SCOPE: EnrollmentScope = { kind: 'group', id: 1, name: NORTE.name };

function renderModal(scope: EnrollmentScope, routes: Record<string, ApiHandler>) {
  const calls = stubRoutes(routes);
  const onClose = jest.fn();
  const { user } = renderPortal(<EnrollmentQrModal scope={scope} onClose={onClose} />);
  return { calls, onClose, user };
}

const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST');
const lists = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.url === '/v5/enrollment-tokens');

describe('EnrollmentQrModal', () => {
  test('generating shows the QR image, the download, the TV short code, the token and the warning when there is no payload', async () => {
    let live: EnrollmentToken[] = [];
    const { calls, user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => ({ data: live }),
      'POST /v5/enrollment-tokens': () => {
        live = [liveToken(7, 'WXYZ', { uses: 0 })];
        return created(7, null);
      },
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    await within(dialog).findByText(L.liveEmpty);
    expect(lists(calls)[0]!.params).toEqual({ groupId: 1 });
    expect(within(dialog).queryByText(L.regenerateNote)).toBeNull();
    expect(within(dialog).queryByRole('img')).toBeNull();

    await user.selectOptions(within(dialog).getByRole('combobox', { name: L.validity }), '7 días');
    await user.click(within(dialog).getByRole('button', { name: L.generate }));

    const img = (await within(dialog).findByRole('img', { name: L.qrAlt })) as HTMLImageElement;
    expect(posts(calls)).toHaveLength(1);
    expect(posts(calls)[0]!.data).toEqual({ groupId: 1, deviceId: null, validHours: 168 });
    // The server's SVG, as a base64 data URI, at 240 px.
    const [prefix, base64] = img.getAttribute('src')!.split(',');
    expect(prefix).toBe('data:image/svg+xml;base64');
    expect(Buffer.from(base64!, 'base64').toString('utf8')).toBe(SVG);
    expect(Number(img.getAttribute('width'))).toBeGreaterThanOrEqual(240);

    const download = within(dialog).getByRole('link', { name: L.downloadSvg });
    expect(download.getAttribute('href')).toBe('blob:http://localhost/qr-1');
    expect(download.getAttribute('download')).toBe('enrolamiento-grupo-norte-merida.svg');
    const blob = createObjectURL.mock.calls[0]![0] as Blob;
    expect(blob.type).toBe('image/svg+xml');

    const shortCode = within(dialog).getByTestId('enrollment-short-code');
    expect(shortCode.textContent).toBe('K7QP-9M2D-X4TB');
    expect(shortCode.className).toContain('font-monospace');
    expect(within(shortCode).getByRole('button', { name: `Copiar ${L.shortCode}` })).toBeTruthy();
    expect(dialog.textContent).toContain(L.tvHelp);
    expect(within(dialog).getByTestId('enrollment-token').textContent).toBe('tok_live_0123456789abcdefWXYZ');
    expect(within(dialog).getByRole('button', { name: `Copiar ${L.token}` })).toBeTruthy();
    expect(dialog.textContent).toContain(L.expires(formatDateTime(expires)));
    expect(dialog.textContent).toContain(L.shownOnce);

    const warning = within(dialog).getByTestId('enrollment-missing');
    expect(warning.textContent).toContain(L.noProvisioning);
    expect(warning.textContent).toContain(MISSING);
    expect(dialog.textContent).toContain(L.smartphoneHelpInstalled);

    // Focus moves to what was generated; the list is asked again and now offers 'Regenerar'.
    expect(document.activeElement).toBe(within(dialog).getByRole('heading', { name: L.resultTitle }));
    await within(dialog).findByTestId('enrollment-token-WXYZ');
    expect(within(dialog).getByRole('button', { name: L.regenerate })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: L.generate })).toBeNull();
  });

  test("the help tells a store employee what the device's common refusals mean, by the code it shows", async () => {
    const { user } = renderModal(GROUP_SCOPE, { 'GET /v5/enrollment-tokens': () => ({ data: [] }) });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    const help = within(dialog).getByTestId('enrollment-refusals-help');
    await user.click(within(help).getByText(L.refusalsTitle));
    expect(help.hasAttribute('open')).toBe(true);
    for (const code of ['ALREADY_ENROLLED', 'ENROLLMENT_TOKEN_EXPIRED', 'ENROLLMENT_OTHER_GROUP', 'NOT_REGISTERED']) {
      const entry = L.refusals.find((r) => r.code === code)!;
      expect(within(help).getByText(code).nextElementSibling?.textContent).toBe(entry.text);
    }
    expect(help.textContent).toContain('Autorizar reenrolamiento');
  });

  test('with a provisioning payload there is no warning and the help is for a reset smartphone', async () => {
    const { user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => ({ data: [] }),
      'POST /v5/enrollment-tokens': () => created(8, '{"android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME":"x"}'),
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    await within(dialog).findByText(L.liveEmpty);
    await user.click(within(dialog).getByRole('button', { name: L.generate }));
    await within(dialog).findByRole('img', { name: L.qrAlt });
    expect(within(dialog).queryByTestId('enrollment-missing')).toBeNull();
    expect(dialog.textContent).toContain(L.smartphoneHelp);
    expect(dialog.textContent).not.toContain(L.noProvisioning);
  });

  test('Regenerar with a live token: it says the live code is replaced, and the list then shows only the new one', async () => {
    let live = [liveToken(5, 'ABCD', { lastUsedAt: '2025-03-02T09:30:00.000Z', uses: 4 })];
    const { calls, user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => ({ data: live }),
      'POST /v5/enrollment-tokens': () => {
        live = [liveToken(6, 'WXYZ', { uses: 0 })];
        return created(6, null);
      },
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    const row = await within(dialog).findByTestId('enrollment-token-ABCD');
    expect(row.textContent).toContain(L.hintValue('ABCD'));
    expect(row.textContent).toContain('ana@macrolock.mx');
    expect(row.textContent).toContain(formatDateTime(expires));
    expect(row.textContent).toContain(formatDateTime('2025-03-02T09:30:00.000Z'));
    expect(row.textContent).toContain('4');
    expect(dialog.textContent).toContain(L.regenerateNote);
    expect(within(dialog).queryByRole('button', { name: L.generate })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: L.regenerate }));
    await within(dialog).findByRole('img', { name: L.qrAlt });
    expect(posts(calls)[0]!.data).toEqual({ groupId: 1, deviceId: null, validHours: 72 });
    await within(dialog).findByTestId('enrollment-token-WXYZ');
    expect(within(dialog).queryByTestId('enrollment-token-ABCD')).toBeNull();
  });

  test('revoking asks for confirmation first; Cancelar sends nothing; confirming sends DELETE', async () => {
    let live = [liveToken(5, 'ABCD')];
    const { calls, user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => ({ data: live }),
      'DELETE /v5/enrollment-tokens/5': () => {
        live = [];
        return '';
      },
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    const revoke = await within(dialog).findByRole('button', { name: L.revokeOf('ABCD') });

    await user.click(revoke);
    const confirm = within(dialog).getByTestId('enrollment-revoke-confirm');
    expect(confirm.textContent).toContain(L.confirmRevoke('ABCD'));
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: L.cancel }));
    await user.keyboard('{Enter}');
    expect(within(dialog).queryByTestId('enrollment-revoke-confirm')).toBeNull();
    expect(document.activeElement).toBe(revoke);
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(revoke);
    await user.click(within(within(dialog).getByTestId('enrollment-revoke-confirm')).getByRole('button', { name: L.revoke }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/v5/enrollment-tokens/5');
    await within(dialog).findByText(L.liveEmpty);
    expect(within(dialog).queryByTestId('enrollment-revoke-confirm')).toBeNull();
    expect(within(dialog).getByRole('button', { name: L.generate })).toBeTruthy();
  });

  test('revoking the token just generated hides its QR code and frees its Blob URL', async () => {
    let live: EnrollmentToken[] = [];
    const { user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => ({ data: live }),
      'POST /v5/enrollment-tokens': () => {
        live = [liveToken(7, 'WXYZ')];
        return created(7, null);
      },
      'DELETE /v5/enrollment-tokens/7': () => {
        live = [];
        return '';
      },
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    await within(dialog).findByText(L.liveEmpty);
    await user.click(within(dialog).getByRole('button', { name: L.generate }));
    await user.click(await within(dialog).findByRole('button', { name: L.revokeOf('WXYZ') }));
    await user.click(within(within(dialog).getByTestId('enrollment-revoke-confirm')).getByRole('button', { name: L.revoke }));
    await waitFor(() => expect(within(dialog).queryByRole('img', { name: L.qrAlt })).toBeNull());
    expect(within(dialog).queryByTestId('enrollment-short-code')).toBeNull();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/qr-1');
  });

  test('server errors are shown: under the validity, in the modal, and in the revoke confirmation', async () => {
    let answer: 'validHours' | 'group' = 'validHours';
    const { calls, user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => ({ data: [liveToken(5, 'ABCD')] }),
      'POST /v5/enrollment-tokens': () => {
        if (answer === 'validHours')
          throw apiError(400, { message: AGENT_MESSAGES.field.validHours('validHours', 720), code: 'VALIDATION', field: 'validHours' });
        throw apiError(404, { message: AGENT_MESSAGES.tokens.groupNotFound, code: 'NOT_FOUND', field: 'groupId' });
      },
      'DELETE /v5/enrollment-tokens/5': () => {
        throw apiError(404, { message: AGENT_MESSAGES.tokens.notFound, code: 'NOT_FOUND' });
      },
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    await within(dialog).findByTestId('enrollment-token-ABCD');

    await user.click(within(dialog).getByRole('button', { name: L.regenerate }));
    const select = within(dialog).getByRole('combobox', { name: L.validity });
    await waitFor(() => expect(select.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(select.getAttribute('aria-describedby')!)?.textContent).toBe(AGENT_MESSAGES.field.validHours('validHours', 720));
    expect(document.activeElement).toBe(select);

    answer = 'group';
    await user.click(within(dialog).getByRole('button', { name: L.regenerate }));
    expect(await within(dialog).findByText(AGENT_MESSAGES.tokens.groupNotFound)).toBeTruthy();
    expect(posts(calls)).toHaveLength(2);
    expect(within(dialog).queryByRole('img', { name: L.qrAlt })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: L.revokeOf('ABCD') }));
    const confirm = within(dialog).getByTestId('enrollment-revoke-confirm');
    await user.click(within(confirm).getByRole('button', { name: L.revoke }));
    expect(await within(confirm).findByText(AGENT_MESSAGES.tokens.notFound)).toBeTruthy();
  });

  test('the live tokens that cannot be loaded offer a retry', async () => {
    let fail = true;
    const { calls, user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => {
        if (fail) throw apiError(500, { message: 'Error interno', code: 'INTERNAL' });
        return { data: [liveToken(5, 'ABCD')] };
      },
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    const retry = await within(dialog).findByRole('button', { name: 'Reintentar' });
    fail = false;
    await user.click(retry);
    await within(dialog).findByTestId('enrollment-token-ABCD');
    expect(lists(calls)).toHaveLength(2);
  });

  test('the downloaded file is named after the scope', () => {
    expect(svgFileName({ kind: 'group', id: 3, name: 'Sucursal Querétaro #2' })).toBe('enrolamiento-grupo-sucursal-queretaro-2.svg');
    expect(svgFileName({ kind: 'group', id: 3, name: '¡¿?!' })).toBe('enrolamiento-grupo-3.svg');
    expect(svgFileName({ kind: 'device', id: 9, imei: '490154203237518' })).toBe('enrolamiento-dispositivo-490154203237518.svg');
    expect(svgFileName({ kind: 'noGroup' })).toBe('enrolamiento-sin-grupo.svg');
  });

  test('axe: no serious violations with live tokens, the revoke confirmation and a generated code', async () => {
    const { user } = renderModal(GROUP_SCOPE, {
      'GET /v5/enrollment-tokens': () => ({ data: [liveToken(5, 'ABCD')] }),
      'POST /v5/enrollment-tokens': () => created(6, null),
    });
    const dialog = await screen.findByRole('dialog', { name: L.titleGroup('Norte Mérida') });
    await within(dialog).findByTestId('enrollment-token-ABCD');
    await user.click(within(dialog).getByRole('button', { name: L.revokeOf('ABCD') }));
    expect(await seriousViolations()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: L.regenerate }));
    await within(dialog).findByRole('img', { name: L.qrAlt });
    expect(await seriousViolations()).toEqual([]);
  });
});

describe('entry points', () => {
  test('groups page: a row action for the group, and a page button for the devices with no group', async () => {
    const calls = stubRoutes({
      'GET /v5/groups': () => ({ data: [NORTE], total: 1 }),
      'GET /v5/enrollment-tokens': () => ({ data: [] }),
      'POST /v5/enrollment-tokens': () => created(9, null, { groupId: null }),
    });
    const { user } = renderPortal(<GroupsPage title="Grupos de dispositivos" path="/inventory-management/devices-group" />, {
      allowed: ['/inventory-management/devices-group'],
    });
    const row = await screen.findByTestId(`group-row-${NORTE.name}`);
    await user.click(within(row).getByRole('button', { name: L.actionOfGroup(NORTE.name) }));
    let dialog = await screen.findByRole('dialog', { name: L.titleGroup(NORTE.name) });
    await within(dialog).findByText(L.liveEmpty);
    expect(lists(calls).at(-1)!.params).toEqual({ groupId: 1 });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: L.noGroupAction }));
    dialog = await screen.findByRole('dialog', { name: L.titleNoGroup });
    await within(dialog).findByText(L.liveEmpty);
    expect(lists(calls).at(-1)!.params).toEqual({});
    await user.click(within(dialog).getByRole('button', { name: L.generate }));
    await within(dialog).findByRole('img', { name: L.qrAlt });
    expect(posts(calls)[0]!.data).toEqual({ groupId: null, deviceId: null, validHours: 72 });
    expect(within(dialog).getByRole('link', { name: L.downloadSvg }).getAttribute('download')).toBe('enrolamiento-sin-grupo.svg');
  });

  test('pre-enrolled page: a row action for the device', async () => {
    const PATH = '/inventory-management/devices-pre-enrolled';
    const device: Device = {
      id: 9,
      imei: '490154203237518',
      imei2: null,
      serial: null,
      deviceType: 1,
      brand: 'Moto',
      model: 'G8',
      osVersion: null,
      agentVersion: null,
      groupId: null,
      groupName: null,
      customerName: null,
      creditReference: null,
      status: 25,
      lockType: null,
      lockMessage: null,
      temporaryUntil: null,
      pendingCommand: null,
      failureReason: null,
      lastSeenAt: null,
      enrolledAt: null,
      createdAt: at,
      updatedAt: at,
      simIccid: null,
      simCarrier: null,
    };
    const calls = stubRoutes({
      'GET /v5/groups': () => ({ data: [], total: 0 }),
      'GET /v5/devices': () => ({ data: [device], total: 1, totalIsEstimate: false }),
      'GET /v5/enrollment-tokens': () => ({ data: [] }),
      'POST /v5/enrollment-tokens': () => created(10, null, { groupId: null, deviceId: 9 }),
    });
    const { user } = renderPortal(<PreEnrolledPage title="Dispositivos pre-enrolados" path={PATH} />, { url: PATH, allowed: [PATH] });
    const row = await screen.findByTestId(`pre-enrolled-row-${device.imei}`);
    await user.click(within(row).getByRole('button', { name: L.actionOfDevice(device.imei) }));
    const dialog = await screen.findByRole('dialog', { name: L.titleDevice(device.imei) });
    await within(dialog).findByText(L.liveEmpty);
    expect(lists(calls).at(-1)!.params).toEqual({ deviceId: 9 });
    await user.click(within(dialog).getByRole('button', { name: L.generate }));
    await within(dialog).findByRole('img', { name: L.qrAlt });
    expect(posts(calls)[0]!.data).toEqual({ groupId: null, deviceId: 9, validHours: 72 });
    expect(within(dialog).getByRole('link', { name: L.downloadSvg }).getAttribute('download')).toBe(`enrolamiento-dispositivo-${device.imei}.svg`);
  });
});
