import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { apiSignIn, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 29 §1: a system administrator registers a client application, copies its credentials (shown once) and resets
// them; a user of Lakeside approves an application on the consent screen.

test('a system administrator adds a client application, sees its credentials once and resets them', { timeout: 120_000 }, async ({ page }) => {
  const name = `Acme EHR ${Date.now() % 1_000_000}`;
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.getByRole('link', { name: 'Client applications' }).click();
  await expectHeading(page, 'Client applications');
  await page.getByRole('button', { name: 'Add client application' }).click();
  await expectHeading(page, 'Add client application');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('There are invalid fields on this page.').waitFor();
  await page.getByText('Logo URL is required.').waitFor();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Logo URL' }).fill('https://acme.example.com/logo.png');
  await page.getByRole('textbox', { name: 'Redirect URL' }).fill('https://acme.example.com/oauth/callback');
  await page.getByRole('textbox', { name: 'Application URL' }).fill('https://acme.example.com');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The client application was saved successfully.').waitFor();
  await page.getByText('it is shown only once').waitFor();
  const secret = (await page.getByLabel('Client secret', { exact: true }).textContent())!;
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Copy client secret' }).waitFor();
  await screenshot(page, 'admin-client-application-credentials');
  await expectNoAxeViolations(page, 'admin-client-application-credentials');

  await page.getByRole('button', { name: 'Reset credentials' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset client credentials' });
  await confirm.getByText('will stop working at once').waitFor();
  await screenshot(page, 'admin-client-application-reset');
  await confirm.getByRole('button', { name: 'Reset credentials' }).click();
  await page.getByText('New credentials were generated. The previous secret no longer works.').waitFor();
  await expect.poll(async () => page.getByLabel('Client secret', { exact: true }).textContent()).not.toBe(secret);

  await page.getByRole('button', { name: 'Back to list' }).click();
  await expectHeading(page, 'Client applications');
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  const row = page.getByRole('table').getByRole('row').filter({ hasText: name });
  await row.waitFor();
  await screenshot(page, 'admin-client-applications');
  await expectNoAxeViolations(page, 'admin-client-applications');
  // Editing shows the client id, never the secret.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await expectHeading(page, 'Edit client application');
  await page.getByRole('textbox', { name: 'Client ID' }).waitFor();
  expect(await page.getByLabel('Client secret', { exact: true }).count()).toBe(0);
});

test('a user approves an application on the consent screen and it receives a code', { timeout: 120_000 }, async ({ page, baseUrl }) => {
  const redirectUri = `${baseUrl}/oauth-e2e-callback`;
  const created = await fetch(`${baseUrl}/api/admin/clientapplications`, {
    method: 'POST',
    headers: { ...(await apiSignIn(baseUrl, 'sysadmin@example.org')), 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Northwind Charts ${Date.now() % 1_000_000}`, logoUrl: `${baseUrl}/favicon.svg`, redirectURI: redirectUri, applicationUrl: 'https://northwind.example.com' }),
  });
  expect(created.status).toBe(200);
  const { clientId, name } = (await created.json()) as { clientId: string; name: string };

  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'intake.read release.send directory.read', state: 'e2e', code_challenge: challenge, code_challenge_method: 'S256' });
  await page.goto(`/oauth/authorize?${query.toString()}`);
  await expectHeading(page, `${name} wants to access your ClinicRelay account`);
  await page.getByText('Read the messages your organization receives (Intake)').waitFor();
  await page.getByText('user@lakeside.example.org').waitFor();
  await screenshot(page, 'oauth-consent');
  await expectNoAxeViolations(page, 'oauth-consent');
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.pathname === '/oauth-e2e-callback');
  const callback = new URL(page.url());
  expect(callback.searchParams.get('code')).toBeTruthy();
  expect(callback.searchParams.get('state')).toBe('e2e');
});
