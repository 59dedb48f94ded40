import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './support/axe.ts';
import { RESULTS_DIR } from './support/constants.ts';
import { expectHeading, expectPath, openSignIn, signIn, storedAccessToken } from './support/journeys.ts';
import { test } from './support/test.ts';

// Release list journeys. Drafts are made through the real API with the signed-in user's token until
// the compose screen lands; the list, its search, views and status are what the user sees.

test('Lakeside sees its drafts in Release, searches them, and Riverview does not see them', async ({ page, context, baseUrl }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await expectPath(page, '/intake');
  const token = await storedAccessToken(context, baseUrl);
  const headers = { Authorization: `Bearer ${token}` };
  for (const subject of ['Referral for Zelda Quist', 'Lab report for John Smith']) {
    const saved = await page.request.put('/api/messages', {
      headers,
      data: { subject, toAddress: 'referrals@riverview.direct.example.org', fromAddress: 'intake@lakeside.direct.example.org' },
    });
    expect(saved.status()).toBe(200);
  }

  await page.getByRole('link', { name: 'Release', exact: true }).click();
  await expectPath(page, '/release');
  await expectHeading(page, 'Release');
  await page.getByRole('link', { name: 'Referral for Zelda Quist', exact: true }).waitFor();
  await page.getByRole('link', { name: 'Lab report for John Smith', exact: true }).waitFor();
  expect(await page.getByText('Draft', { exact: true }).count()).toBeGreaterThanOrEqual(2);

  await page.getByRole('searchbox', { name: 'Search' }).fill('zelda');
  await expect.poll(() => page.getByRole('link', { name: 'Lab report for John Smith', exact: true }).count()).toBe(0);
  await page.getByRole('link', { name: 'Referral for Zelda Quist', exact: true }).waitFor();
  expect(new URL(page.url()).searchParams.get('search')).toBe('zelda');

  // Mantine's segmented control hides its radios behind their labels: click what the user clicks.
  const show = page.getByRole('radiogroup', { name: 'Show' });
  await show.getByText('Sent', { exact: true }).click();
  await expect.poll(() => show.getByRole('radio', { name: 'Sent' }).isChecked()).toBe(true);
  await page.getByText('There are no results matching your criteria.').waitFor();
  await show.getByText('Drafts', { exact: true }).click();
  await page.getByRole('link', { name: 'Referral for Zelda Quist', exact: true }).waitFor();

  // A draft opens in the draft editor route.
  await page.getByRole('link', { name: 'Referral for Zelda Quist', exact: true }).click();
  expect(new URL(page.url()).pathname).toMatch(/^\/release\/draft\/[0-9a-f-]{36}$/);

  await page.goto('/account/logout');
  await expectPath(page, '/account/login');
  await signIn(page, 'admin@riverview.example.org');
  // Riverview has messages of its own (the demo world's); none of them is Lakeside's draft.
  await page.goto('/release?search=zelda');
  await expectHeading(page, 'Release');
  await page.getByText('There are no results matching your criteria.').waitFor();
});

// What of a column the window shows: its header's right edge must lie inside the page (not clipped or scrolled away).
async function columnFullyShown(page: Page, name: string): Promise<boolean> {
  const header = page.getByRole('columnheader', { name, exact: true });
  if (!(await header.isVisible())) return false;
  const box = await header.boundingBox();
  const width = page.viewportSize()!.width;
  const scrolls = await page.evaluate<number>(
    `Math.max(document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ...[...document.querySelectorAll('.mantine-TableScrollContainer-scrollContainer .mantine-ScrollArea-viewport')].map((e) => e.scrollWidth - e.clientWidth))`,
  );
  return box !== null && box.x + box.width <= width && scrolls <= 0;
}

test('the Release list shows every column at 1440 px, and subject, names and status at 1024 px, with long names', async ({ page, context, baseUrl }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  const token = await storedAccessToken(context, baseUrl);
  const run = Date.now().toString(36);
  const subject = `Referral for Maximiliana Featherstonehaugh-Cholmondeley: cardiology consult after an emergency visit ${run}`;
  const saved = await page.request.put('/api/messages', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      subject,
      toAddress: 'referrals-department-cardiology@riverview-community-hospital.direct.example.org;second.recipient@riverview.direct.example.org',
      fromAddress: 'intake@lakeside.direct.example.org',
      patient: { firstName: 'Maximiliana', lastName: 'Featherstonehaugh-Cholmondeley', patientIds: [] },
    },
  });
  expect(saved.status()).toBe(200);
  await page.goto(`/release?search=${run}`);
  await expectHeading(page, 'Release');
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: subject }) });
  await row.waitFor();

  await page.setViewportSize({ width: 1440, height: 900 });
  for (const column of ['Subject', 'To', 'Patient', 'Attachments', 'Status', 'Updated']) {
    await expect.poll(() => columnFullyShown(page, column), { message: `${column} at 1440 px` }).toBe(true);
  }
  await screenshot(page, 'release-list-1440');

  await page.setViewportSize({ width: 1024, height: 768 });
  for (const column of ['Subject', 'To', 'Patient', 'Status']) {
    await expect.poll(() => columnFullyShown(page, column), { message: `${column} at 1024 px` }).toBe(true);
  }
  // The whole patient name is there to read (it wraps), and the draft's status.
  expect(await row.getByText('Featherstonehaugh-Cholmondeley, Maximiliana', { exact: true }).isVisible()).toBe(true);
  expect(await row.getByText('Draft', { exact: true }).isVisible()).toBe(true);
  mkdirSync(path.join(RESULTS_DIR, 'screens'), { recursive: true });
  await page.screenshot({ path: path.join(RESULTS_DIR, 'screens', 'release-list-1024.png') });
});
