import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn, waitForExpression } from './support/journeys.ts';
import { test } from './support/test.ts';

// back-office-b §2 Messages browser: a system administrator finds the demo world's referrals to Riverview among the
// raw messages, opens one and reads its workflow steps, attachments and events.

const dataRows = (page: Page) => page.getByRole('table', { name: 'Messages' }).getByRole('button', { name: /^(Show|Hide) details of message / });

test('a system administrator filters the raw messages, expands one and sees its tabs', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/messages');
  await expectHeading(page, 'Messages');
  await dataRows(page).first().waitFor();

  await page.getByRole('searchbox', { name: 'Search sender, recipient or HISP message id' }).fill('riverview');
  await page.getByRole('combobox', { name: 'Direction' }).selectOption('Outbound');
  await page.waitForURL(/filter_Direction=equals%3AOutbound/);
  // The demo referrals were delivered by the workers: their send workflows completed.
  await page.getByRole('combobox', { name: 'Workflow status' }).selectOption('Completed');
  await page.waitForURL(/filter_WorkflowStatus=equals%3ACompleted/);
  await page.waitForURL(/search=riverview/);
  const table = page.getByRole('table', { name: 'Messages' });
  // Every row left is an outbound message to a Riverview address.
  await table.getByRole('cell', { name: 'Outbound', exact: true }).first().waitFor();
  await waitForExpression(
    page,
    `(() => { const rows = [...document.querySelectorAll('table[aria-label="Messages"] > tbody > tr')];
      return rows.length > 0 && rows.every((row) => row.textContent.includes('Outbound') && row.textContent.includes('Completed')
        && row.textContent.toLowerCase().includes('riverview')); })()`,
  );

  const first = dataRows(page).first();
  await first.click();
  const tabs = page.getByRole('tablist', { name: /^Details of message / }).first();
  for (const name of ['Workflows', 'Attachments', 'Events']) await tabs.getByRole('tab', { name }).waitFor();
  // The send workflow with its step grid.
  await page.getByRole('table', { name: /^Steps of workflow / }).first().waitFor();
  await page.getByText('send-message').first().waitFor();
  await screenshot(page, 'message-browser');
  await expectNoAxeViolations(page, 'message-browser');

  await tabs.getByRole('tab', { name: 'Attachments' }).click();
  await page.getByRole('table', { name: 'Attachments' }).or(page.getByText('No attachments.')).first().waitFor();
  await tabs.getByRole('tab', { name: 'Events' }).click();
  await page.getByRole('table', { name: 'Events' }).getByRole('cell', { name: 'Sent', exact: true }).first().waitFor();
  await expectNoAxeViolations(page, 'message-browser-events');

  await page.getByRole('button', { name: 'Expand all' }).click();
  await page.getByRole('button', { name: 'Compress all' }).click();
  await page.getByRole('tablist').first().waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByText('Messages refreshed.').waitFor();
});

test('a reporting administrator is not shown the message browser', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'reporting@example.org');
  await page.goto('/admin/messages');
  await page.waitForURL((url) => url.pathname !== '/admin/messages');
  await page.getByRole('table', { name: 'Messages' }).waitFor({ state: 'detached' });
});
