/**
 * Administrators, roles and the audit log in Chromium: a role granting only the inventory
 * module, an administrator holding it who signs in with the temporary password and sees only
 * that module, and the audit rows of all of it; the three pages without console problems and
 * without serious or critical axe-core violations.
 */
import type { Page } from 'playwright-core';
import { ADMIN_LABELS } from '../../shared/constants/adminLabels';
import { MENU } from '../../shared/constants/routes';
import { MESSAGES, SPEC_TEXT } from '../../shared/messages';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, collectProblems, waitForHydration } from '../helpers/browser';
import {
  ADMIN_EMAIL,
  dismissToasts,
  expectedMenu,
  readExpandedMenu,
  signIn,
  signOut,
  submitSignIn,
  toast,
  waitForLayout,
  usePortalBrowser,
} from '../helpers/portalSession';

const ROLE_NAME = 'Solo inventario';
const NEW_EMAIL = 'solo.inventario@demo.local';
const NEW_PASSWORD = 'Inventario-Nuevo-2026!';
const INVENTORY = MENU.find((m) => m.path === '/inventory-management')!;
const INVENTORY_PATHS = [INVENTORY.path, ...INVENTORY.submodules.map((s) => s.path)];
const ADMIN_PAGES = ['/admin-settings/admins', '/admin-settings/roles', '/admin-settings/audit'] as const;

