import { expect } from 'vitest';
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
