import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { UD_SAMPLE } from './support/constants.ts';
import { apiSignIn, choose, composeReferral, expectHeading, expectPath, openSignIn, sendAndOpen, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Release end to end: compose with a real PDF, send, and watch each recipient get delivered by the
// workers of the running server.

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

test('Lakeside faxes a document to a fax number hosted here and to a Direct address of another domain that has no certificate', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await composeReferral(page, ['5035550101', 'records@elsewhere.example.com'], 'Records for Maria Alvarez');
  // A fax recipient brings the fax options; the To field says, per recipient, what sending will meet.
  await page.getByRole('checkbox', { name: 'Include cover sheet' }).waitFor();
  const notes = page.getByRole('list', { name: 'Notes on the To addresses' });
  await notes.getByText('Fax number').waitFor();
  await notes.getByText('No certificate found for this address (DNS and LDAP tried)').waitFor();
  await sendAndOpen(page, 'Records for Maria Alvarez');
  // The sandbox fax provider delivers to a number hosted here without a real fax, and says so.
  await expectDelivery(page, '503-555-0101', 'Delivered to an organization on this installation (sandbox: no real fax was sent)');
  // Direct found no certificate for the outside address (DNS and LDAP): its timeline says so, in plain words.
  await expectDelivery(page, 'records@elsewhere.example.com', 'No certificate found for this address (DNS and LDAP tried)');
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

// Files dropped on the page as a browser hands them over: a DataTransfer built in the page (evaluated
// as text: this project has no DOM library).
async function dropFiles(page: Page, files: { name: string; base64: string }[]) {
  const dataTransfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const file of ${JSON.stringify(files)}) {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: 'application/pdf' }));
    }
    return transfer;
  })()`);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await page.dispatchEvent('body', 'dragover', { dataTransfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer });
}

// A paste of `text` into the focused field, as the browser fires it.
async function paste(page: Page, text: string) {
  await page.evaluate(`(() => {
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/plain', ${JSON.stringify(text)});
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  })()`);
}

// Issue 9: a pasted address list makes one tag per address, a wrong birth date is caught as it is typed,
// and two files dropped at once are attached together, each with its own upload.
test('Lakeside pastes a list of recipients, is told at once of a wrong birth date, and drops two files on the page', { timeout: 60_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await page.goto('/release/new');
  await expectHeading(page, 'New message');
  await expect.poll(() => page.title()).toBe('New message · ClinicRelay');

  const toInput = page.getByRole('combobox', { name: 'To', exact: true });
  await toInput.focus();
  await paste(page, 'referrals@riverview.direct.example.org; records@elsewhere.example.com, 503-555-0202');
  const to = page.locator('.mantine-TagsInput-root');
  for (const tag of ['referrals@riverview.direct.example.org', 'records@elsewhere.example.com', '5035550202']) await to.getByText(tag, { exact: true }).waitFor();

  const birthDate = page.getByRole('textbox', { name: 'Birth date', exact: true });
  await birthDate.fill('02/30/2001');
  await birthDate.press('Tab');
  await page.getByText('"Patient Birth Date" is invalid.').waitFor();
  expect(await birthDate.getAttribute('aria-invalid')).toBe('true');
  await birthDate.fill('4/12/58');
  await birthDate.press('Tab');
  await expect.poll(() => birthDate.inputValue()).toBe('04/12/1958');
  expect(await page.getByText('"Patient Birth Date" is invalid.').count()).toBe(0);

  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill(`Records for Maria Alvarez ${Date.now().toString(36)}`);
  const pdf = readFileSync(UD_SAMPLE).toString('base64');
  // A long name (up to 255 characters) must not widen the page anywhere.
  const longName = `${'Cardiology-consultation-note-for-Maria-Alvarez-'.repeat(4)}2026.pdf`;
  await dropFiles(page, [
    { name: 'referral-letter.pdf', base64: pdf },
    { name: longName, base64: pdf },
  ]);
  const dialog = page.getByRole('dialog', { name: 'Attach a new file' });
  const files = dialog.getByRole('table', { name: 'Files to attach' });
  await files.getByText('referral-letter.pdf').waitFor();
  await files.getByText(`${longName.slice(0, 60)}…`).waitFor();
  await screenshot(page, 'release-compose-attach-two-files');
  await expectNoWiderThanWindow(page);
  await expectNoAxeViolations(page, 'attach a new file with two dropped files');
  await dialog.getByRole('button', { name: 'Attach', exact: true }).click();
  await page.getByText('2 files were attached.').waitFor();
  // The first file made the draft: it now lives at its own address.
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/release\/draft\//);
  await page.getByRole('button', { name: 'referral-letter.pdf', exact: true }).waitFor();
  await page.getByRole('button', { name: longName, exact: true }).waitFor();

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // Everything still missing is listed at once, and the fields are marked.
  const problems = page.getByRole('alert').filter({ hasText: 'Please fix the following errors before sending.' });
  // The user may send from one address only (issue 13 §2): compose chose it for them.
  expect(await page.getByRole('combobox', { name: 'From', exact: true }).inputValue()).toBe('intake@lakeside.direct.example.org');
  await problems.getByText('"Release Type" is required.').waitFor();
  await problems.getByText('"Patient First Name" is required.').waitFor();
  await problems.getByText('"Patient Gender" is required.').waitFor();
  expect(await page.getByRole('dialog', { name: 'Review and Send' }).count()).toBe(0);

  await screenshot(page, 'release-compose');
  await page.getByRole('button', { name: 'referral-letter.pdf', exact: true }).scrollIntoViewIfNeeded();
  await screenshot(page, 'release-compose-attachments');
  await expectNoWiderThanWindow(page);
  await expectNoAxeViolations(page, 'release compose with its errors listed');

  // Completed, it goes out.
  await choose(page, 'From', 'intake@lakeside.direct.example.org');
  await choose(page, 'Release type', 'Referral');
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Maria');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Alvarez');
  await choose(page, 'Gender', 'Female');
  const subject = await page.getByRole('textbox', { name: 'Subject', exact: true }).inputValue();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const review = page.getByRole('dialog', { name: 'Review and Send' });
  await review.getByText('Attachments: 2').waitFor();
  await review.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('The message was sent successfully.').first().waitFor();
  await expectPath(page, '/release');
  await page.getByRole('link', { name: subject, exact: true }).click();
  await expectHeading(page, subject);
  await expect.poll(() => page.title()).toBe(`${subject} · ClinicRelay`);
  await expectDelivery(page, '503-555-0202', 'Delivered to an organization on this installation (sandbox: no real fax was sent)');
  await page.getByRole('button', { name: longName, exact: true }).waitFor();
  await screenshot(page, 'release-message');
  await expectNoWiderThanWindow(page);
  await expectNoAxeViolations(page, 'release message with a sandbox fax and a long file name');
});

async function expectNoWiderThanWindow(page: Page) {
  expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);
}