describeWithBrowser('administrators, roles and audit log in Chromium', () => {
  const ctx = usePortalBrowser();
  const freshPage = (opts: { bypassCSP?: boolean } = {}) => ctx.freshPage(opts);

  /** Opens a signed-in page and waits for its heading and its first list answer. */
  async function openPage(page: Page, path: string, heading: string): Promise<void> {
    await page.goto(`${ctx.portal.url}${path}`);
    await waitForHydration(page);
    await waitForLayout(page);
    await page.getByRole('main').getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
    await page.getByRole('main').getByRole('status').waitFor({ state: 'detached' });
  }

  test('a role with only the inventory module, an administrator holding it, the first sign-in and the audit rows', async () => {
    const page = await freshPage();
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);

    // The role.
    await openPage(page, '/admin-settings/roles', 'Roles');
    await page.getByRole('button', { name: ADMIN_LABELS.roles.create, exact: true }).click();
    const roleDialog = page.getByRole('dialog', { name: ADMIN_LABELS.roles.create, exact: true });
    await roleDialog.waitFor();
    await roleDialog.getByLabel(ADMIN_LABELS.roles.name, { exact: true }).fill(ROLE_NAME);
    await roleDialog.getByLabel(INVENTORY.title, { exact: true }).check();
    for (const s of INVENTORY.submodules) {
      expect(await roleDialog.getByLabel(`${INVENTORY.title}: ${s.title}`, { exact: true }).isChecked()).toBe(true);
    }
    await roleDialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await toast(page, ADMIN_LABELS.roles.created).waitFor();
    await roleDialog.waitFor({ state: 'detached' });
    const roleRow = page.getByTestId(`role-row-${ROLE_NAME}`);
    await roleRow.waitFor();
    expect((await roleRow.locator('td').nth(1).innerText()).trim()).toBe('0');

    // The administrator, and the temporary password shown once.
    await openPage(page, '/admin-settings/admins', 'Administradores');
    await page.getByRole('button', { name: ADMIN_LABELS.admins.create, exact: true }).click();
    const adminDialog = page.getByRole('dialog', { name: ADMIN_LABELS.admins.create, exact: true });
    await adminDialog.waitFor();
    // Field errors from the shared contract before anything is sent.
    await adminDialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await adminDialog.locator('.invalid-feedback').first().waitFor();
    await adminDialog.getByLabel(ADMIN_LABELS.admins.email, { exact: true }).fill(NEW_EMAIL);
    await adminDialog.getByLabel(ADMIN_LABELS.admins.names, { exact: true }).fill('Inventario');
    await adminDialog.getByLabel(ADMIN_LABELS.admins.lastNames, { exact: true }).fill('Solamente');
    await adminDialog.getByLabel(ADMIN_LABELS.admins.profile, { exact: true }).selectOption({ label: ROLE_NAME });
    await adminDialog.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    const passwordDialog = page.getByRole('dialog', { name: ADMIN_LABELS.admins.temporaryPasswordTitle, exact: true });
    await passwordDialog.waitFor();
    await passwordDialog.getByText(ADMIN_LABELS.admins.temporaryPasswordNote, { exact: true }).waitFor();
    const temporary = (await passwordDialog.getByTestId('temporary-password').innerText()).trim();
    expect(temporary.length).toBeGreaterThanOrEqual(8);
    await passwordDialog.getByRole('button', { name: ADMIN_LABELS.close, exact: true }).last().click();
    await passwordDialog.waitFor({ state: 'detached' });
    const adminRow = page.getByTestId(`admin-row-${NEW_EMAIL}`);
    await adminRow.waitFor();
    expect(await adminRow.innerText()).toContain(ROLE_NAME);
    expect(await adminRow.innerText()).toContain(ADMIN_LABELS.admins.active);

    // The new administrator: temporary password → new password → only the inventory menu.
    await signOut(page);
    await submitSignIn(page, NEW_EMAIL, temporary);
    await page.getByText(MESSAGES.newPasswordTitle, { exact: true }).waitFor();
    await page.getByLabel(MESSAGES.newPassword, { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel(MESSAGES.confirmPassword, { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: MESSAGES.forgotConfirm, exact: true }).click();
    await page.waitForURL((u) => u.pathname !== '/login' && u.pathname !== '/', { timeout: 20_000 });
    await waitForLayout(page);
    expect(INVENTORY_PATHS).toContain(new URL(page.url()).pathname);
    expect(await readExpandedMenu(page)).toEqual(expectedMenu(INVENTORY_PATHS));

    await page.goto(`${ctx.portal.url}/admin-settings/admins`);
    await waitForHydration(page);
    await waitForLayout(page);
    const denied = page.getByRole('main').getByRole('alert');
    await denied.waitFor();
    expect((await denied.innerText()).trim()).toBe(SPEC_TEXT.notAuthorized);
    expect(await page.getByRole('main').getByRole('heading', { level: 1, name: 'Administradores' }).count()).toBe(0);

    // The audit log, as the administrator again.
    await dismissToasts(page);
    await signOut(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openPage(page, '/admin-settings/audit', 'Auditoría');
    const rows = page.getByTestId('audit-row');
    await rows.first().waitFor();
    await page.locator(`[data-testid="audit-row"][data-entity="role"][data-action="create"][data-actor="${ADMIN_EMAIL}"]`).first().waitFor();
    await page.locator(`[data-testid="audit-row"][data-entity="admin"][data-action="create"][data-actor="${ADMIN_EMAIL}"]`).first().waitFor();
    await page.locator(`[data-testid="audit-row"][data-entity="session"][data-action="sign_in"][data-actor="${NEW_EMAIL}"]`).first().waitFor();

    // Filtered by actor: only the new administrator's rows.
    await page.getByLabel(ADMIN_LABELS.audit.actor, { exact: true }).fill(NEW_EMAIL);
    await page.getByRole('button', { name: ADMIN_LABELS.audit.filter, exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('actor') === NEW_EMAIL);
    await page.waitForFunction((email) => {
      const r = Array.from(document.querySelectorAll('[data-testid="audit-row"]'));
      return r.length > 0 && r.every((el) => el.getAttribute('data-actor') === email);
    }, NEW_EMAIL);

    // The detail of the role creation shows the new values.
    await page.goto(`${ctx.portal.url}/admin-settings/audit?entity=role&action=create`);
    await waitForHydration(page);
    const roleCreate = page.locator('[data-testid="audit-row"][data-entity="role"][data-action="create"]').first();
    await roleCreate.waitFor();
    await roleCreate.getByRole('button').click();
    const detail = page.getByRole('dialog');
    await detail.getByTestId('audit-diff').waitFor();
    expect(await detail.getByTestId('audit-diff').innerText()).toContain(ROLE_NAME);
  }, 120_000);

  test('edit, disable, enable, reset password and delete an administrator, each confirmed; filters live in the URL; the CSV downloads', async () => {
    const page = await freshPage();
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openPage(page, '/admin-settings/admins', 'Administradores');
    const email = 'temporal@demo.local';

    await page.getByRole('button', { name: ADMIN_LABELS.admins.create, exact: true }).click();
    const create = page.getByRole('dialog', { name: ADMIN_LABELS.admins.create, exact: true });
    await create.getByLabel(ADMIN_LABELS.admins.email, { exact: true }).fill(email);
    await create.getByLabel(ADMIN_LABELS.admins.names, { exact: true }).fill('Temporal');
    await create.getByLabel(ADMIN_LABELS.admins.profile, { exact: true }).selectOption({ index: 1 });
    await create.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    const shown = page.getByRole('dialog', { name: ADMIN_LABELS.admins.temporaryPasswordTitle, exact: true });
    await shown.waitFor();
    await shown.getByRole('button', { name: ADMIN_LABELS.close, exact: true }).last().click();
    await shown.waitFor({ state: 'detached' });
    const row = page.getByTestId(`admin-row-${email}`);

    // Edit.
    await row.getByRole('button', { name: ADMIN_LABELS.admins.editOf('Temporal'), exact: true }).click();
    const edit = page.getByRole('dialog', { name: ADMIN_LABELS.admins.edit, exact: true });
    await edit.getByLabel(ADMIN_LABELS.admins.lastNames, { exact: true }).fill('Editado');
    await edit.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('Temporal Editado', { exact: true }).waitFor();
    const name = 'Temporal Editado';

    // Disable, behind its confirmation; the state filter goes into the URL.
    await row.getByRole('button', { name: ADMIN_LABELS.admins.disableOf(name), exact: true }).click();
    const confirmDisable = page.getByRole('dialog', { name: ADMIN_LABELS.admins.disable, exact: true });
    await confirmDisable.getByText(ADMIN_LABELS.admins.confirmDisable(email), { exact: true }).waitFor();
    await confirmDisable.getByRole('button', { name: ADMIN_LABELS.confirm, exact: true }).click();
    await confirmDisable.waitFor({ state: 'detached' });
    await row.getByText(ADMIN_LABELS.admins.disabled, { exact: true }).waitFor();
    await page.getByLabel(ADMIN_LABELS.admins.filterState, { exact: true }).selectOption('false');
    await page.waitForURL((u) => u.searchParams.get('enabled') === 'false');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="admin-row-"]').length === 1);
    await row.waitFor();
    await page.reload();
    await waitForHydration(page);
    await row.waitFor();
    expect(await page.locator('[data-testid^="admin-row-"]').count()).toBe(1);

    // Enable again.
    await row.getByRole('button', { name: ADMIN_LABELS.admins.enableOf(name), exact: true }).click();
    const confirmEnable = page.getByRole('dialog', { name: ADMIN_LABELS.admins.enable, exact: true });
    await confirmEnable.getByRole('button', { name: ADMIN_LABELS.confirm, exact: true }).click();
    await confirmEnable.waitFor({ state: 'detached' });
    await page.getByText(ADMIN_LABELS.noResults, { exact: true }).waitFor();
    await page.getByLabel(ADMIN_LABELS.admins.filterState, { exact: true }).selectOption('');
    await row.getByText(ADMIN_LABELS.admins.active, { exact: true }).waitFor();

    // Reset password: a new temporary password, shown once.
    await row.getByRole('button', { name: ADMIN_LABELS.admins.resetPasswordOf(name), exact: true }).click();
    const confirmReset = page.getByRole('dialog', { name: ADMIN_LABELS.admins.resetPassword, exact: true });
    await confirmReset.getByRole('button', { name: ADMIN_LABELS.confirm, exact: true }).click();
    const reset = page.getByRole('dialog', { name: ADMIN_LABELS.admins.temporaryPasswordTitle, exact: true });
    expect((await reset.getByTestId('temporary-password').innerText()).trim().length).toBeGreaterThanOrEqual(8);
    await reset.getByRole('button', { name: ADMIN_LABELS.close, exact: true }).last().click();
    await reset.waitFor({ state: 'detached' });

    // Delete.
    await row.getByRole('button', { name: ADMIN_LABELS.admins.deleteOf(name), exact: true }).click();
    const confirmDelete = page.getByRole('dialog', { name: ADMIN_LABELS.admins.delete, exact: true });
    await confirmDelete.getByRole('button', { name: ADMIN_LABELS.confirm, exact: true }).click();
    await toast(page, ADMIN_LABELS.admins.deleted).waitFor();
    await row.waitFor({ state: 'detached' });

    // The audit log's CSV export.
    await openPage(page, '/admin-settings/audit?entity=admin', 'Auditoría');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ADMIN_LABELS.audit.export, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    await toast(page, ADMIN_LABELS.audit.exported).waitFor();
    expect(problems).toEqual([]);
  }, 120_000);

  test('duplicate a role, edit the copy with its grants loaded, delete it after confirming', async () => {
    const page = await freshPage();
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openPage(page, '/admin-settings/roles', 'Roles');
    const source = page.getByTestId('role-row-Soporte');
    await source.getByRole('button', { name: ADMIN_LABELS.roles.duplicateOf('Soporte'), exact: true }).click();
    await toast(page, ADMIN_LABELS.roles.duplicated).waitFor();
    const copy = page.getByTestId('role-row-Soporte (copia)');
    await copy.waitFor();

    await copy.getByRole('button', { name: ADMIN_LABELS.roles.editOf('Soporte (copia)'), exact: true }).click();
    const editor = page.getByRole('dialog', { name: ADMIN_LABELS.roles.edit, exact: true });
    const nameInput = editor.getByLabel(ADMIN_LABELS.roles.name, { exact: true });
    expect(await nameInput.inputValue()).toBe('Soporte (copia)');
    const checked = await editor.getByTestId('permission-tree').locator('input:checked').count();
    expect(checked).toBeGreaterThan(0);
    await nameInput.fill('');
    await editor.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await editor.locator('.invalid-feedback').waitFor();
    await nameInput.fill('Soporte dos');
    await editor.getByRole('button', { name: SPEC_TEXT.save, exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    const renamed = page.getByTestId('role-row-Soporte dos');
    await renamed.waitFor();

    await renamed.getByRole('button', { name: ADMIN_LABELS.roles.deleteOf('Soporte dos'), exact: true }).click();
    const confirm = page.getByRole('dialog', { name: ADMIN_LABELS.roles.delete, exact: true });
    await confirm.getByText(ADMIN_LABELS.roles.confirmDelete('Soporte dos'), { exact: true }).waitFor();
    await confirm.getByRole('button', { name: ADMIN_LABELS.confirm, exact: true }).click();
    await toast(page, ADMIN_LABELS.roles.deleted).waitFor();
    await renamed.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  }, 90_000);

  test('the three pages load without console errors or warnings, and /admin-settings goes to the first of them', async () => {
    const page = await freshPage();
    const problems = collectProblems(page);
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await openPage(page, '/admin-settings/admins', 'Administradores');
    await openPage(page, '/admin-settings/roles', 'Roles');
    await openPage(page, '/admin-settings/audit', 'Auditoría');
    await page.goto(`${ctx.portal.url}/admin-settings`);
    await page.waitForURL((u) => u.pathname === '/admin-settings/admins');
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Administradores', exact: true }).waitFor();
    expect(problems).toEqual([]);
  }, 90_000);

  test('axe-core finds no serious or critical violation on the three pages', async () => {
    const page = await freshPage({ bypassCSP: true });
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    const titles: Record<(typeof ADMIN_PAGES)[number], string> = {
      '/admin-settings/admins': 'Administradores',
      '/admin-settings/roles': 'Roles',
      '/admin-settings/audit': 'Auditoría',
    };
    const found: Record<string, string[]> = {};
    for (const path of ADMIN_PAGES) {
      await openPage(page, path, titles[path]);
      found[path] = await seriousViolations(page);
    }
    // The editors too: the administrator form and the role editor with its permission tree.
    await openPage(page, '/admin-settings/admins', 'Administradores');
    await page.getByRole('button', { name: ADMIN_LABELS.admins.create, exact: true }).click();
    await page.getByRole('dialog', { name: ADMIN_LABELS.admins.create, exact: true }).waitFor();
    found['admin form'] = await seriousViolations(page);
    await openPage(page, '/admin-settings/roles', 'Roles');
    await page.getByRole('button', { name: ADMIN_LABELS.roles.create, exact: true }).click();
    await page.getByRole('dialog', { name: ADMIN_LABELS.roles.create, exact: true }).getByTestId('permission-tree').waitFor();
    found['role editor'] = await seriousViolations(page);
    expect(found).toEqual({
      '/admin-settings/admins': [],
      '/admin-settings/roles': [],
      '/admin-settings/audit': [],
      'admin form': [],
      'role editor': [],
    });
  }, 90_000);
});
