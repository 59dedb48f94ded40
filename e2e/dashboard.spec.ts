import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// The Administrator's dashboard (issue 13 §1): Lakeside's Administrator lands on it after signing in.

test('Lakeside’s Administrator lands on the dashboard and sees statistics, what needs attention and recent activity', { timeout: 90_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await expectPath(page, '/account/dashboard');
  await expectHeading(page, 'Dashboard');

  const statistics = page.getByRole('region', { name: 'Message statistics' });
  await statistics.getByText('Last 30 days').waitFor();
  for (const label of ['Received', 'Sent', 'Failed', 'Unprocessed', 'Unassigned']) {
    await statistics.getByLabel(new RegExp(`^${label}: \\d+$`)).waitFor();
  }

  const attention = page.getByRole('region', { name: 'What needs attention' });
  await attention.getByRole('heading', { name: 'Failed messages' }).waitFor();
  await attention.getByRole('heading', { name: 'Users who never signed in' }).waitFor();
  // Every sub-part has answered: a list, a count or its plain empty text.
  await expect.poll(async () => attention.getByText(/^Loading/).count(), { timeout: 10_000 }).toBe(0);

  const activity = page.getByRole('region', { name: 'Recent activity' });
  await activity.getByRole('table', { name: 'Recent activity' }).or(activity.getByText('No message activity in the last 14 days.')).waitFor();
  // A Lakeside organization is activated: no onboarding checklist.
  expect(await page.getByRole('region', { name: 'Getting started' }).count()).toBe(0);

  await expectNoAxeViolations(page, 'account dashboard');
  await screenshot(page, 'account-dashboard');
});
