/**
 * axe-core's checks on a console page in the browser: the script is loaded from node_modules
 * (no network), run on the whole document, and every violation of impact serious or
 * critical fails the test with a readable list (rule, impact, help, and each offending element's
 * selector and axe's summary of what to fix). Minor and moderate findings are returned, not failed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const FAILING = new Set(['serious', 'critical']);

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol rather than page.addScriptTag: the console's CSP
  // (script-src 'self') rightly refuses an injected inline script, and must stay as shipped.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })),
    }));
  });
}

/** One violation per paragraph: "serious color-contrast: Elements must meet … \n  - nav a.x: Fix …". */
export const describeViolations = (violations: AxeViolation[]) =>
  violations
    .map(
      (v) => `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `  - ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s*\n\s*/g, ' ')}`).join('\n')}`,
    )
    .join('\n\n');

/**
 * Fails with every serious or critical violation on the page as it is now; `where` names the
 * page state in the message. Returns the minor and moderate ones for a caller that wants them.
 */
export async function expectNoSeriousViolations(page: Page, where = page.url()): Promise<AxeViolation[]> {
  const violations = await axeViolations(page);
  const serious = violations.filter((v) => v.impact && FAILING.has(v.impact));
  if (serious.length) throw new Error(`axe-core found ${serious.length} serious or critical violation(s) at ${where}:\n\n${describeViolations(serious)}`);
  return violations.filter((v) => !serious.includes(v));
}
