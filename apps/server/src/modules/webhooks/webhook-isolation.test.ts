import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { documentSources } from '../../db/schema/document-sources.ts';
import { deliveries } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers, workflowLanes } from '../../platform/workflows/registry.ts';
import { startWorkers, type Workers } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { attachReadyPdf } from '../../test/attach-pdf.ts';
import { describeWithFixtures, fixture } from '../../test/shared-fixtures.ts';
import { emitWebhookEvent } from './delivery-workflow.ts';
import { sealWebhookSecret } from './secrets.ts';
import { startReceiver } from './webhook-test-receiver.ts';
import { referralDraft } from '../../test/referral.ts';

const ADMIN = 'admin@lakeside.example.org';
const USER = 'user@lakeside.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// A receiver that accepts every connection and never answers: each delivery to it holds a webhook worker until its timeout.
function startHangingReceiver() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  let connections = 0;
  server.on('connection', () => connections++);
  return {
    connections: () => connections,
    // Connections the webhook workers gave up on (their timeout): none means every worker is still stuck.
    givenUp: () => connections - sockets.size,
    listen: () => new Promise<string>((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`))),
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

// Issue 26 §1: one organization's 20 webhooks to a receiver that never answers took another organization's local
// delivery from 40 ms to minutes. Delivery has its own lane now, and the webhook lane serves organizations fairly.
describeWithFixtures('webhooks that hang do not hold up delivery (issue 26)', () => {
  const t = useTestApp();
  // The default timeout: the delivery must be done while every webhook worker is still stuck on the hanging receiver.
  const config = testConfig({ WEBHOOK_TIMEOUT_SECONDS: '5' });
  const db = () => t.handle.db;
  const hanging = startHangingReceiver();
  const receiver = startReceiver();
  let workers: Workers | undefined;
  let hillcrest: string;
  let lakeside: string;

  beforeAll(async () => {
    const hangingUrl = await hanging.listen();
    await receiver.listen();
    hillcrest = (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'hillcrest')))[0]!.id;
    const [source] = await db().select().from(documentSources).where(eq(documentSources.fullAddress, 'intake@lakeside.direct.example.org'));
    lakeside = source!.organizationId;
    for (let i = 0; i < 20; i++) {
      const id = randomUUID();
      await db()
        .insert(webhooks)
        .values({ id, organizationId: hillcrest, url: hangingUrl, events: ['message.received'], authenticationType: 'HmacSha256', secret: sealWebhookSecret(config.blobEncryptionKey, id, `whsec_${i}`) });
    }
  });
  afterAll(async () => {
    await workers?.stop();
    await hanging.close();
    await receiver.close();
  });

  it('delivers Lakeside’s referral to Riverview while every webhook worker hangs on Hillcrest’s 20 webhooks, and Lakeside’s webhook goes before Hillcrest’s backlog', async () => {
    const subscribed = await t.call(ADMIN, 'PUT', '/api/webhooks/', { url: `http://127.0.0.1:${receiver.port()}/hooks`, events: ['message.delivered'], authenticationType: 'HmacSha256' });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    // Two events for each of Hillcrest's webhooks: 40 deliveries to the receiver that never answers.
    for (let i = 0; i < 2; i++) await db().transaction((tx) => emitWebhookEvent(tx, { organizationId: hillcrest, type: 'message.received', messageId: NOBODY }));

    workers = await startWorkers({ db: db(), handlers: workflowHandlers({ config, db: db(), now: () => new Date() }), lanes: workflowLanes(config), pollIntervalMs: 50, logger: quiet });
    // Every webhook worker is stuck on the hanging receiver before Lakeside sends.
    await vi.waitFor(() => expect(hanging.connections()).toBeGreaterThanOrEqual(config.workerLanes.webhooks), { timeout: 10_000, interval: 20 });

    const releaseTypeId = (await t.call(USER, 'GET', '/api/releasetypes')).json()[0].id;
    const draft = await t.call(USER, 'PUT', '/api/messages', referralDraft(releaseTypeId, RIVERVIEW_DIRECT));
    expect(draft.statusCode, draft.body).toBe(200);
    const messageId = draft.json<{ id: string }>().id;
    await attachReadyPdf(db(), config, { messageId, organizationId: lakeside }, fixture('pdf/ud-sample.pdf'));

    const sent = await t.call(USER, 'POST', `/api/messages/${messageId}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    await vi.waitFor(
      async () => {
        const [row] = await db().select({ status: deliveries.status }).from(deliveries).where(and(eq(deliveries.messageId, messageId), eq(deliveries.recipient, RIVERVIEW_DIRECT)));
        expect(row?.status).toBe('Delivered');
      },
      { timeout: 30_000, interval: 10 },
    );
    // Delivered while the webhooks hang: no webhook worker had been freed by its timeout (a time would be a bench's
    // figure; this is the order of events the lanes guarantee).
    expect(hanging.givenUp()).toBe(0);

    // Lakeside's "delivered" event waits only for a free webhook worker, not behind Hillcrest's 40 deliveries.
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 30_000, interval: 20 });
    const hillcrestTries = await db().select({ id: webhookAttempts.id }).from(webhookAttempts).innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId)).where(eq(webhookDeliveries.organizationId, hillcrest));
    expect(hillcrestTries.length).toBeLessThan(10);
  }, 60_000);
});
