import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// The messaging health dashboard (issue 27 §1): a system administrator lands on it and sees the system alerts, and the
// inbound and outbound figures per channel that the demo world's sends (delivered by the server's workers) produced.

test('the system administrator sees system alerts and messaging per channel, each figure linking to the failed workflows', { timeout: 120_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await expectPath(page, '/admin/dashboard/messaging');
  await expectHeading(page, 'Messaging dashboard');

  const alerts = page.getByRole('table', { name: 'System Alerts' });
  for (const name of ['Failed workflows in the last hour', 'Work waiting', 'Direct recipients without an MDN', 'Certificates expiring', 'Trust anchors expiring', 'Mail outbox', 'Virus scanner', 'Workflow workers', 'Data folder disk']) {
    await alerts.getByRole('cell', { name, exact: true }).waitFor();
  }
  // The server runs the workers: their heartbeat is seen.
  await expect.poll(() => page.locator('[data-alert="Workers"]').getAttribute('data-status'), { timeout: 20_000 }).toBe('OK');
  await page.locator('[data-alert="Workers"]').getByRole('link', { name: 'View: Workflow workers' }).waitFor();

  const outbound = page.getByRole('region', { name: 'Outbound messaging' });
  const inbound = page.getByRole('region', { name: 'Inbound messaging' });
  await outbound.getByText('Last 24 hours').waitFor();
  for (const channel of ['Direct (SMTP)', 'Local delivery', 'Fax']) {
    await outbound.getByRole('link', { name: channel, exact: true }).waitFor();
    await inbound.getByRole('link', { name: channel, exact: true }).waitFor();
  }
  expect(await outbound.getByRole('link', { name: 'Local delivery', exact: true }).getAttribute('href')).toBe('/admin/dashboard/messaging/workflows?status=Failed&type=release&channel=Local');
  expect(await inbound.getByRole('link', { name: 'Direct (SMTP)', exact: true }).getAttribute('href')).toBe('/admin/dashboard/messaging/workflows?status=Failed&type=intake&channel=Direct');
  // The demo world's sends were delivered here by the workers: figures counted from the rollups, refreshed every 10 s.
  const localTotal = outbound.getByRole('link', { name: /^Local delivery outbound total: \d+$/ });
  await expect.poll(async () => Number((await localTotal.textContent()) ?? 0), { timeout: 30_000 }).toBeGreaterThan(0);
  await outbound.getByRole('table', { name: 'Outbound messaging: messages per hour' }).waitFor({ state: 'attached' });

  await page.getByRole('region', { name: 'Workers' }).getByRole('table', { name: 'Workers' }).waitFor();
  await expectNoAxeViolations(page, 'messaging dashboard');
  await screenshot(page, 'messaging-dashboard');
});

test('SysAdminReporting sees the dashboard without the organizations queues', { timeout: 90_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'reporting@example.org');
  await expectPath(page, '/admin/dashboard/messaging');
  await page.getByRole('table', { name: 'System Alerts' }).waitFor();
  await page.getByRole('region', { name: 'Outbound messaging' }).getByRole('link', { name: 'Fax', exact: true }).waitFor();
  expect(await page.getByRole('heading', { name: 'Organizations waiting' }).count()).toBe(0);
});
