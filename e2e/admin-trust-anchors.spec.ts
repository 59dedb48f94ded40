import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// Issue 12 §1: a system administrator trusts another HISP's certificate authority for Lakeside's Direct domain, and
// a community's trust bundle, beside the demo world's own CA.

const rowsOf = (page: Page) => page.getByRole('table').getByRole('row');

// Self-signed CA certificates (PEM) made by OpenSSL, as another HISP hands out its anchor, and a PKCS#7 bundle of some.
function certificateAuthorities(...names: string[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cr-anchors-'));
  try {
    const pems = names.map((name, i) => {
      const [key, cert] = [`ca${i}.key`, `ca${i}.pem`].map((f) => path.join(dir, f));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '365', '-subj', `/CN=${name}/O=E2E`, '-addext', 'basicConstraints=critical,CA:TRUE', '-keyout', key!, '-out', cert!], { stdio: 'ignore' });
      return cert!;
    });
    const bundle = execFileSync('openssl', ['crl2pkcs7', '-nocrl', ...pems.slice(1).flatMap((pem) => ['-certfile', pem])]);
    return { anchorPem: readFileSync(pems[0]!), bundle };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function chooseFile(page: Page, dialog: ReturnType<Page['getByRole']>, file: { name: string; buffer: Buffer }) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles({ name: file.name, mimeType: 'application/octet-stream', buffer: file.buffer });
}

test('a system administrator adds an anchor and a trust bundle, edits the anchor’s domain and deletes it', async ({ page }) => {
  const run = Date.now().toString(36);
  const anchorName = `Partner HISP ${run}`;
  const bundleName = `Community ${run}`;
  const files = certificateAuthorities(`Partner HISP CA ${run}`, `Community Root ${run}`, `Community Issuing ${run}`);

  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/trust-anchors');
  await expectHeading(page, 'Trust anchors');
  // The demo world trusts its own certificate authority for every domain, both ways.
  // (Named exactly: another journey may have added a peer installation's anchor beside it.)
  await rowsOf(page).filter({ has: page.getByRole('cell', { name: 'ClinicRelay Demo CA', exact: true }) }).getByText('All domains').waitFor();

  await page.getByRole('button', { name: 'Add anchor' }).click();
  const add = page.getByRole('dialog', { name: 'Add anchor' });
  await add.getByRole('textbox', { name: 'Name' }).fill(anchorName);
  await chooseFile(page, add, { name: 'partner-ca.pem', buffer: files.anchorPem });
  await expectNoAxeViolations(page, 'trust-anchor-add');
  await add.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The trust anchor was saved.').waitFor();
  await add.waitFor({ state: 'hidden' });
  const row = rowsOf(page).filter({ hasText: anchorName });
  await row.getByText('Added by hand').waitFor();
  await row.getByText(`CN=Partner HISP CA ${run}, O=E2E`).waitFor();

  await page.getByRole('button', { name: `Edit ${anchorName}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit anchor' });
  await edit.getByRole('textbox', { name: 'Domain' }).fill('lakeside.direct.example.org');
  await edit.getByRole('switch', { name: 'Incoming' }).uncheck({ force: true });
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });
  await row.getByText('lakeside.direct.example.org').waitFor();
  await screenshot(page, 'admin-trust-anchors');
  await expectNoAxeViolations(page, 'trust-anchors');

  await page.getByRole('tab', { name: 'Bundles' }).click();
  await page.getByText('No trust bundles yet.').waitFor();
  await page.getByRole('button', { name: 'Add bundle' }).click();
  const bundle = page.getByRole('dialog', { name: 'Add bundle' });
  await bundle.getByRole('textbox', { name: 'Name' }).fill(bundleName);
  await bundle.getByRole('radio', { name: 'From a file' }).check();
  await chooseFile(page, bundle, { name: 'community.p7b', buffer: files.bundle });
  await screenshot(page, 'admin-trust-bundle-add');
  await expectNoAxeViolations(page, 'trust-bundle-add');
  await bundle.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The trust bundle was saved.').waitFor();
  await bundle.waitFor({ state: 'hidden' });
  const bundleRow = rowsOf(page).filter({ hasText: bundleName });
  await bundleRow.getByText('From a file').waitFor();
  await bundleRow.getByRole('cell', { name: '2', exact: true }).waitFor();

  // The same bundle published at a URL (a loopback server here), read at once and refreshed on demand.
  const publisher = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/pkcs7-mime' }).end(files.bundle));
  await new Promise<void>((resolve) => publisher.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}/community.p7b`;
  await page.getByRole('button', { name: 'Add bundle' }).click();
  await bundle.getByRole('textbox', { name: 'Name' }).fill(`${bundleName} online`);
  await bundle.getByRole('textbox', { name: 'URL' }).fill(url);
  await bundle.getByRole('button', { name: 'Save' }).click();
  await bundle.waitFor({ state: 'hidden' });
  const onlineRow = rowsOf(page).filter({ hasText: url });
  await onlineRow.getByText('Every 24 hours').waitFor();
  await page.getByRole('button', { name: `Refresh now ${bundleName} online` }).click();
  await page.getByText('The trust bundle was refreshed.').waitFor();
  publisher.closeAllConnections();
  await new Promise<void>((resolve) => publisher.close(() => resolve()));
  await page.getByRole('button', { name: `Refresh now ${bundleName} online` }).click();
  await page.getByText('The trust bundle could not be refreshed: The bundle could not be downloaded: the server refused the connection.').waitFor();
  await onlineRow.getByText('The bundle could not be downloaded: the server refused the connection.').waitFor();
  await screenshot(page, 'admin-trust-bundles');
  await expectNoAxeViolations(page, 'trust-bundles');

  // The bundle's anchors are listed under its name, without edit or delete.
  await page.getByRole('tab', { name: 'Anchors' }).click();
  await rowsOf(page).filter({ hasText: `Community Root ${run}` }).getByText(bundleName, { exact: true }).waitFor();
  await page.getByRole('button', { name: `Edit Community Root ${run}` }).waitFor({ state: 'detached' });

  await page.getByRole('button', { name: `Delete ${anchorName}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete anchor' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The trust anchor was deleted.').waitFor();
  await rowsOf(page).filter({ hasText: anchorName }).waitFor({ state: 'detached' });
});
