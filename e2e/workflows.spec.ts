import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { apiSignIn, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 27 §2: a Direct send to an address no certificate can be found for fails; a system administrator finds its
// workflow in the grid the dashboard links to, retries the failed step and sees the one more try; then looks the
// message up in the utilities and decodes its object id.

const NOWHERE = 'nobody@nowhere.example.com';
// The e2e server's workers run the send in the background: seconds, with room for a loaded machine.
const WORKFLOW_MS = 30_000;

async function sendToNowhere(baseUrl: string): Promise<string> {
  const auth = await apiSignIn(baseUrl, 'user@lakeside.example.org');
  const headers = { ...auth, 'content-type': 'application/json' };
  const types = (await (await fetch(`${baseUrl}/api/releasetypes`, { headers })).json()) as { id: string }[];
  const draft = await fetch(`${baseUrl}/api/messages`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({
      toAddress: NOWHERE,
      subject: `Referral ${Date.now().toString(36)}`,
      fromAddress: 'intake@lakeside.direct.example.org',
      body: 'Please see this patient.',
      releaseTypeId: types[0]!.id,
      patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
      properties: { includeCoverPage: true, includeMessageBody: true, includeAttachmentDescriptions: true },
    }),
  });
  expect(draft.status).toBe(200);
  const { id } = (await draft.json()) as { id: string };
  const sent = await fetch(`${baseUrl}/api/messages/${id}/send`, { method: 'POST', headers: auth });
  expect(sent.status, await sent.text()).toBe(200);
  return id;
}

const stepRow = (page: Page, name: string) => page.getByRole('table', { name: /^Steps of workflow/ }).getByRole('row').filter({ hasText: name });

test('a failed Direct send is found in the workflows grid, retried once, and looked up in the utilities', { timeout: 120_000 }, async ({ page, baseUrl }) => {
  const messageId = await sendToNowhere(baseUrl);

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  // The dashboard's link for failed outbound Direct workflows, then the message's id in the search box.
  await page.goto('/admin/dashboard/messaging/workflows?status=Failed&type=release&channel=Direct');
  await expectHeading(page, 'Workflows');
  await page.getByRole('textbox', { name: 'Search' }).fill(messageId);
  const workflows = page.getByRole('table', { name: 'Workflows', exact: true });
  const row = workflows.getByRole('row').filter({ hasText: messageId });
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.getByRole('button', { name: 'Refresh' }).click();
        return row.count();
      },
      { timeout: WORKFLOW_MS, interval: 1_000 },
    )
    .toBe(1);
  await row.getByText('Failed', { exact: true }).waitFor();
  expect(new URL(page.url()).searchParams.get('status')).toBe('Failed');

  await row.getByRole('button', { name: /^Show steps of workflow/ }).click();
  const seal = stepRow(page, 'direct-seal');
  await seal.getByText('Failed', { exact: true }).waitFor();
  await seal.getByText(/No certificate found for this address/).waitFor();
  await screenshot(page, 'workflows-grid-failed');
  await expectNoAxeViolations(page, 'workflows grid with a failed Direct send');

  await seal.getByRole('button', { name: `Retry direct-seal ${NOWHERE}` }).click();
  await page.getByText('The step will run again.').waitFor();
  // One more try: still no certificate, so the step is Failed again after its second attempt.
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForTimeout(300);
        const open = await page.getByRole('table', { name: /^Steps of workflow/ }).count();
        if (!open) await row.getByRole('button', { name: /^Show steps of workflow/ }).click();
        return (await seal.innerText()).replace(/\s+/g, ' ');
      },
      { timeout: WORKFLOW_MS, interval: 1_000 },
    )
    .toMatch(/direct-seal .* failed .* 2 No certificate found/i);
  await screenshot(page, 'workflows-grid-retried');

  // Utilities: the message id finds its workflow; its object id decodes back to the message.
  await page.goto('/admin/utils');
  await expectHeading(page, 'Utilities');
  await page.getByRole('textbox', { name: 'Message, workflow or object ID' }).fill(messageId);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('table', { name: 'Lookup results' });
  await results.getByText('send-message (Failed)').waitFor();
  const objectId = (await results.getByRole('row').nth(1).getByRole('cell').nth(2).innerText()).split(/\s/)[0]!;
  expect(objectId).toMatch(/^[A-Za-z0-9_-]{23}$/);
  await page.getByRole('textbox', { name: 'Object IDs', exact: true }).fill(`${objectId},\nnot-an-id`);
  await page.getByRole('button', { name: 'Decode' }).nth(1).click();
  const decoded = page.getByRole('table', { name: 'Object ID results' });
  await decoded.getByRole('row').filter({ hasText: 'not an object id' }).waitFor();
  await decoded.getByRole('row').filter({ hasText: objectId }).getByText(messageId).first().waitFor();
  await decoded.getByRole('row').filter({ hasText: objectId }).getByText('message', { exact: true }).waitFor();
  await screenshot(page, 'utilities-lookup');
  await expectNoAxeViolations(page, 'utilities with a lookup and decoded object ids');
});

test('bulk retry reports each id, and the spec’s messages for a missing field', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/workflows');
  await expectHeading(page, 'Bulk workflow retry');
  await page.getByRole('button', { name: 'Submit' }).click();
  for (const text of ['Type is missing.', 'Step Type is missing.', 'Workflow Ids are missing.']) await page.getByText(text, { exact: true }).waitFor();
  await page.getByRole('combobox', { name: /^Workflow type/ }).selectOption('send');
  await page.getByRole('textbox', { name: /^Retry at step/ }).fill('deliver');
  await page.getByRole('textbox', { name: /^Workflow IDs/ }).fill('00000000-0000-4000-8000-000000000000, not-an-id');
  await page.getByRole('button', { name: 'Submit' }).click();
  const results = page.getByRole('table', { name: 'Retry results' });
  await results.getByRole('row').filter({ hasText: 'not-an-id' }).getByText('NotFound').waitFor();
  await expect.poll(() => results.getByRole('row').count()).toBe(3);
  await screenshot(page, 'workflows-bulk-retry');
  await expectNoAxeViolations(page, 'bulk workflow retry with results');
});
