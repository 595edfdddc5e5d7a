/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVICE_ACTION, DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { DEVICE_STATUS } from '../../../shared/constants/domain';
import { ENROLLMENT_LABELS } from '../../../shared/constants/enrollmentLabels';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import type { EnrollmentTokenCreated } from '../../../shared/contracts/enrollment';
import { AGENT_MESSAGES } from '../../../shared/areaMessages/agent';
import { apiError, loadDialogs, renderPortal, seriousViolations, stubRoutes } from '../../testing/renderPortal';
import { DeviceActionMenu } from './DeviceActionMenu';
import { ReenrollmentModal } from './ReenrollmentModal';

beforeAll(loadDialogs);

const R = INVENTORY_LABELS.reenrollment;
const E = ENROLLMENT_LABELS;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h7v7H0z"/></svg>';
const DEVICE = { id: 41, imei: '356938035643809', customerName: 'Rosa Díaz' };

const grant: EnrollmentTokenCreated = {
  id: 90,
  groupId: null,
  deviceId: 41,
  hint: 'Q7RT',
  createdAt: '2026-11-29T10:00:00.000Z',
  createdBy: 'admin@demo.local',
  expiresAt: '2026-11-30T10:00:00.000Z',
  uses: 0,
  lastUsedAt: null,
  token: 'K7QP9M2DQ7RT',
  shortCode: 'K7QP-9M2D-Q7RT',
  serverUrl: 'https://portal.example.mx',
  smartphone: { provisioningPayload: null, missing: AGENT_MESSAGES.tokens.noVersion, qrSvg: SVG },
};

beforeEach(() => {
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:http://localhost/qr-9'), revokeObjectURL: jest.fn() });
});
afterEach(() => jest.restoreAllMocks());

describe("the row menu's 'Autorizar reenrolamiento'", () => {
  const ALL = new Set(DEVICE_ACTIONS.map((a) => a.code));
  async function menuOf(status: number, granted: ReadonlySet<number>) {
    const onReenroll = jest.fn();
    const view = render(
      <DeviceActionMenu
        device={{ id: 41, imei: DEVICE.imei, status: status as Device['status'], lockType: null, pendingCommand: null }}
        granted={granted}
        onAction={jest.fn()}
        onReenroll={onReenroll}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: INVENTORY_LABELS.actions.menuOf(DEVICE.imei) }));
    const item = screen.queryByRole('button', { name: R.action });
    return { item, onReenroll, user, unmount: view.unmount };
  }

  test.each([DEVICE_STATUS.bloqueado, DEVICE_STATUS.activo, DEVICE_STATUS.enrolando, DEVICE_STATUS.SUSPENDED])(
    'offered for an enrolled device (status %i) when the profile grants LOCK',
    async (status) => {
      const { item, onReenroll, user } = await menuOf(status, ALL);
      expect(item).not.toBeNull();
      await user.click(item!);
      expect(onReenroll).toHaveBeenCalledTimes(1);
    },
  );

  test('not offered to a profile without LOCK, nor for a pre-enrolled or released device', async () => {
    const withoutLock = new Set([...ALL].filter((c) => c !== DEVICE_ACTION.LOCK));
    for (const [status, granted] of [
      [DEVICE_STATUS.bloqueado, withoutLock],
      [DEVICE_STATUS.PRE_ENROLLED, ALL],
      [DEVICE_STATUS.liberado, ALL],
    ] as const) {
      const { item, unmount } = await menuOf(status, granted);
      expect({ status, offered: item !== null }).toEqual({ status, offered: false });
      unmount();
    }
  });
});

describe('ReenrollmentModal', () => {
  test('names the device and what the authorisation does; confirmed, it shows the one-device QR and code once', async () => {
    const calls = stubRoutes({ 'POST /v5/enrollment-tokens/reenrollments': () => grant });
    const { user } = renderPortal(<ReenrollmentModal device={DEVICE} onClose={jest.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: R.title(DEVICE.imei) });
    expect(dialog.textContent).toContain(DEVICE.imei);
    expect(dialog.textContent).toContain('Rosa Díaz');
    expect(dialog.textContent).toContain(R.intro);
    expect(dialog.textContent).toContain(R.effects);
    const validity = within(dialog).getByRole('combobox', { name: R.validity }) as HTMLSelectElement;
    expect(validity.value).toBe('24');

    await user.click(within(dialog).getByRole('button', { name: R.confirm }));
    await within(dialog).findByRole('img', { name: E.qrAlt });
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.data)).toEqual([{ deviceId: 41, validHours: 24 }]);
    expect(within(dialog).getByRole('heading', { name: R.resultTitle })).toBeTruthy();
    expect(within(dialog).getByTestId('enrollment-short-code').textContent).toBe('K7QP-9M2D-Q7RT');
    expect(within(dialog).getByTestId('enrollment-token').textContent).toBe('K7QP9M2DQ7RT');
    expect(within(dialog).getByRole('link', { name: E.downloadSvg }).getAttribute('download')).toBe(`enrolamiento-dispositivo-${DEVICE.imei}.svg`);
    expect(dialog.textContent).toContain(E.shownOnce);
    expect(within(dialog).queryByRole('button', { name: R.confirm })).toBeNull();
    expect(await seriousViolations()).toEqual([]);
  });

  test("the server's refusal is shown in the dialog, which stays open to try again", async () => {
    stubRoutes({
      'POST /v5/enrollment-tokens/reenrollments': () => {
        throw apiError(409, { code: 'NOT_ENROLLED', message: AGENT_MESSAGES.tokens.reenrollNotEnrolled });
      },
    });
    const { user } = renderPortal(<ReenrollmentModal device={{ ...DEVICE, customerName: null }} onClose={jest.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: R.title(DEVICE.imei) });
    expect(dialog.textContent).toContain(R.noCustomer);
    await user.click(within(dialog).getByRole('button', { name: R.confirm }));
    expect((await within(dialog).findByTestId('reenrollment-error')).textContent).toBe(AGENT_MESSAGES.tokens.reenrollNotEnrolled);
    expect(within(dialog).getByRole('button', { name: R.confirm })).toBeTruthy();
  });
});
