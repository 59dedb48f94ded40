import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { apiSignIn, expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { mailsMentioning } from './support/outbox.ts';
import { test } from './support/test.ts';

// Issue 14 §4: organization status and plans. Oakwood Clinic is canceled in the demo world and stays so: other journeys
// rely on it, so its reactivation call is answered by the test here (the API tests reactivate it for real). Lakeside is
// switched to the Stay Connected plan by a system administrator for the guard, and changes back through the sandbox
// checkout; a finally block restores it whatever happens.

const OAKWOOD_REACTIVATED = {
  message: 'Organization successfully reactivated.',
  payment: { reference: 'ORD-E2E', provider: 'sandbox', planId: 'professional', status: 'Completed', amountCents: 9900, cardLast4: null, declineReason: null, createdAt: '2026-01-01T00:00:00.000Z', completedAt: '2026-01-01T00:00:00.000Z' },
};

test('a user of canceled Oakwood gets the canceled modal and is logged off', async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'user@oakwood.example.org');
  const dialog = page.getByRole('dialog', { name: 'Organization is currently canceled' });
  await dialog.waitFor();
  expect(await dialog.innerText()).toContain('Only an administrator of your organization can reactivate it.');
  await screenshot(page, 'plans-cancelled-modal');
  await expectNoAxeViolations(page, 'plans-cancelled-modal');
  await dialog.getByRole('button', { name: 'Logout', exact: true }).click();
  await expectPath(page, '/account/login');
});

test('Oakwood’s administrator gets the reactivation modal; Request Reactivation says it is reactivated and is disabled', async ({ page }) => {
  await page.route('**/api/subscriptionplans/reactivate', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(OAKWOOD_REACTIVATED) }));
  await openSignIn(page);
  await signIn(page, 'admin@oakwood.example.org');
  const dialog = page.getByRole('dialog', { name: 'Reactivate your organization' });
  await dialog.waitFor();
  await dialog.getByText('Subscription SUB-OAKWOOD-2025-0042', { exact: false }).waitFor();
  await screenshot(page, 'plans-reactivation-modal');
  await expectNoAxeViolations(page, 'plans-reactivation-modal');
  const request = dialog.getByRole('button', { name: 'Request Reactivation', exact: true });
  await request.click();
  await page.getByText('Organization successfully reactivated.').waitFor();
  expect(await request.isDisabled()).toBe(true);
  await screenshot(page, 'plans-reactivated-toast');
  await dialog.getByRole('button', { name: 'Cancel Reactivation', exact: true }).click();
  await expectPath(page, '/account/login');
});

async function setLakesidePlan(baseUrl: string, planId: string) {
  const headers = { ...(await apiSignIn(baseUrl, 'sysadmin@example.org')), 'content-type': 'application/json' };
  const list = (await (await fetch(`${baseUrl}/api/organizations?search=lakeside&pageNumber=1&pageSize=10`, { headers })).json()) as { items: { id: string; subdomain: string }[] };
  const id = list.items.find((o) => o.subdomain === 'lakeside')!.id;
  const current = (await (await fetch(`${baseUrl}/api/organizations/${id}`, { headers })).json()) as Record<string, unknown>;
  if (current.planId === planId) return;
  const keys = ['name', 'subdomain', 'brandId', 'organizationTypeId', 'organizationSpecialtyId', 'affiliateResellerId', 'licensingResellerId', 'tierCode', 'enabledFeatures', 'allowedPurposeOfUseCodes', 'organizationNpi', 'organizationEmr', 'hispProviderId', 'address', 'primaryPhone', 'primaryFax', 'primaryContactFirstName', 'primaryContactLastName', 'primaryContactEmail', 'primaryContactTitle', 'primaryContactNpi', 'homeCommunityId', 'preferredGroupName', 'isActivated', 'settings'];
  const body = { ...Object.fromEntries(keys.map((k) => [k, current[k]])), planId };
  const res = await fetch(`${baseUrl}/api/organizations/${id}`, { method: 'PUT', headers, body: JSON.stringify(body) });
  expect(res.status, await res.text()).toBe(200);
}

test('on the Stay Connected plan, Release shows the upgrade prompt: a User asks, the Administrator upgrades in the sandbox checkout', { timeout: 120_000 }, async ({ page, baseUrl }) => {
  await setLakesidePlan(baseUrl, 'stay-connected');
  try {
    await openSignIn(page);
    await signIn(page, 'user@lakeside.example.org');
    await page.goto('/release');
    let prompt = page.getByRole('dialog', { name: 'Upgrade Subscription Plan' });
    await prompt.waitFor();
    await screenshot(page, 'plans-upgrade-prompt-user');
    await expectNoAxeViolations(page, 'plans-upgrade-prompt-user');
    const mailsBefore = mailsMentioning('asks you to upgrade the subscription plan of Lakeside Family Medicine').length;
    await prompt.getByRole('button', { name: 'Send Request', exact: true }).click();
    await page.getByText('Your plan upgrade request has been sent.').waitFor();
    await expect.poll(() => mailsMentioning('asks you to upgrade the subscription plan of Lakeside Family Medicine').length, { timeout: 10_000 }).toBeGreaterThan(mailsBefore);

    await page.goto('/account/logout');
    await expectPath(page, '/account/login');
    await signIn(page, 'admin@lakeside.example.org');
    await page.goto('/release');
    prompt = page.getByRole('dialog', { name: 'Upgrade Subscription Plan' });
    await prompt.waitFor();
    await screenshot(page, 'plans-upgrade-prompt-admin');
    await prompt.getByRole('button', { name: 'Send Request', exact: true }).click();
    await expectPath(page, '/settings/subscription');
    await expectHeading(page, 'Subscription');
    await page.getByRole('heading', { name: 'Current plan: Stay Connected' }).waitFor();
    await screenshot(page, 'plans-subscription-page');
    await expectNoAxeViolations(page, 'plans-subscription-page');

    await page.getByRole('button', { name: 'Choose Professional' }).click();
    const checkout = page.getByRole('dialog', { name: 'Change to Professional' });
    await checkout.getByText('Sandbox (test mode)', { exact: false }).waitFor();
    await checkout.getByRole('textbox', { name: 'Card number' }).fill('4000 0000 0000 0002');
    await checkout.getByRole('textbox', { name: 'Expiry (MM/YY)' }).fill('12/34');
    await checkout.getByRole('textbox', { name: 'Security code' }).fill('123');
    await checkout.getByRole('button', { name: /and change plan/ }).click();
    await checkout.getByText('Your card was declined.').waitFor();
    await screenshot(page, 'plans-checkout-declined');
    await expectNoAxeViolations(page, 'plans-checkout-declined');
    await checkout.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
    await checkout.getByRole('button', { name: /and change plan/ }).click();
    await page.getByText('Your subscription plan is now Professional.').waitFor();
    await page.getByRole('heading', { name: 'Current plan: Professional' }).waitFor();
    await page.getByText('with the card ending in 4242', { exact: false }).waitFor();
    await screenshot(page, 'plans-subscription-changed');

    // Professional: Release opens.
    await page.goto('/release');
    await expectHeading(page, 'Release');
    expect(await page.getByRole('dialog', { name: 'Upgrade Subscription Plan' }).count()).toBe(0);
  } finally {
    await setLakesidePlan(baseUrl, 'professional');
  }
});
