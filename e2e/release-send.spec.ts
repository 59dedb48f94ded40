import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { apiSignIn, choose, composeReferral, expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Release end to end: compose with a real PDF, send, and watch each recipient get delivered by the
// workers of the running server.

async function sendAndOpen(page: Page, subject: string) {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const review = page.getByRole('dialog', { name: 'Review and Send' });
  await review.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('The message was sent successfully.').waitFor();
  await expectPath(page, '/release');
  await page.getByRole('link', { name: subject, exact: true }).click();
  await expectHeading(page, subject);
}

// Workers deliver in the background: reload until the recipient's row shows the status.
async function expectDelivery(page: Page, recipient: string, status: string) {
  await expect
    .poll(
      async () => {
        await page.reload();
        const row = page.getByRole('row').filter({ hasText: recipient });
        await row.first().waitFor();
        return row.first().innerText();
      },
      { timeout: 20_000, interval: 1_000 },
    )
    .toContain(status);
}

// The receiving side through the API, as Riverview's Intake client calls it (signs in on its own, outside the browser's session).
async function riverviewOpensInIntake(baseUrl: string, subject: string) {
  const auth = await apiSignIn(baseUrl, 'user@riverview.example.org');
  const headers = { ...auth, 'content-type': 'application/json' };

  const list = await fetch(`${baseUrl}/api/messages`, { method: 'POST', headers, body: JSON.stringify({ filter: subject }) });
  expect(list.status).toBe(200);
  const { items, totalCount } = (await list.json()) as { items: { id: string; subject: string; attachmentCount: number }[]; totalCount: number };
  expect(totalCount).toBe(1);
  expect(items[0]).toMatchObject({ subject, fromAddress: 'intake@lakeside.direct.example.org', patientName: 'Alvarez, Maria', attachmentCount: 1 });

  const message = (await (await fetch(`${baseUrl}/api/messages/${items[0]!.id}`, { headers })).json()) as { attachments: { id: string; fileName: string }[] };
  expect(message.attachments.map((a) => a.fileName)).toEqual(['ud-sample.pdf']);
  const file = await fetch(`${baseUrl}/api/messages/${items[0]!.id}/attachments/${message.attachments[0]!.id}`, { headers: auth });
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toContain('application/pdf');
  expect(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('%PDF');
}

// Send, delivery and the receiving side's check: longer than the default journey timeout on a loaded machine.
test('Lakeside composes a referral with a PDF and a patient, sends it to Riverview, and sees it delivered', { timeout: 60_000 }, async ({ page, baseUrl }) => {
  // Unique per run, so the Intake search finds this message and no other.
  const subject = `Cardiology referral for Maria Alvarez ${Date.now().toString(36)}`;
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await composeReferral(page, ['referrals@riverview.direct.example.org'], subject);
  await sendAndOpen(page, subject);
  await expectDelivery(page, 'referrals@riverview.direct.example.org', 'Delivered');
  await page.getByText('Alvarez').first().waitFor();
  await riverviewOpensInIntake(baseUrl, subject);
});

test('Lakeside faxes a document to a fax number hosted here and to another Direct domain', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await composeReferral(page, ['5035550101', 'records@elsewhere.example.com'], 'Records for Maria Alvarez');
  // A fax recipient brings the fax options.
  await page.getByRole('checkbox', { name: 'Include cover sheet' }).waitFor();
  await sendAndOpen(page, 'Records for Maria Alvarez');
  await expectDelivery(page, '503-555-0101', 'Delivered');
  await expectDelivery(page, 'records@elsewhere.example.com', 'Awaiting Direct transport');
});

// Two sends and two deliveries: longer than the default journey timeout on a loaded machine.
test('Lakeside forwards a sent referral with its attachment, and the forward is delivered too', { timeout: 90_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await composeReferral(page, ['referrals@riverview.direct.example.org'], 'Echo results for Maria Alvarez');
  await sendAndOpen(page, 'Echo results for Maria Alvarez');

  await page.getByRole('link', { name: 'Forward' }).click();
  await expectHeading(page, 'Forward message');
  expect(await page.getByRole('textbox', { name: 'Subject', exact: true }).inputValue()).toBe('FW: Echo results for Maria Alvarez');
  await page.getByText('Forwarded with the original: ud-sample.pdf').waitFor();
  const toInput = page.getByRole('combobox', { name: 'To', exact: true });
  await toInput.fill('5035550202');
  await toInput.press('Enter');
  await choose(page, 'From', 'intake@lakeside.direct.example.org');
  await choose(page, 'Release type', 'Referral');
  await sendAndOpen(page, 'FW: Echo results for Maria Alvarez');
  await page.getByText('ud-sample.pdf', { exact: true }).waitFor();
  await expectDelivery(page, '503-555-0202', 'Delivered');
});

test('Lakeside removes an address from its saved Direct addresses', { timeout: 60_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  // Sending to an address saves it for the To field's suggestions.
  const subject = `Referral for the saved addresses ${Date.now().toString(36)}`;
  await composeReferral(page, ['referrals@riverview.direct.example.org'], subject);
  await sendAndOpen(page, subject);

  await page.goto('/release/new');
  await expectHeading(page, 'New message');
  await page.getByRole('button', { name: 'Saved Direct addresses' }).click();
  const dialog = page.getByRole('dialog', { name: 'Saved Direct addresses' });
  const save = dialog.getByRole('button', { name: 'Save Changes' });
  await dialog.getByRole('cell', { name: 'referrals@riverview.direct.example.org', exact: true }).waitFor();
  expect(await save.isDisabled()).toBe(true);
  await dialog.getByRole('button', { name: 'Remove referrals@riverview.direct.example.org' }).click();
  expect(await save.isDisabled()).toBe(false);
  await save.click();
  await page.getByText('Direct Address Cache has been saved successfully.').waitFor();

  await page.getByRole('button', { name: 'Saved Direct addresses' }).click();
  await page.getByRole('dialog', { name: 'Saved Direct addresses' }).waitFor();
  expect(await page.getByRole('dialog', { name: 'Saved Direct addresses' }).getByRole('cell', { name: 'referrals@riverview.direct.example.org', exact: true }).count()).toBe(0);
});
