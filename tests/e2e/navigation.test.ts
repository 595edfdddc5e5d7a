/**
 * Route changes in Chromium: a new page opens at the top with focus on its heading (unless the
 * user clicked or typed while it loaded), and Back returns to where the previous page was left.
 * (The 401 path is in shellSession.test.ts.)
 */
import type { Page } from 'playwright-core';
import { SPEC_TEXT } from '../../shared/messages';
import { describeWithBrowser } from '../helpers/browser';
import { ADMIN_EMAIL, sidebar, signIn, usePortalBrowser } from '../helpers/portalSession';

/** Short enough that the dashboard makes the page scroll (the menu scrolls on its own: it no longer does). */
const SHORT = { width: 1366, height: 300 } as const;

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

async function scrollToBottom(page: Page): Promise<number> {
  // The page's data first: a dashboard whose cards are still loading is no taller than the window.
  await page.waitForFunction(() => document.documentElement.scrollHeight > window.innerHeight + 100);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => window.scrollY > 0);
  return scrollY(page);
}

describeWithBrowser('navigation in Chromium', () => {
  const ctx = usePortalBrowser();

  test("clicking 'Auditoría' low in the menu after scrolling opens the audit page at the top, focus on its h1", async () => {
    const page = await ctx.freshPage({ viewport: SHORT });
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.getByRole('heading', { level: 1, name: 'General', exact: true }).waitFor();
    expect(await scrollToBottom(page)).toBeGreaterThan(100);

    await sidebar(page).getByRole('link', { name: 'Auditoría', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/admin-settings/audit');
    const heading = page.getByRole('heading', { level: 1, name: 'Auditoría', exact: true });
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Auditoría');
    expect(await scrollY(page)).toBe(0);
  });

  test('a page whose heading comes late leaves the focus in the user menu opened meanwhile: Escape still closes it', async () => {
    const page = await ctx.freshPage({ viewport: SHORT });
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.getByRole('heading', { level: 1, name: 'General', exact: true }).waitFor();

    // The audit page's code is held back until the user menu is open.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/chunks\/AuditPage-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await sidebar(page).getByRole('link', { name: 'Auditoría', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/admin-settings/audit');

    const toggle = page.locator('#user-menu');
    await toggle.click();
    const myProfile = page.getByRole('button', { name: SPEC_TEXT.myProfile, exact: true });
    await myProfile.waitFor();
    // The heading has not come yet: the race is the one of a slow network.
    const heading = page.getByRole('heading', { level: 1, name: 'Auditoría', exact: true });
    expect(await heading.count()).toBe(0);

    release();
    await heading.waitFor();
    // The heading's wait runs on the document's changes: two frames after it shows, it is over.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('user-menu');
    await page.keyboard.press('Escape');
    await myProfile.waitFor({ state: 'hidden' });
  });

  test('Back returns to the previous page where it was left', async () => {
    const page = await ctx.freshPage({ viewport: SHORT });
    await signIn(page, ctx.portal.url, ADMIN_EMAIL);
    await page.getByRole('heading', { level: 1, name: 'General', exact: true }).waitFor();
    const left = await scrollToBottom(page);
    expect(left).toBeGreaterThan(100);

    await sidebar(page).getByRole('link', { name: 'Auditoría', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Auditoría', exact: true }).waitFor();
    await page.waitForFunction(() => window.scrollY === 0);

    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/dashboard/general');
    await page.getByRole('heading', { level: 1, name: 'General', exact: true }).waitFor();
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 1, left);
  });
});
