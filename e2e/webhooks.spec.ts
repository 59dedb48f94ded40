import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { composeReferral, expectHeading, openSignIn, sendAndOpen, signIn } from './support/journeys.ts';
import { newContext, test } from './support/test.ts';

// Issue 13 §6 and §8: Riverview's Administrator registers a webhook (a receiver on loopback, signed with HMAC-SHA256),
// sees its secret once, and receives a signed "message received" event when Lakeside sends Riverview a referral.

test('a webhook receives a signed “message received” event and the page shows the delivery', { timeout: 90_000 }, async ({ page, context }) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${Date.now().toString(36)}`;
  try {
    await openSignIn(page);
    await signIn(page, 'admin@riverview.example.org');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Webhooks' }).click();
    await expectHeading(page, 'Webhooks');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const add = page.getByRole('dialog', { name: 'Add webhook' });
    await add.getByRole('textbox', { name: 'URL' }).fill(url);
    await expectNoAxeViolations(page, 'webhook-add');
    await add.getByRole('button', { name: 'Save' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await secretDialog.getByText(/^whsec_/).textContent())!.trim();
    await expectNoAxeViolations(page, 'webhook-secret');
    await screenshot(page, 'webhook-secret');
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: url });
    await row.getByText('None yet').waitFor();
    await expectNoAxeViolations(page, 'webhooks');

    // Lakeside sends Riverview a referral in another browser session.
    const lakeside = await newContext(context.browser()!, new URL(page.url()).origin);
    const sender = await lakeside.newPage();
    const subject = `Webhook check ${Date.now().toString(36)}`;
    await openSignIn(sender);
    await signIn(sender, 'user@lakeside.example.org');
    await composeReferral(sender, ['referrals@riverview.direct.example.org'], subject);
    await sendAndOpen(sender, subject);
    await lakeside.close();

    await expect.poll(() => received.length, { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
    const [delivery] = received;
    const expected = `sha256=${createHmac('sha256', secret).update(delivery!.body).digest('hex')}`;
    expect(delivery!.headers['x-clinicrelay-signature']).toBe(expected);
    const event = JSON.parse(delivery!.body) as { id: string; type: string; data: Record<string, unknown> };
    expect(event.type).toBe('message.received');
    expect(delivery!.headers['x-clinicrelay-event-id']).toBe(event.id);
    expect(delivery!.body).not.toContain('Alvarez');
    expect(delivery!.body).not.toContain(subject);

    await expect.poll(async () => {
      await page.reload();
      return row.getByText('Delivered').waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      );
    }, { timeout: 20_000, interval: 500 }).toBe(true);
    await row.getByRole('button', { name: `Deliveries to ${url}` }).click();
    const deliveries = page.getByRole('dialog', { name: `Recent deliveries to ${url}` });
    await deliveries.getByRole('cell', { name: event.id }).waitFor();
    await screenshot(page, 'webhook-deliveries');
    await page.keyboard.press('Escape');

    await row.getByRole('button', { name: `Delete ${url}` }).click();
    await page.getByRole('dialog', { name: 'Delete webhook' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('The webhook was deleted.').waitFor();
    await row.waitFor({ state: 'detached' });
  } finally {
    await new Promise<void>((done) => receiver.close(() => done()));
  }
});
