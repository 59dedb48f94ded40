import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { choose, composeReferral, expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// WCAG 2.2 AA (axe) on every Intake and Release screen and modal, signed in as demo users.
// Each screen is checked and the test fails at its end with every screen's violations, so one run shows them all.

function axeChecks(page: Page) {
  const failures: string[] = [];
  return {
    async check(name: string) {
      await screenshot(page, `a11y-${name}`);
      await expectNoAxeViolations(page, name).catch((error: unknown) => failures.push(String(error)));
    },
    done() {
      if (failures.length > 0) throw new Error(failures.join('\n\n'));
    },
  };
}

// The document viewer has loaded: a rendition's first page, or a structured file's tabs.
async function viewerReady(page: Page) {
  await page.getByText('Page 1 of', { exact: false }).or(page.getByRole('tab', { name: 'Preview' })).first().waitFor({ timeout: 20_000 });
}

async function openIntakeMessage(page: Page, subject: string) {
  await page.goto('/intake');
  await expectHeading(page, 'Intake');
  await page.getByRole('link', { name: subject, exact: true }).click();
  await expectHeading(page, subject);
}

test('Intake screens and modals', { timeout: 120_000 }, async ({ page }) => {
  const axe = axeChecks(page);
  await openSignIn(page);
  await axe.check('sign-in');
  await signIn(page, 'user@riverview.example.org');
  await expectHeading(page, 'Intake');
  await page.getByRole('link', { name: 'Cardiology referral: palpitations', exact: true }).waitFor();
  await axe.check('intake-list');

  await page.getByRole('button', { name: 'Actions for Cardiology referral: palpitations' }).click();
  await page.getByRole('menuitem', { name: 'Triage' }).click();
  await page.getByRole('dialog', { name: 'Triage message' }).waitFor();
  await axe.check('intake-triage-modal');
  await page.keyboard.press('Escape');

  await openIntakeMessage(page, 'Cardiology referral: palpitations');
  await viewerReady(page);
  await axe.check('intake-message-pdf');
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete message' }).waitFor();
  await axe.check('intake-delete-modal');
  await page.keyboard.press('Escape');

  const [printWindow] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Print message', exact: true }).click()]);
  await printWindow.locator('canvas').first().waitFor({ timeout: 20_000 });
  const printAxe = axeChecks(printWindow);
  await printAxe.check('intake-print');
  await printWindow.close();

  // A C-CDA with a PDF rendition (Riverview's lab results) shows the rendition.
  await openIntakeMessage(page, 'Lab results for Thomas Nguyen');
  await viewerReady(page);
  await axe.check('intake-message-cda-rendition');

  // A C-CDA without one (Riverview's continuity of care document to Lakeside) shows the CDA Explorer and its raw text.
  await page.goto('/account/logout');
  await expectPath(page, '/account/login');
  await signIn(page, 'user@lakeside.example.org');
  await openIntakeMessage(page, 'Continuity of care document for Evelyn Brooks');
  await viewerReady(page);
  if (await page.getByRole('tab', { name: 'CDA Explorer' }).count()) {
    await page.getByRole('region', { name: 'Document header' }).waitFor();
    await axe.check('intake-message-cda-explorer');
  }
  const preview = page.getByRole('tab', { name: 'Preview' });
  if (await preview.count()) {
    await preview.click();
    await page.getByRole('region', { name: /^Contents of / }).waitFor();
    await axe.check('intake-message-cda-preview');
  }
  axe.done();
  printAxe.done();
});

test('Release screens and modals', { timeout: 120_000 }, async ({ page }) => {
  const axe = axeChecks(page);
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await page.goto('/release');
  await expectHeading(page, 'Release');
  await page.getByRole('link', { name: 'Cardiology referral: palpitations', exact: true }).waitFor();
  await axe.check('release-list');

  await page.getByRole('button', { name: 'Send Non-PHI Fax' }).click();
  await page.getByRole('dialog', { name: 'Send non-PHI fax' }).waitFor();
  await axe.check('release-non-phi-fax-modal');
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Cardiology referral: palpitations', exact: true }).click();
  await expectHeading(page, 'Cardiology referral: palpitations');
  await viewerReady(page);
  await axe.check('release-sent-message');

  await page.goto('/release/new');
  await expectHeading(page, 'New message');
  await axe.check('release-compose');
  await page.getByRole('button', { name: 'Saved Direct addresses' }).click();
  await page.getByRole('dialog', { name: 'Saved Direct addresses' }).waitFor();
  await axe.check('release-address-cache-modal');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Attach a new file' }).click();
  await page.getByRole('dialog', { name: 'Attach a new file' }).waitFor();
  await axe.check('release-attach-modal');
  await page.keyboard.press('Escape');

  await composeReferral(page, ['referrals@riverview.direct.example.org'], `Accessibility check ${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Review and Send' }).waitFor();
  await axe.check('release-review-and-send-modal');
  axe.done();
});

test('the organization switch prompt and the organization status modals', { timeout: 90_000 }, async ({ page }) => {
  const axe = axeChecks(page);
  await openSignIn(page);
  await signIn(page, 'multi@example.org');
  await page.goto('/release/new');
  await expectHeading(page, 'New message');
  // Morgan may send from Lakeside's fax number only (issue 13 §2).
  await choose(page, 'From', '503-555-0101');
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Unsaved work');
  await page.getByRole('combobox', { name: 'Organization', exact: true }).click();
  await page.getByRole('option', { name: 'Riverview Cardiology', exact: true }).click();
  await page.getByRole('dialog', { name: 'Save this draft?' }).waitFor();
  await axe.check('organization-switch-prompt');
  await page.getByRole('dialog', { name: 'Save this draft?' }).getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/account/logout');
  await expectPath(page, '/account/login');
  await signIn(page, 'user@oakwood.example.org');
  await page.getByRole('dialog', { name: 'Organization is currently canceled' }).waitFor();
  await axe.check('organization-cancelled-modal');

  await page.getByRole('button', { name: 'Logout' }).click();
  await expectPath(page, '/account/login');
  await signIn(page, 'admin@oakwood.example.org');
  await page.getByRole('dialog', { name: 'Reactivate your organization' }).waitFor();
  await axe.check('organization-reactivation-modal');
  axe.done();
});

// The focused element, described without DOM types (the e2e project has none).
const focused = (page: Page) =>
  page.evaluate<{ label: string; inDialog: boolean; outline: string }>(`(() => {
    const el = document.activeElement;
    const style = el ? getComputedStyle(el) : null;
    return {
      label: el ? (el.getAttribute('aria-label') || el.textContent || '').trim() : '',
      inDialog: !!el && !!el.closest('[role="dialog"]'),
      outline: style ? style.outlineStyle + ' ' + style.outlineWidth : '',
    };
  })()`);

test('keyboard: focus is visible, a dialog keeps it inside and gives it back when closed', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'admin@lakeside.example.org');
  await page.goto('/release');
  await expectHeading(page, 'Release');
  const trigger = page.getByRole('button', { name: 'Send Non-PHI Fax' });
  await trigger.focus();
  // Focus reached by keyboard shows a ring.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const before = await focused(page);
  expect(before.label).toBe('Send Non-PHI Fax');
  expect(before.outline).toMatch(/^solid [1-9]/);
  await screenshot(page, 'a11y-focus-ring');

  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Send non-PHI fax' }).waitFor();
  for (let i = 0; i < 25; i += 1) {
    await page.keyboard.press('Tab');
    expect((await focused(page)).inDialog).toBe(true);
  }
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Send non-PHI fax' }).waitFor({ state: 'hidden' });
  expect((await focused(page)).label).toBe('Send Non-PHI Fax');
});
