import type { Page } from 'playwright-core';

const AXE_PATH = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string; html: string }[];
}

/**
 * axe-core on the whole page once transitions are over (a modal fading in): the violations of
 * impact 'serious' or 'critical', one readable line each (rule, help, elements, why). The page's
 * context must bypass the CSP: axe-core is injected as an inline script.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary, html: n.html.slice(0, 200) })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} — ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.html} (${n.failureSummary ?? ''})`).join(' | ')}`,
    );
}
