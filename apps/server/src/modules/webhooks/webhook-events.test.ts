import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import { WEBHOOK_SIGNATURE_HEADER } from '@clinicrelay/contracts/webhooks.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { deliveries } from '../../db/schema/messages.ts';
import { webhooks } from '../../db/schema/webhooks.ts';
import { createBlobStore, type BlobStore } from '../../platform/blobs/blob-store.ts';
import { createCertificateAuthority, issueDirectCertificate } from '../../platform/direct/certificate-authority.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { describeWithFixtures, fixture } from '../../test/shared-fixtures.ts';
import { applyNotification, failOverdueDeliveries, markFailed } from '../../transports/direct/timeline.ts';
import { receiveHere } from '../../transports/local.ts';
import { attachReadyPdf } from '../../test/attach-pdf.ts';
import { startReceiver } from './webhook-test-receiver.ts';
import { referralDraft } from '../../test/referral.ts';

const ADMIN = 'admin@lakeside.example.org';
const USER = 'user@lakeside.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const OTHER_DIRECT = 'someone@other.example.com';
const EXTERNAL_FAX = '5551234567';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Event {
  id: string;
  type: string;
  occurredAt: string;
  organizationId: string;
  data: { messageId: string; deliveryId?: string };
}

// Issue 13 §6: "delivered", "delivery failed" and "processed" reach the organization's webhook once each, from the
// code that makes them happen (the send workflow, the Direct timeline, the Intake "process" call).
describeWithFixtures('webhook events of sent and processed messages (issue 13 §6)', () => {
  const t = useTestApp();
  const config = testConfig();
  const db = () => t.handle.db;
  const receiver = startReceiver();
  let url: string;
  let lakeside: string;
  let blobs: BlobStore;
  let releaseTypeId: string;
  let secret: string;

  // Every workflow that can run now (sends, then the webhook deliveries they made), until none is left.
  const runWorkers = async () => {
    const handlers = workflowHandlers({ config, db: db(), now: () => t.clock.now });
    while ((await runOnce({ db: db(), handlers, logger: quiet })) > 0);
  };
  const events = () => receiver.received.map((r) => JSON.parse(r.body) as Event);
  const subscribe = async (events: string[]) => {
    const res = await t.call(ADMIN, 'PUT', '/api/webhooks/', { url, events, authenticationType: 'HmacSha256' });
    expect(res.statusCode, res.body).toBe(200);
    secret = res.json<{ secret: string }>().secret;
  };
  const draft = async (to: string[] = []) => {
    const res = await t.call(USER, 'PUT', '/api/messages', referralDraft(releaseTypeId, to.join('; ')));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  };

  beforeAll(async () => {
    url = await receiver.listen();
    blobs = createBlobStore({ db: db(), dataDir: config.dataDir, key: config.blobEncryptionKey });
    const [source] = await db().select().from(documentSources).where(eq(documentSources.fullAddress, 'intake@lakeside.direct.example.org'));
    lakeside = source!.organizationId;
    releaseTypeId = (await t.call(USER, 'GET', '/api/releasetypes')).json()[0].id;
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    await db().delete(webhooks);
    receiver.received.length = 0;
  });

  it('tells Lakeside once per recipient how its referral went: delivered here, delivered by fax, failed over Direct', async () => {
    await subscribe(['message.delivered', 'message.deliveryFailed']);
    const id = await draft([RIVERVIEW_DIRECT, EXTERNAL_FAX, OTHER_DIRECT]);
    const pdf = fixture('pdf/ud-sample.pdf');
    await attachReadyPdf(db(), config, { messageId: id, organizationId: lakeside }, pdf);
    const sent = await t.call(USER, 'POST', `/api/messages/${id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    await runWorkers();

    const rows = await db().select().from(deliveries).where(eq(deliveries.messageId, id));
    const deliveryOf = Object.fromEntries(rows.map((d) => [d.recipient, d.id]));
    expect(rows.map((d) => [d.recipient, d.status]).sort()).toEqual(
      [
        [EXTERNAL_FAX, 'Delivered'],
        [OTHER_DIRECT, 'Failed'],
        [RIVERVIEW_DIRECT, 'Delivered'],
      ].sort(),
    );
    expect(events().map((e) => [e.type, e.data.deliveryId]).sort()).toEqual(
      [
        ['message.delivered', deliveryOf[RIVERVIEW_DIRECT]],
        ['message.delivered', deliveryOf[EXTERNAL_FAX]],
        ['message.deliveryFailed', deliveryOf[OTHER_DIRECT]],
      ].sort(),
    );
    for (const [i, event] of events().entries()) {
      // Ids and the event type only: no subject, patient, address or reason.
      expect(event).toEqual({ id: expect.any(String), type: event.type, occurredAt: expect.any(String), organizationId: lakeside, data: { messageId: id, deliveryId: event.data.deliveryId } });
      const { body, headers } = receiver.received[i]!;
      expect(headers[WEBHOOK_SIGNATURE_HEADER]).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
      for (const phi of ['Alvarez', 'Referral', RIVERVIEW_DIRECT, EXTERNAL_FAX, OTHER_DIRECT]) expect(body).not.toContain(phi);
    }
    expect(new Set(events().map((e) => e.id)).size).toBe(3);

    // Nothing left to run, nothing sent twice.
    await runWorkers();
    expect(receiver.received).toHaveLength(3);
  });

  it('the Direct timeline fails an overdue recipient once, and a late “dispatched” notification delivers it once', async () => {
    await subscribe(['message.delivered', 'message.deliveryFailed']);
    const id = await draft();
    const due = new Date(t.clock.now.getTime() - 60_000);
    const [row] = await db()
      .insert(deliveries)
      .values({ messageId: id, organizationId: lakeside, recipient: OTHER_DIRECT, channel: 'Direct', directMessageId: '<late@test>', notificationDueAt: due, reason: deliveryReasons.directSent })
      .returning();
    const delivery = { id: row!.id, organizationId: lakeside, messageId: id };

    expect(await failOverdueDeliveries(db(), t.clock.now)).toBe(1);
    expect(await failOverdueDeliveries(db(), t.clock.now)).toBe(0);
    // Failing an already failed recipient again (a replayed step) changes nothing.
    await markFailed(db(), delivery, 'again', t.clock.now);
    await runWorkers();
    expect(events().map((e) => [e.type, e.data])).toEqual([['message.deliveryFailed', { messageId: id, deliveryId: row!.id }]]);

    const mdn = { originalMessageId: '<late@test>', disposition: 'dispatched' as const, failure: null, finalRecipient: OTHER_DIRECT, originalRecipient: null };
    // Signed by the recipient's HISP, with a certificate of its domain.
    const ca = await createCertificateAuthority({ commonName: 'Other HISP CA', organization: 'Other HISP', validDays: 30 });
    const origin = { from: OTHER_DIRECT, signer: (await issueDirectCertificate(ca, { address: OTHER_DIRECT, usage: 'both', validDays: 30 })).certificateDer };
    expect(await applyNotification(db(), mdn, origin, t.clock.now)).toBe(true);
    expect(await applyNotification(db(), mdn, origin, t.clock.now)).toBe(true);
    await applyNotification(db(), { ...mdn, disposition: 'failed', failure: 'too late' }, origin, t.clock.now);
    await runWorkers();
    expect(events().map((e) => [e.type, e.data.deliveryId])).toEqual([
      ['message.deliveryFailed', row!.id],
      ['message.delivered', row!.id],
    ]);
    expect((await db().select().from(deliveries).where(eq(deliveries.id, row!.id)))[0]).toMatchObject({ status: 'Delivered' });
  });

  it('says “processed” when an Intake message becomes processed, once per change, and only to subscribers', async () => {
    // A referral arrives in Lakeside's Intake (its Administrator sees its default address).
    const inboundId = await receiveHere(
      { db: db(), blobs, now: () => t.clock.now },
      {
        organizationId: lakeside,
        sourceType: 'Direct',
        sentMessageId: null,
        deliveryKey: 'webhook-events-test',
        recipient: 'intake@lakeside.direct.example.org',
        fromAddress: 'referrals@riverview.direct.example.org',
        subject: 'Referral: Maria Alvarez',
        body: '',
        isUrgent: false,
        patient: null,
        properties: null,
        attachments: [],
      },
    );
    const inbound = { id: inboundId };
    await subscribe(['message.processed']);
    // A webhook for received messages only hears nothing of it.
    expect((await t.call(ADMIN, 'PUT', '/api/webhooks/', { url: `${url}/received`, events: ['message.received'], authenticationType: 'HmacSha256' })).statusCode).toBe(200);
    const process = async (isProcessed: boolean) => {
      const res = await t.call(ADMIN, 'PUT', `/api/messages/${inbound.id}/process`, { isProcessed, processType: isProcessed ? 'Printed' : null });
      expect(res.statusCode, res.body).toBe(200);
    };

    await process(true);
    await process(true);
    await runWorkers();
    expect(events()).toEqual([{ id: expect.any(String), type: 'message.processed', occurredAt: t.clock.now.toISOString(), organizationId: lakeside, data: { messageId: inbound.id } }]);
    expect(receiver.received[0]!.headers.host).toBe(new URL(url).host);

    // Back to unprocessed is no event; processed again is a new one.
    await process(false);
    await process(true);
    await runWorkers();
    expect(events().map((e) => e.type)).toEqual(['message.processed', 'message.processed']);
    expect(new Set(events().map((e) => e.id)).size).toBe(2);
  });
});
