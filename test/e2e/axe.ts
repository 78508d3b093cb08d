// axe-core (the accessibility engine, from npm) run inside a webview's own frame in the real
// browser. The webview's Content Security Policy allows only its own scripts, so the engine is
// not added as a <script>: Playwright evaluates its source through the DevTools protocol,
// which the page's policy does not govern. Only the WCAG 2.0/2.1 A and AA rules are run.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame } from 'playwright-core';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the elements, and axe's summary of what fails on each. */
  nodes: Array<{ target: string; summary: string }>;
}

let source: string | undefined;
function axeSource(): string {
  if (!source) {
    const require = createRequire(__filename);
    source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  }
  return source;
}

/** Runs axe in the frame (its document only, not nested frames); the WCAG 2.1 A/AA violations. */
export async function axeViolations(frame: Frame): Promise<AxeViolation[]> {
  const loaded = await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!loaded) await frame.evaluate(axeSource());
  return frame.evaluate(async (tags) => {
    interface Result {
      violations: Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: unknown[]; failureSummary?: string }>;
      }>;
    }
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<Result> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      iframes: false,
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: n.failureSummary ?? '' })),
    }));
  }, WCAG_TAGS);
}

/** One line per violation and element, for an assertion message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact ?? '?'}): ${v.help} at ${n.target}: ${n.summary}`))
    .join('\n');
}
