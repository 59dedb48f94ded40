import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { test as base } from 'vitest';
import { currentServer } from './current-server.ts';
import { launchChromium } from './browser.ts';
import { RESULTS_DIR, SCREENSHOT_VIEWPORT } from './constants.ts';

// Waits fail well inside the 60 s test timeout, so the error names the locator that never appeared.
const ACTION_TIMEOUT_MS = 15_000;
const NAVIGATION_TIMEOUT_MS = 15_000;

function artifactName(file: string, testName: string): string {
  const raw = `${path.basename(file, '.spec.ts')}--${testName}`;
  return raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/-+/g, '-').slice(0, 120);
}

/** Another browser session beside the test's own (a second user at the same time), set up as `context` is. */
export async function newContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: SCREENSHOT_VIEWPORT, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
  return context;
}

/**
 * `test` for journeys: `browser` is one Chromium per worker, `context` and `page` are new per test;
 * a failed test leaves a screenshot and the page's console errors in e2e/test-results/.
 */
// Fixtures without dependencies still need an object pattern: vitest reads the parameter list.
/* eslint-disable no-empty-pattern */
export const test = base
  .extend('baseUrl', { scope: 'file' }, async ({}) => currentServer().baseUrl)
  // One Chromium per worker for the whole run (the config's isolate: false keeps it across files): a launch costs
  // ~3.5 s of CPU, which 43 files paid again each on 2 cores.
  .extend('browser', { scope: 'worker' }, async ({}, { onCleanup }): Promise<Browser> => {
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    return browser;
  })
  .extend('context', async ({ browser, baseUrl }, { onCleanup }): Promise<BrowserContext> => {
    const context = await newContext(browser, baseUrl);
    onCleanup(() => context.close());
    return context;
  })
  .extend('page', async ({ context, task }, { onCleanup }): Promise<Page> => {
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') consoleLines.push(`[${message.type()}] ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error.stack ?? error.message}`));
    // Cleanups run after the test's result is set and before the context closes.
    onCleanup(async () => {
      if (task.result?.state !== 'fail' || page.isClosed()) return;
      mkdirSync(RESULTS_DIR, { recursive: true });
      const name = artifactName(task.file.name, task.name);
      await page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`), fullPage: true }).catch(() => undefined);
      writeFileSync(path.join(RESULTS_DIR, `${name}.txt`), [`url: ${page.url()}`, ...consoleLines].join('\n') + '\n');
    });
    return page;
  });
/* eslint-enable no-empty-pattern */
