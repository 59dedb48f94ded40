import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { expectHeading, openSignIn, signIn } from './support/journeys.ts';
import { currentServer } from './support/current-server.ts';
import { test } from './support/test.ts';

// Issue 27 §3: a system administrator finds audit entries by user name and exports them as CSV named by the start
// and end dates; then the reference id of a real server error (a file gone from the blob store) leads to its secure log.

test('a system administrator searches the audit trail and exports it as CSV', { timeout: 120_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/audits');
  await expectHeading(page, 'Audits');
  // The sign-in a moment ago is an audit entry of today, inside the default last seven days.
  await page.getByRole('searchbox', { name: 'Username' }).fill('sysadmin@');
  const rows = page.getByRole('table').getByRole('row').filter({ hasText: 'sysadmin@example.org' });
  await rows.filter({ hasText: 'Login' }).first().waitFor();
  // The search applies 300 ms after typing: then only the system administrator's entries are left.
  await expect.poll(() => page.getByRole('table').getByRole('row').filter({ hasText: '@lakeside' }).count()).toBe(0);
  await screenshot(page, 'admin-audits');
  await expectNoAxeViolations(page, 'admin-audits');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const from = new URL(page.url()).searchParams.get('from');
  const to = new URL(page.url()).searchParams.get('to');
  const start = from ?? new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  const end = to ?? new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^ClinicRelay_Audits_${start}_${end}_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.csv$`));
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('Timestamp,Event Type,Created By,Organization Id,IP Address,Event Data');
  expect(lines.some((line) => line.includes(',Login,sysadmin@example.org,'))).toBe(true);
  // Only the user searched for.
  expect(lines.slice(1).filter(Boolean).every((line) => line.includes('sysadmin@'))).toBe(true);
});

test('a reference id from an error a user saw finds its secure log', { timeout: 120_000 }, async ({ page }) => {
  await openSignIn(page);
  await signIn(page, 'sysadmin@example.org');
  await page.goto('/admin/securelogs');
  await expectHeading(page, 'Secure logs');
  await page.getByText('No Log to Display').waitFor();

  // A real failure: a published file whose bytes vanished from the blob store (a disk restored without them).
  const run = Date.now().toString(36);
  const made = await page.evaluate(async (run) => {
    const form = new FormData();
    form.append('displayName', `Vanishing file ${run}`);
    form.append('downloadTag', `vanishing-${run}`);
    form.append('file', new Blob([`bytes of ${run}`]), `vanishing-${run}.bin`);
    const headers = { Authorization: `Bearer ${localStorage.getItem('clinicrelay.accessToken') ?? ''}` };
    const res = await fetch('/api/downloads/upload', { method: 'POST', headers, body: form });
    return (await res.json()) as { id: string };
  }, run);
  const root = path.join(currentServer().dataDir, 'blobs');
  const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
  const newest = (await Promise.all(files.map(async (f) => ({ file: path.join(f.parentPath, f.name), at: (await stat(path.join(f.parentPath, f.name))).mtimeMs })))).sort((a, b) => b.at - a.at)[0]!;
  await rm(newest.file);
  const failed = await page.evaluate(async (id) => {
    const headers = { Authorization: `Bearer ${localStorage.getItem('clinicrelay.accessToken') ?? ''}` };
    const res = await fetch(`/api/downloads/${id}/download`, { headers });
    return { status: res.status, body: (await res.json()) as { message: string; referenceId: string } };
  }, made.id);
  expect(failed.status).toBe(500);
  const referenceId = failed.body.referenceId;
  expect(failed.body.message).toBe(`An unexpected error occurred. Please try again or contact support. Reference id: ${referenceId}.`);

  await page.goto('/admin/securelogs');
  await page.getByRole('textbox', { name: 'Reference id' }).fill('0000000000');
  await page.getByText('No log was found for this reference id.').waitFor();
  await page.getByRole('textbox', { name: 'Reference id' }).fill(referenceId);
  await page.getByText('Log date').waitFor();
  const message = page.getByRole('textbox', { name: 'Message' });
  await expect.poll(() => message.inputValue()).toContain('is missing');
  await page.getByText('GET /api/downloads/:id/download → 500').waitFor();
  await screenshot(page, 'admin-securelogs');
  await expectNoAxeViolations(page, 'admin-securelogs');
});
