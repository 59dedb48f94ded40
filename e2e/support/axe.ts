import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import path from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS_DIR, SCREENSHOT_VIEWPORT } from './constants.ts';
import { waitForExpression } from './journeys.ts';

// axe-core's browser build, injected through the DevTools protocol (page.evaluate is not subject to the
// app's CSP, which forbids inline scripts): nothing in the product loads it.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// WCAG 2.2 AA and everything below it.
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe on what the page shows now; fails with every WCAG 2.2 AA violation listed. */
export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  await animationsSettled(page);
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>(
    `window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ['violations'] })
       .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
         nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`,
  );
  const lines = violations.flatMap((v) => [
    `${v.id} (${v.impact ?? 'n/a'}): ${v.help}`,
    ...v.nodes.map((n) => `    ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  ]);
  if (lines.length > 0) throw new Error(`axe on ${screen}: ${violations.length} WCAG 2.2 AA violation(s)\n${lines.join('\n')}`);
}

// A modal fading in blends its colours with the overlay: contrast measured mid-transition is not what a person
// reads. Waits (bounded) until no CSS transition or finite animation (spinners loop) is running.
async function animationsSettled(page: Page): Promise<void> {
  await waitForExpression(page, `document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)`, 5_000);
}

/** A 1440×900 screenshot in e2e/test-results/screens/NAME.png, to look at (the viewport is restored after). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  const dir = path.join(RESULTS_DIR, 'screens');
  mkdirSync(dir, { recursive: true });
  // Pages open at this size already: resizing lays the page out twice more, for nothing.
  const resize = before?.width !== SCREENSHOT_VIEWPORT.width || before.height !== SCREENSHOT_VIEWPORT.height;
  if (resize) await page.setViewportSize(SCREENSHOT_VIEWPORT);
  await animationsSettled(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
  if (resize && before) await page.setViewportSize(before);
}
