import fs from 'node:fs';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

/** The system Chromium: CHROME_PATH, else /usr/bin/chromium; undefined when there is none. */
export function chromePath(): string | undefined {
  const candidate = process.env.CHROME_PATH || '/usr/bin/chromium';
  return fs.existsSync(candidate) ? candidate : undefined;
}

/** Headless Chromium with the flags this machine needs (no sandbox as root, no background traffic);
 * playwright gives it a fresh temporary profile. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromePath();
  if (!executablePath) throw new Error('No hay Chromium: instala el paquete chromium o define CHROME_PATH');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Every console error or warning and every uncaught page error, as text. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

/** Waits until React has hydrated the server-rendered page. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated="true"]', { timeout: 15_000 });
}

/** Prints a notice nobody can miss when the browser suite cannot run. */
export function announceNoBrowser(): void {
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!! NO CHROMIUM FOUND: the end-to-end suite is SKIPPED.\n!! Install it (apt-get install -y chromium) or set CHROME_PATH.\n${line}\n`,
  );
}

/**
 * `describe` for the browser suites: skipped, with the loud notice, where no Chromium exists
 * (the only suites ever skipped).
 */
export function describeWithBrowser(name: string, fn: () => void): void {
  const available = Boolean(chromePath());
  if (!available) announceNoBrowser();
  (available ? describe : describe.skip)(name, fn);
}
