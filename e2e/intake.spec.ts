import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { REFERRAL_NOTE, RESULTS_DIR, UD_SAMPLE } from './support/constants.ts';
import { apiSignIn, choose, composeReferral, expectHeading, expectPath, openSignIn, signIn, untilListed } from './support/journeys.ts';
import { newContext, test } from './support/test.ts';

// Intake end to end: Lakeside sends a referral to Riverview; Riverview's user works it in Intake while
// an administrator of Riverview opens the same message and each sees the other (realtime hub).

async function lakesideSends(page: Page, subject: string) {
  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await composeReferral(page, ['referrals@riverview.direct.example.org'], subject);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Review and Send' }).getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('The message was sent successfully.').waitFor();
}

async function openFromIntake(page: Page, subject: string) {
  await page.goto('/intake');
  await expectHeading(page, 'Intake');
  await page.getByRole('searchbox', { name: 'Search' }).fill(subject);
  const link = page.getByRole('link', { name: subject, exact: true });
  await untilListed(page, link);
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
    // One badge says how it was processed.
    await row.getByText('Printed', { exact: true }).waitFor();
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

  // Print takes the C-CDA too, readable as the explorer shows it (the print dialog is recorded, not shown).
  await page.context().addInitScript(() => {
    const window = globalThis as unknown as { print: () => void; printed?: boolean };
    window.print = () => void (window.printed = true);
  });
  const [printWindow] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Print message', exact: true }).click()]);
  await expect.poll(() => printWindow.evaluate(() => (globalThis as unknown as { printed?: boolean }).printed === true), { timeout: 20_000 }).toBe(true);
  const printed = printWindow.getByRole('article', { name: 'referral-note.xml' });
  await printed.getByRole('heading', { name: 'REASON FOR REFERRAL', exact: true }).waitFor();
  await printed.getByText('Everywoman', { exact: false }).first().waitFor();
  await printWindow.close();
});

// Riverview sends Lakeside a referral through the API with a long subject, the scanned referral under a
// long file name and a long unbroken note: the texts that used to widen the Intake screens.
async function riverviewSendsLongReferral(baseUrl: string, subject: string, fileName: string, note: string) {
  const auth = await apiSignIn(baseUrl, 'user@riverview.example.org');
  const json = { ...auth, 'content-type': 'application/json' };
  const releaseTypes = (await (await fetch(`${baseUrl}/api/releasetypes`, { headers: auth })).json()) as { id: string; name: string }[];
  const draft = await fetch(`${baseUrl}/api/messages`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({
      subject,
      body: 'Please see Ms. Alvarez for palpitations. Notes attached.',
      toAddress: 'intake@lakeside.direct.example.org',
      fromAddress: 'referrals@riverview.direct.example.org',
      releaseTypeId: releaseTypes.find((t) => t.name === 'Referral')?.id,
      patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F', patientIds: [] },
    }),
  });
  expect(draft.status, await draft.clone().text()).toBe(200);
  const { id } = (await draft.json()) as { id: string };
  const form = new FormData();
  form.append(
    'attachmentMeta',
    JSON.stringify({ documentDate: new Date().toISOString().slice(0, 10), documentDateType: 'today', confidentiality: 'Normal', documentDescription: note }),
  );
  form.append('file', new Blob([readFileSync(UD_SAMPLE)], { type: 'application/pdf' }), fileName);
  const attached = await fetch(`${baseUrl}/api/messages/${id}/attachments`, { method: 'POST', headers: auth, body: form });
  expect(attached.status, await attached.text()).toBe(200);
  const sent = await fetch(`${baseUrl}/api/messages/${id}/send`, { method: 'POST', headers: auth });
  expect(sent.status, await sent.text()).toBe(200);
}

// Neither the page nor a table's own scroll area scrolls sideways (no DOM library in this project: evaluated as
// text). A table one pixel too wide shows a scrollbar under it.
const pageOverflow = (page: Page) =>
  page.evaluate<number>(
    `Math.max(document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ...[...document.querySelectorAll('.mantine-TableScrollContainer-scrollContainer .mantine-ScrollArea-viewport')].map((e) => e.scrollWidth - e.clientWidth))`,
  );

async function expectFits(page: Page, what: string) {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => pageOverflow(page), { message: `${what} at ${width} px scrolls sideways` }).toBeLessThanOrEqual(0);
  }
}

async function shot1280(page: Page, name: string) {
  mkdirSync(path.join(RESULTS_DIR, 'screens'), { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(RESULTS_DIR, 'screens', `${name}.png`) });
}

