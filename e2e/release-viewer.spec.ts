import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { UD_SAMPLE } from './support/constants.ts';
import { choose, fillAttachDialog, expectHeading, expectPath, openSignIn, signIn } from './support/journeys.ts';
import { test } from './support/test.ts';

// The document viewer end to end: PDF.js renders a real scanned referral in the compose page, and
// rotate, remove and restore change the attachment on the server.

// What the canvas holds: its drawing size and how many of its pixels are ink (not near-white).
// Structural types: the e2e project has no DOM library.
interface CanvasLike {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}
const canvasState = (canvas: Locator) =>
  canvas.evaluate((c: CanvasLike) => {
    const data = c.width && c.height ? (c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? []) : [];
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 160 && (data[i + 3] ?? 0) > 0) ink += 1;
    return { width: c.width, height: c.height, ink };
  });

test('Lakeside attaches a PDF to a new release, reads it page by page, removes and rotates pages, and restores the original', { timeout: 60_000 }, async ({ page }) => {
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });

  await openSignIn(page);
  await signIn(page, 'user@lakeside.example.org');
  await page.goto('/release');
  await expectHeading(page, 'Release');
  await page.getByRole('link', { name: 'New message' }).click();
  await expectPath(page, '/release/new');
  const toInput = page.getByRole('combobox', { name: 'To', exact: true });
  await toInput.fill('referrals@riverview.direct.example.org');
  await toInput.press('Enter');
  await choose(page, 'From', 'intake@lakeside.direct.example.org');
  await choose(page, 'Release type', 'Referral');
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('Faxed referral for Ingrid Vasquez-Holm (viewer)');

  const dialog = await fillAttachDialog(page, UD_SAMPLE);
  // The first attachment saves the draft first: its id is where the view page lives.
  const [saved] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/messages' && r.request().method() === 'PUT'),
    dialog.getByRole('button', { name: 'Attach', exact: true }).click(),
  ]);
  const { id: draftId } = (await saved.json()) as { id: string };

  // The new attachment opens in the viewer: page 1 of the sample's 3, drawn by PDF.js in its worker.
  const viewer = page.getByRole('region', { name: 'Document viewer: ud-sample.pdf' });
  await viewer.getByText('Page 1 of 3', { exact: true }).waitFor();
  const canvas = viewer.getByRole('img', { name: 'ud-sample.pdf, page 1' });
  await expect.poll(async () => (await canvasState(canvas)).ink, { timeout: 10_000 }).toBeGreaterThan(1_000);
  const box = await canvas.boundingBox();
  expect(box?.width).toBeGreaterThan(100);
  expect(box?.height).toBeGreaterThan(100);
  const portrait = await canvasState(canvas);
  expect(portrait.height).toBeGreaterThan(portrait.width);
  expect(workers.some((url) => /\/assets\/pdf\.worker\.min-[\w-]+\.mjs$/.test(url))).toBe(true);

  await viewer.getByRole('button', { name: 'Next page' }).click();
  await viewer.getByText('Page 2 of 3', { exact: true }).waitFor();
  await viewer.getByRole('img', { name: 'ud-sample.pdf, page 2' }).waitFor();

  // Remove page 2: the document now has 2 pages.
  await viewer.getByRole('button', { name: 'Remove page' }).click();
  await viewer.getByText('Page 2 of 2', { exact: true }).waitFor();

  // Rotate it 90° clockwise: the fitted page turns landscape.
  await viewer.getByRole('button', { name: 'Rotate page' }).click();
  const rotated = viewer.getByRole('img', { name: 'ud-sample.pdf, page 2' });
  await expect.poll(async () => {
    const state = await canvasState(rotated);
    return state.ink > 0 && state.width > state.height;
  }, { timeout: 10_000 }).toBe(true);
  await viewer.getByText('Page 2 of 2', { exact: true }).waitFor();

  await viewer.getByRole('button', { name: 'Restore original' }).click();
  await page.getByText('Original attachment restored.').waitFor();
  await viewer.getByText('Page 2 of 3', { exact: true }).waitFor();
  await expect.poll(async () => {
    const state = await canvasState(viewer.getByRole('img', { name: 'ud-sample.pdf, page 2' }));
    return state.ink > 0 && state.height > state.width;
  }, { timeout: 10_000 }).toBe(true);

  // The view page shows the same document read-only: no page tools, no print or download.
  await page.goto(`/release/${draftId}`);
  await expectHeading(page, 'Faxed referral for Ingrid Vasquez-Holm (viewer)');
  const readOnly = page.getByRole('region', { name: 'Document viewer: ud-sample.pdf' });
  await readOnly.getByText('Page 1 of 3', { exact: true }).waitFor();
  await expect.poll(async () => (await canvasState(readOnly.getByRole('img', { name: 'ud-sample.pdf, page 1' }))).ink).toBeGreaterThan(1_000);
  for (const tool of ['Rotate page', 'Remove page', 'Restore original', 'Print', 'Download']) {
    expect(await readOnly.getByRole('button', { name: tool }).count()).toBe(0);
  }

  expect(cspViolations).toEqual([]);
});
