import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { REFERRAL_NOTE, RESULTS_DIR } from './support/constants.ts';
import { apiSignIn, choose, composeReferral, expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Intake end to end: Lakeside sends a referral to Riverview; Riverview's user works it in Intake while
// an administrator of Riverview opens the same message and each sees the other (realtime hub).

async function newContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  return context;
}

async function lakesideSends(page: Page, subject: string) {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await composeReferral(page, ['referrals@riverview.direct.example.org'], subject);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Review and Send' }).getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('The message was sent successfully.').waitFor();
}

// Local delivery runs in the background: search the Intake until the message is there, then open it.
async function openFromIntake(page: Page, subject: string) {
  await page.goto('/intake');
  await expectHeading(page, 'Intake');
  await page.getByRole('searchbox', { name: 'Search' }).fill(subject);
  const link = page.getByRole('link', { name: subject, exact: true });
  await expect
    .poll(
      async () => {
        if (await link.isVisible()) return true;
        await page.reload();
        await expectHeading(page, 'Intake');
        return link.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
  await link.click();
  await expectHeading(page, subject);
}

const saved = (page: Page, method: string, suffix: RegExp) =>
  page.waitForResponse((r) => r.request().method() === method && suffix.test(new URL(r.url()).pathname) && r.ok());

test('Riverview opens a referral in Intake, rotates a page, sets its document type and processes it as Printed while an administrator sees it is open', { timeout: 120_000 }, async ({ page, browser, baseUrl }) => {
  const subject = `Intake referral for Maria Alvarez ${Date.now().toString(36)}`;
  await lakesideSends(page, subject);

  const riverview = await newContext(browser, baseUrl);
  const admin = await newContext(browser, baseUrl);
  // The browser's print dialog would block the journey: the print window records the call instead.
  // (Structural types: the e2e project has no DOM library.)
  await riverview.addInitScript(() => {
    const page = globalThis as unknown as { print: () => void; printed?: boolean };
    page.print = () => void (page.printed = true);
  });
  try {
    const user = await riverview.newPage();
    await openSignIn(user);
    await signIn(user, 'user@riverview.example.org');
    await openFromIntake(user, subject);
    const messagePath = new URL(user.url()).pathname;
    expect(messagePath).toMatch(/^\/intake\/[0-9a-f-]{36}$/);

    // The administrator opens the same message: each sees the other.
    const adminPage = await admin.newPage();
    await openSignIn(adminPage);
    await signIn(adminPage, 'admin@riverview.example.org');
    await adminPage.goto(messagePath);
    await expectHeading(adminPage, subject);
    await adminPage.getByText('Ray Banks currently has this message open.').waitFor({ timeout: 15_000 });
    await user.getByText('Rachel Rivers has opened this message.').waitFor({ timeout: 15_000 });

    // Rotate the first page of the selected attachment (editable in Intake while selected).
    const viewer = user.getByRole('region', { name: 'Document viewer: ud-sample.pdf' });
    await viewer.getByText('Page 1 of 3', { exact: true }).waitFor({ timeout: 15_000 });
    await Promise.all([saved(user, 'PUT', /\/transforms$/), viewer.getByRole('button', { name: 'Rotate page' }).click()]);

    const [typeSaved] = await Promise.all([saved(user, 'PUT', /\/attachments$/), choose(user, 'Document type', 'Referral Letter')]);
    expect(((await typeSaved.json()) as { attachmentMeta: { documentType: string } | null }[])[0]?.attachmentMeta?.documentType).toBe('Referral Letter');

    await user.getByRole('button', { name: 'Process', exact: true }).click();
    await Promise.all([saved(user, 'PUT', /\/process$/), user.getByRole('menuitem', { name: 'Printed', exact: true }).click()]);
    await user.getByText('The message has been successfully processed.').waitFor();

    // Print opens its own window, which gets the token and ids by postMessage, not in its address.
    const [printWindow] = await Promise.all([user.waitForEvent('popup'), user.getByRole('button', { name: 'Print message', exact: true }).click()]);
    await expect.poll(() => printWindow.evaluate(() => (globalThis as unknown as { printed?: boolean }).printed === true), { timeout: 20_000 }).toBe(true);
    expect(new URL(printWindow.url()).pathname + new URL(printWindow.url()).search).toBe('/intake/print');
    expect(await printWindow.locator('canvas').count()).toBe(3);
    await printWindow.close();

    // Back in the list the message carries the printed icon and the Processed badge.
    await user.goto('/intake');
    await user.getByRole('searchbox', { name: 'Search' }).fill(subject);
    const row = user.getByRole('row').filter({ has: user.getByRole('link', { name: subject, exact: true }) });
    await row.getByRole('img', { name: 'Printed' }).waitFor();
    await expectPath(user, '/intake');
  } catch (error) {
    // The fixture screenshots only its own page; these two are where this journey happens.
    mkdirSync(RESULTS_DIR, { recursive: true });
    for (const [name, context] of [['riverview-user', riverview], ['riverview-admin', admin]] as const) {
      for (const [index, open] of context.pages().entries()) await open.screenshot({ path: path.join(RESULTS_DIR, `intake-${name}-${index}.png`), fullPage: true }).catch(() => undefined);
    }
    throw error;
  } finally {
    await riverview.close();
    await admin.close();
  }
});

// A C-CDA referral note (a fixture, read where it lives) sent by Riverview through the API.
async function riverviewSendsReferralNote(baseUrl: string, subject: string) {
  const auth = await apiSignIn(baseUrl, 'admin@riverview.example.org');
  const json = { ...auth, 'content-type': 'application/json' };
  const releaseTypes = (await (await fetch(`${baseUrl}/api/releasetypes`, { headers: auth })).json()) as { id: string; name: string }[];
  const draft = await fetch(`${baseUrl}/api/messages`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({
      subject,
      toAddress: 'intake@lakeside.direct.example.org',
      fromAddress: 'referrals@riverview.direct.example.org',
      releaseTypeId: releaseTypes.find((t) => t.name === 'Referral')?.id,
      patient: { firstName: 'Isabella', lastName: 'Jones', birthDate: '1975-05-01', gender: 'F', patientIds: [] },
    }),
  });
  expect(draft.status).toBe(200);
  const { id } = (await draft.json()) as { id: string };
  const form = new FormData();
  form.append('attachmentMeta', JSON.stringify({ documentDate: new Date().toISOString().slice(0, 10), documentDateType: 'today', confidentiality: 'Normal' }));
  form.append('file', new Blob([readFileSync(REFERRAL_NOTE)], { type: 'application/xml' }), 'referral-note.xml');
  expect((await fetch(`${baseUrl}/api/messages/${id}/attachments`, { method: 'POST', headers: auth, body: form })).status).toBe(200);
  const sent = await fetch(`${baseUrl}/api/messages/${id}/send`, { method: 'POST', headers: auth });
  expect(sent.status, await sent.text()).toBe(200);
}

test('Lakeside reads a C-CDA referral note in the CDA Explorer, section by section', { timeout: 90_000 }, async ({ page, baseUrl }) => {
  const subject = `C-CDA referral note ${Date.now().toString(36)}`;
  await riverviewSendsReferralNote(baseUrl, subject);

  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await openFromIntake(page, subject);
  await page.getByRole('tab', { name: 'CDA Explorer' }).click();
  const contents = page.getByRole('navigation', { name: 'Table of contents' });
  for (const section of ['REASON FOR REFERRAL', 'HISTORY OF PRESENT ILLNESS', 'MEDICATIONS', 'VITAL SIGNS']) {
    await contents.getByRole('link', { name: section, exact: true }).waitFor();
  }
  await contents.getByRole('link', { name: 'VITAL SIGNS', exact: true }).click();
  await page.getByRole('heading', { name: 'VITAL SIGNS', exact: true }).waitFor();
  // Built from the parsed XML: the document's own patient heads the header card.
  await page.getByText('Everywoman', { exact: false }).first().waitFor();
});
