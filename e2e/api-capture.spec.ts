import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { DEMO_PASSWORD } from './support/constants.ts';
import { apiSignIn, expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 27 §3: a system administrator turns API capture on for Lakeside, a Lakeside user calls the API, and the
// administrator reads the calls at /admin/apicapture with their credentials redacted.

async function setCapture(baseUrl: string, auth: Record<string, string>, organizationId: string, apiCapture: boolean) {
  const res = await fetch(`${baseUrl}/api/organizations/${organizationId}/apicapture/`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ apiCapture }) });
  expect(res.status).toBe(200);
}

test('the calls of an organization whose capture is on are listed for the system administrator, redacted', async ({ page, baseUrl }) => {
  const marker = `capture${Date.now().toString(36)}`;
  const admin = await apiSignIn(baseUrl, 'sysadmin@example.org');
  const orgs = (await (await fetch(`${baseUrl}/api/organizations?search=Lakeside&pageNumber=1&pageSize=10`, { headers: admin })).json()) as { items: { id: string; name: string }[] };
  const lakeside = orgs.items.find((o) => o.name === 'Lakeside Family Medicine')!;
  await setCapture(baseUrl, admin, lakeside.id, true);
  try {
    // As an API client of Lakeside would: a sign-in, then a call.
    const user = await apiSignIn(baseUrl, 'user@lakeside.example.org');
    expect((await fetch(`${baseUrl}/api/users/profiledata?marker=${marker}`, { headers: user })).status).toBe(200);
    // Records are written just after their responses.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    await openSignIn(page);
    await signIn(page, 'sysadmin@example.org');
    await page.goto(`/admin/apicapture?search=${marker}`);
    await expectHeading(page, 'API capture');
    const row = page.getByRole('row').filter({ hasText: marker });
    await row.waitFor();
    await expect.poll(() => row.getByRole('cell', { name: 'Lakeside Family Medicine' }).count()).toBe(1);
    await row.getByRole('button', { name: /Show request and response/ }).click();
    // The bearer token of the call is not in the record.
    await page.getByRole('cell', { name: 'authorization', exact: true }).waitFor();
    await page.getByRole('cell', { name: '[REDACTED]', exact: true }).first().waitFor();
    expect(await page.content()).not.toContain(user.authorization!.slice(7));
    await screenshot(page, 'api-capture');
    await expectNoAxeViolations(page, 'api-capture');

    // The sign-in: its password is not in the record.
    await page.getByRole('searchbox').fill('account/login');
    const login = page.getByRole('row').filter({ hasText: '/api/account/login' }).first();
    await login.waitFor();
    await login.getByRole('button', { name: /Show request and response/ }).click();
    await page.getByText('"password": "[REDACTED]"').first().waitFor();
    expect(await page.content()).not.toContain(DEMO_PASSWORD);
    await screenshot(page, 'api-capture-login');
  } finally {
    await setCapture(baseUrl, admin, lakeside.id, false);
  }
});
