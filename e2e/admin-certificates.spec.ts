import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 12 §1: the demo world's Direct certificates, and a PKCS#12 file made by OpenSSL imported for Lakeside's domain
// (the organization is linked because its Direct address is in that domain).

const rowsOf = (page: Page) => page.getByRole('table').getByRole('row');

// A certificate for a whole Direct domain, exported as OpenSSL 3 writes PKCS#12 by default.
function pkcs12For(domain: string, password: string): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cr-pfx-'));
  try {
    const [key, cert, pfx] = ['key.pem', 'cert.pem', 'cert.pfx'].map((f) => path.join(dir, f));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '30', '-subj', `/CN=${domain}`, '-addext', `subjectAltName=DNS:${domain}`, '-keyout', key!, '-out', cert!], { stdio: 'ignore' });
    execFileSync('openssl', ['pkcs12', '-export', '-inkey', key!, '-in', cert!, '-out', pfx!, '-passout', `pass:${password}`], { stdio: 'ignore' });
    return readFileSync(pfx!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a system administrator sees the demo certificates and imports a PKCS#12 file for Lakeside’s Direct domain', async ({ page }) => {
  const run = Date.now().toString(36);
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/certificates');
  await expectHeading(page, 'Certificates');
  await rowsOf(page).filter({ hasText: 'demo-intake@lakeside.direct.example.org' }).getByText('Lakeside Family Medicine').waitFor();
  await screenshot(page, 'admin-certificates');
  await expectNoAxeViolations(page, 'certificates');

  await page.getByRole('button', { name: 'Add certificate' }).click();
  const add = page.getByRole('dialog', { name: 'Add certificate' });
  await add.getByRole('textbox', { name: 'Name' }).fill(`lakeside-domain-${run}`);
  // The password waits for a file.
  expect(await add.getByLabel('Password', { exact: true }).isDisabled()).toBe(true);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), add.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles({ name: 'frontdesk.pfx', mimeType: 'application/x-pkcs12', buffer: pkcs12For('lakeside.direct.example.org', 'secret-pass') });
  await add.getByLabel('Password', { exact: true }).fill('wrong-pass');
  await add.getByRole('button', { name: 'Save' }).click();
  await add.getByText('The password is wrong for this certificate file.').waitFor();
  await add.getByLabel('Password', { exact: true }).fill('secret-pass');
  await screenshot(page, 'admin-certificate-add');
  await expectNoAxeViolations(page, 'certificate-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The certificate was saved successfully.').waitFor();
  await add.waitFor({ state: 'hidden' });
  const row = rowsOf(page).filter({ hasText: `lakeside-domain-${run}` });
  await row.getByText('Lakeside Family Medicine').waitFor();

  // Mantine draws the switch over its input, which has no box of its own to click.
  await row.getByRole('switch', { name: `Enabled: lakeside-domain-${run}` }).click({ force: true });
  await page.getByText('The certificate was disabled.').waitFor();
});