test('Lakeside extracts the patient from a received referral, corrects and saves it, and a reload shows what was saved', { timeout: 150_000 }, async ({ page, baseUrl }) => {
  const id = Date.now().toString(36);
  const subject = `Referral for Maria Alvarez: cardiology consult after an emergency visit for palpitations and dizziness, please schedule within two weeks ${id}`;
  const fileName = `${'Lakeside-Family-Medicine_referral-packet_Alvarez-Maria_1958-04-12_'.repeat(3)}scan.pdf`;
  const note = `Faxed-and-scanned-referral-packet-${'x'.repeat(200)}`;
  await riverviewSendsLongReferral(baseUrl, subject, fileName, note);

  await openSignIn(page);
  // The administrator sees every address of Lakeside, its fax number too (the demo world's consult note by fax).
  await signIn(page, 'admin@lakeside.example.org');
  await page.goto('/intake');
  await expectHeading(page, 'Intake');
  await expect.poll(() => page.title()).toBe('Intake · ClinicRelay');
  const link = page.getByRole('link', { name: subject.slice(0, 80) });
  await untilListed(page, link);
  // Fax numbers with dashes in the list, whichever way they are stored.
  await page.getByText('503-555-0202', { exact: true }).first().waitFor();
  expect(await page.getByText('5035550101', { exact: true }).count()).toBe(0);
  await expectFits(page, 'The Intake list');
  await screenshot(page, 'intake-list');
  await shot1280(page, 'intake-list-1280');
  // At 1024 px the date and fax pages make room: the subject, names and status stay whole on screen.
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect.poll(() => pageOverflow(page), { message: 'The Intake list at 1024 px scrolls sideways' }).toBeLessThanOrEqual(0);
  for (const column of [/^Subject/, /^Patient/, /^Status/]) {
    const box = await page.getByRole('columnheader', { name: column }).boundingBox();
    expect(box !== null && box.x + box.width <= 1024, String(column)).toBe(true);
  }
  expect(await page.getByRole('columnheader', { name: 'Fax pages' }).isVisible()).toBe(false);
  // The subject shows far more than a stub (it was cut to about 8 characters).
  expect(await link.evaluate((a) => (a as unknown as { clientWidth: number }).clientWidth)).toBeGreaterThan(150);
  await page.screenshot({ path: path.join(RESULTS_DIR, 'screens', 'intake-list-1024.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectNoAxeViolations(page, 'Intake list');

  await link.click();
  await expectHeading(page, subject);
  await expect.poll(() => page.title()).toBe(`${subject} · ClinicRelay`);
  const viewer = page.getByRole('region', { name: `Document viewer: ${fileName}` });
  await viewer.getByText('Page 1 of 3', { exact: true }).waitFor({ timeout: 20_000 });
  // The page frame turns pages from the keyboard.
  await viewer.getByRole('region', { name: `Pages of ${fileName}` }).press('PageDown');
  await viewer.getByText('Page 2 of 3', { exact: true }).waitFor();
  await expectFits(page, 'The Intake message');
  await page.evaluate('window.scrollTo(0, 0)');
  await screenshot(page, 'intake-message');
  await shot1280(page, 'intake-message-1280');

  // Empty the names and the birth date: Extract patient fills only empty fields, and marks them.
  const patient = page.getByRole('region', { name: 'Patient' });
  const field = (name: string) => patient.getByRole('textbox', { name, exact: true });
  for (const name of ['First name', 'Middle name', 'Last name', 'Birth date']) await field(name).fill('');
  await page.getByRole('button', { name: 'Extract patient' }).click();
  await expect.poll(() => patient.getByText('extracted', { exact: true }).count(), { timeout: 30_000 }).toBeGreaterThan(0);

  // What the scan gave is corrected by hand, the birth date typed the short way and read when the field is left.
  await field('First name').fill('Maria');
  await field('Middle name').fill('E');
  await field('Last name').fill('Alvarez-Reyes');
  await field('City').fill('Portland');
  await field('Birth date').fill('4/12/58');
  await field('Birth date').press('Tab');
  expect(await field('Birth date').inputValue()).toBe('04/12/1958');
  await patient.getByText('Unsaved changes').waitFor();
  // A telephone of two digits is refused at its field, before anything is saved; a real one is kept.
  await field('Telephone').fill('12');
  await patient.getByRole('button', { name: 'Save patient' }).click();
  await patient.getByText('"Patient Telephone" is invalid. Enter 10 digits, as (999) 999-9999.').waitFor();
  await field('Telephone').fill('(503) 555-0143');
  await screenshot(page, 'intake-message-patient-edited');
  await Promise.all([saved(page, 'PUT', /\/patient$/), patient.getByRole('button', { name: 'Save patient' }).click()]);
  await page.getByText('Patient details saved.').waitFor();
  await patient.getByText('All changes saved').waitFor();
  await screenshot(page, 'intake-message-patient-saved');

  await page.reload();
  await expectHeading(page, subject);
  await expect.poll(() => field('Last name').inputValue()).toBe('Alvarez-Reyes');
  expect(await field('First name').inputValue()).toBe('Maria');
  expect(await field('Middle name').inputValue()).toBe('E');
  expect(await field('Birth date').inputValue()).toBe('04/12/1958');
  expect(await field('City').inputValue()).toBe('Portland');
  expect(await field('Telephone').inputValue()).toBe('(503) 555-0143');
  expect(await patient.getByRole('combobox', { name: 'Gender' }).inputValue()).toBe('Female');
  await expectNoAxeViolations(page, 'Intake message');
});
