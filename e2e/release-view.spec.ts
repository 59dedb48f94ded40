import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectHeading, openSignIn, sendNonPhiFax, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// The release view's actions end to end: a non-PHI fax sent through its modal, then its delivery
// summary downloaded and sent to Intake, and its activity read by an administrator.


// Workers deliver in the background: reload until the delivery summary can be had.
async function waitForDeliverySummary(page: Page) {
  const download = page.getByRole('button', { name: 'Download Delivery Summary' });
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByRole('row').filter({ hasText: '503-555-0202' }).first().waitFor();
        return download.isVisible();
      },
      { timeout: 30_000, interval: 1_000 },
    )
    .toBe(true);
}

test('an administrator faxes a non-PHI document, downloads its delivery summary, sends it to Intake and reads its activity', { timeout: 120_000 }, async ({ page }) => {
  const subject = `Clinic holiday hours ${Date.now()}`;
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');

  await sendNonPhiFax(page, subject, '503-555-0202', '503-555-0101');
  const link = page.getByRole('link', { name: subject, exact: true });
  await link.waitFor();

  await link.click();
  await expectHeading(page, subject);
  await waitForDeliverySummary(page);
  const row = page.getByRole('row').filter({ hasText: '503-555-0202' }).first();
  expect(await row.innerText()).toContain('Delivered');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Delivery Summary' }).click()]);
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 4).toString('latin1')).toBe('%PDF');
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);

  await page.getByRole('button', { name: 'Send Delivery Summary to Intake' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send Delivery Summary to Intake' });
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText('Your Delivery Summary is being generated. To view the document, go to My Intake.').waitFor();

  await page.getByRole('button', { name: 'Activity', exact: true }).click();
  const activity = page.getByRole('dialog', { name: 'Message Activity' });
  // The header row plus at least one entry.
  await activity.getByRole('row').nth(1).waitFor();
  expect(await activity.getByRole('row').count()).toBeGreaterThan(1);
});
