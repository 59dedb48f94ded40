import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookMessages, webhookPausedNote, type WebhookDetail } from '@clinicrelay/contracts/webhooks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';
import { workflows } from '../../db/schema/workflows.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { useTestApp } from '../../test/app.ts';
import { CIRCUIT_FAILURES } from './circuit.ts';
import { emitWebhookEvent, WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow } from './delivery-workflow.ts';
import { startReceiver } from './webhook-test-receiver.ts';

const ADMIN = 'admin@lakeside.example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// Issue 26 §1: a failing endpoint is paused after failed tries in a row; its deliveries wait without spending tries,
// then one probes; the Administrator sees the pause.
describe('a failing webhook’s circuit (issue 26)', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const receiver = startReceiver();
  let url: string;
  let lakeside: string;

  const run = (workerId?: string) =>
    runOnce({
      db: db(),
      handlers: new Map([[WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow({ db: db(), now: () => t.clock.now, mailFrom: t.config.mailFrom, publicUrl: t.config.appUrl, secretKey: t.config.blobEncryptionKey, allowLoopback: true })]]),
      logger: quiet,
      ...(workerId ? { workerId } : {}),
    });
  const emit = () => db().transaction((tx) => emitWebhookEvent(tx, { organizationId: lakeside, type: 'message.received', messageId: NOBODY, occurredAt: t.clock.now }));
  const detail = async (id: string) => (await t.call(ADMIN, 'GET', `/api/webhooks/${id}`)).json<WebhookDetail>();
  // Moves the clock on and makes every waiting delivery due, as if that time had passed.
  const pass = async (ms: number) => {
    t.clock.now = new Date(t.clock.now.getTime() + ms);
    await db().update(workflows).set({ runAfter: sql`now()` }).where(and(eq(workflows.type, WEBHOOK_DELIVERY_WORKFLOW), eq(workflows.status, 'Pending')));
  };
  const failWith = (status: number, times: number) => receiver.statuses.push(...Array<number>(times).fill(status));

  beforeAll(async () => {
    url = await receiver.listen();
    lakeside = (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside')))[0]!.id;
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    await db().delete(webhooks);
    await db().delete(workflows).where(eq(workflows.type, WEBHOOK_DELIVERY_WORKFLOW));
    receiver.received.length = 0;
    receiver.statuses.length = 0;
    t.clock.now = new Date();
  });

  it('pauses after failed tries in a row, lets one probe through when the pause ends, and resumes every delivery on success', async () => {
    const saved = await t.call(ADMIN, 'PUT', '/api/webhooks/', { url, events: ['message.received'], authenticationType: 'HmacSha256' });
    expect(saved.statusCode, saved.body).toBe(200);
    const { id } = saved.json<{ id: string }>();
    failWith(500, 100);
    for (let i = 0; i < CIRCUIT_FAILURES + 2; i++) await emit();

    // Five tries fail; the fifth pauses the webhook for a minute; the other two events wait without a try.
    expect(await run()).toBe(CIRCUIT_FAILURES + 2);
    expect(receiver.received).toHaveLength(CIRCUIT_FAILURES);
    const pausedUntil = new Date(t.clock.now.getTime() + 60_000).toISOString();
    const paused = await detail(id);
    expect(paused).toMatchObject({ isEnabled: true, consecutiveFailures: CIRCUIT_FAILURES, pausedUntil, lastDeliveryStatus: 'Failed' });
    expect(paused.attempts).toHaveLength(CIRCUIT_FAILURES);
    expect(paused.attempts.filter((a) => a.error?.endsWith(webhookPausedNote(pausedUntil)))).toHaveLength(1);
    expect((await t.call(ADMIN, 'GET', '/api/webhooks')).json()).toMatchObject([{ id, consecutiveFailures: CIRCUIT_FAILURES, pausedUntil }]);

    // Before the pause ends nothing is sent, however often the deliveries come due.
    await pass(30_000);
    await run();
    expect(receiver.received).toHaveLength(CIRCUIT_FAILURES);

    // The pause ends: three workers at once, one probe; it fails, and the pause doubles.
    await pass(31_000);
    await Promise.all(['a', 'b', 'c'].map((w) => run(w)));
    expect(receiver.received).toHaveLength(CIRCUIT_FAILURES + 1);
    expect(await detail(id)).toMatchObject({ consecutiveFailures: CIRCUIT_FAILURES + 1, pausedUntil: new Date(t.clock.now.getTime() + 120_000).toISOString() });

    // The receiver is back: the next probe succeeds and every waiting delivery goes at once.
    receiver.statuses.length = 0;
    await pass(121_000);
    await run();
    const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    expect(rows.map((r) => r.status)).toEqual(Array<string>(CIRCUIT_FAILURES + 2).fill('Delivered'));
    expect(await detail(id)).toMatchObject({ consecutiveFailures: 0, pausedUntil: null, lastDeliveryStatus: 'Delivered' });
    // Each event reached the receiver once successfully; no try was spent while paused.
    expect(receiver.received).toHaveLength(CIRCUIT_FAILURES + 1 + CIRCUIT_FAILURES + 2);
  });

  it('disables a webhook that has failed for a day even when its deliveries are younger, and a re-enable starts afresh', async () => {
    const saved = await t.call(ADMIN, 'PUT', '/api/webhooks/', { url, events: ['message.received'], authenticationType: 'HmacSha256' });
    const { id } = saved.json<{ id: string }>();
    await db()
      .update(webhooks)
      .set({ consecutiveFailures: 40, failingSince: new Date(t.clock.now.getTime() - 24 * 60 * 60_000 - 1000) })
      .where(eq(webhooks.id, id));
    failWith(503, 1);
    await emit();
    await run();
    expect(await detail(id)).toMatchObject({ isEnabled: false, disabledReason: webhookMessages.disabledAfterFailures });

    const enabled = await t.call(ADMIN, 'PUT', '/api/webhooks/', { id, url, events: ['message.received'], authenticationType: 'HmacSha256', isEnabled: true });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ isEnabled: true, consecutiveFailures: 0, pausedUntil: null });
    await emit();
    await run();
    expect(await detail(id)).toMatchObject({ isEnabled: true, lastDeliveryStatus: 'Delivered' });
  });
});
