/**
 * Re-enrollment as an administrator does it, in Chromium: a phone enrolled with its group's QR code
 * is factory-reset; the group's code no longer enrolls it (the refusal shows in the device's
 * enrollments); 'Autorizar reenrolamiento' from the row menu shows a QR code for that one device,
 * and a simulated agent enrolls with it.
 */
import { PATHS } from '../../shared/constants/routes';
import { DEVICE_DETAIL_LABELS as D } from '../../shared/constants/deviceDetailLabels';
import { ENROLLMENT_LABELS as E } from '../../shared/constants/enrollmentLabels';
import { INVENTORY_LABELS as L } from '../../shared/constants/inventoryLabels';
import { enrollRefusalMessage } from '../../shared/contracts/agent';
import { EnrollmentTokensService } from '../../server/api/enrollment/enrollmentTokensService';
import { SimulatedAgent } from '../../tools/simulator/simulatedAgent';
import { seriousViolations } from '../helpers/axe';
import { collectProblems, describeWithBrowser, waitForHydration } from '../helpers/browser';
import { insertDevices, insertGroup, testImei } from '../helpers/inventoryFixtures';
import { ADMIN_EMAIL, signIn, toast, usePortalBrowser, waitForLayout } from '../helpers/portalSession';

const GROUP = 'Sucursal Reenrolamiento';
const SPEC = { deviceType: 1 as const, brand: 'Motorola', model: 'Moto G24', osVersion: '14', agentVersion: '2.4.1' };

describeWithBrowser('re-enrollment in Chromium', () => {
  const ctx = usePortalBrowser();
  const imei = testImei(7_800);
  let groupCode = '';

  beforeAll(async () => {
    const db = ctx.portal.testDb.db;
    const group = await insertGroup(db, GROUP);
    await insertDevices(db, [{ imei, lifecycle: 'pre_enrolled', groupId: group, customerName: 'Elena Ruiz', brand: 'Motorola', model: 'Moto G24' }]);
    const tokens = new EnrollmentTokensService(db, { offlineAfterHours: 72, now: () => new Date() }, undefined);
    const actor = { adminId: null, email: 'tienda@demo.local', ip: null, requestId: null };
    groupCode = (await tokens.create(actor, { groupId: group, deviceId: null, validHours: 24 }, new Set([PATHS.groups]), ctx.portal.url)).token;
  });

  test("the group's code is refused after a reset; 'Autorizar reenrolamiento' shows a one-device QR and the agent enrolls with it", async () => {
    const stop = new AbortController();
    // The phone as sold: enrolled with the store's QR code.
    const sold = new SimulatedAgent({ ...SPEC, imei }, { baseUrl: ctx.portal.url, enrollmentToken: groupCode });
    expect(await sold.enroll(stop.signal)).toBe(true);
    // Factory-reset: its agent has new keys and only the store's code.
    const reset = new SimulatedAgent({ ...SPEC, imei }, { baseUrl: ctx.portal.url, enrollmentToken: groupCode });
    expect(await reset.enroll(stop.signal)).toBe(false);
    expect(reset.refusal).toEqual({ status: 409, code: 'ALREADY_ENROLLED', message: enrollRefusalMessage('ALREADY_ENROLLED') });

    const page = await ctx.freshPage({ bypassCSP: true });
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.goto(`${ctx.portal.url}/inventory-management/devices?search=${imei}`);
    await waitForHydration(page);
    await waitForLayout(page);
    const row = page.locator(`[data-testid="device-row"][data-imei="${imei}"]`);
    await row.locator('.badge', { hasText: 'Enrolando' }).waitFor();

    // The row menu: confirm, naming the device and its customer.
    await row.getByRole('button', { name: /^Acciones del dispositivo/ }).click();
    await page.getByTestId('authorize-reenrollment').click();
    const dialog = page.getByRole('dialog', { name: L.reenrollment.title(imei), exact: true });
    await dialog.getByText('Elena Ruiz', { exact: true }).waitFor();
    expect(await dialog.getByRole('combobox', { name: L.reenrollment.validity }).inputValue()).toBe('24');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: L.reenrollment.confirm, exact: true }).click();
    await toast(page, L.reenrollment.authorized).waitFor();
    const qr = dialog.getByRole('img', { name: E.qrAlt, exact: true });
    await qr.waitFor();
    expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0)).toBe(true);
    const shortCode = (await dialog.getByTestId('enrollment-short-code').innerText()).match(/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)![0];
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The reset phone enrolls with the code shown (typed, as on a TV), once.
    const authorised = new SimulatedAgent({ ...SPEC, imei }, { baseUrl: ctx.portal.url, enrollmentToken: shortCode });
    expect(await authorised.enroll(stop.signal)).toBe(true);
    const again = new SimulatedAgent({ ...SPEC, imei }, { baseUrl: ctx.portal.url, enrollmentToken: shortCode });
    expect(await again.enroll(stop.signal)).toBe(false);
    expect(again.refusal?.code).toBe('ENROLLMENT_TOKEN_USED');

    // The device's enrollments, newest first: the spent code, the re-enrollment, the authorisation, the refusal, the sale.
    await row.getByRole('button', { name: /^Acciones del dispositivo/ }).click();
    await page.getByTestId('device-action-menu').getByRole('button', { name: L.devices.viewDetail }).click();
    const detail = page.getByTestId('device-detail');
    const entries = detail.getByTestId('enrollment-attempt');
    await entries.nth(4).waitFor();
    const badges = await entries.locator('.badge').allInnerTexts();
    expect(badges).toEqual([
      D.enrollments.kinds.refused,
      D.enrollments.reenrolled,
      D.enrollments.kinds.authorized,
      D.enrollments.kinds.refused,
      D.enrollments.kinds.enrolled,
    ]);
    expect(await entries.nth(3).innerText()).toContain(enrollRefusalMessage('ALREADY_ENROLLED'));
    expect(await entries.nth(2).innerText()).toContain(ADMIN_EMAIL);
    expect(problems).toEqual([]);
    stop.abort();
  });
});
