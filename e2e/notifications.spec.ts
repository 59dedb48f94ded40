import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 13 §5: an Administrator chooses which mails they get and the organization's time for the daily ones; both stay.

test('an Administrator sets their notification mails and the daily time, and finds them again', { timeout: 60_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Notifications' }).click();
  await expectHeading(page, 'Notifications');
  const mails = page.getByRole('region', { name: 'Email me about' });
  const unprocessed = mails.getByRole('checkbox', { name: /^Unprocessed messages/ });
  const before = await unprocessed.isChecked();
  await unprocessed.setChecked(!before);
  await mails.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Your notification settings were saved.').waitFor();

  const daily = page.getByRole('region', { name: 'Daily reminders and digests' });
  await daily.getByLabel(/^Time/).first().fill('07:30');
  await daily.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The notification settings were saved.').waitFor();
  await screenshot(page, 'settings-notifications');
  await expectNoAxeViolations(page, 'settings-notifications');

  await page.reload();
  await expectHeading(page, 'Notifications');
  await expect.poll(() => mails.getByRole('checkbox', { name: /^Unprocessed messages/ }).isChecked()).toBe(!before);
  await expect.poll(() => daily.getByLabel(/^Time/).first().inputValue()).toBe('07:30');
  // As it was, for the other journeys.
  await mails.getByRole('checkbox', { name: /^Unprocessed messages/ }).setChecked(before);
  await mails.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Your notification settings were saved.').first().waitFor();
});
