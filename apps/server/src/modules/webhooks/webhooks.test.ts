import { createHmac } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, webhookMessages } from '@clinicrelay/contracts/webhooks.ts';
import type { Database } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { userPreferences } from '../../db/schema/users.ts';
import { webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { workflowContext, type WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { emitWebhookEvent, WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow } from './delivery-workflow.ts';
import { userIdOf } from '../intake/test-inbound.ts';
import { attachReadyPdf } from '../../test/attach-pdf.ts';
import { startReceiver } from './webhook-test-receiver.ts';

const ADMIN = 'admin@lakeside.example.org';
const USER = 'user@lakeside.example.org';
const OTHER_ADMIN = 'admin@riverview.example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('webhooks (issue 13 §6)', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const receiver = startReceiver();
  let url: string;
  let lakeside: string;
  const orgId = async (subdomain: string) => (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const runDeliveries = (database: Database = db()) =>
    runOnce({ db: database, handlers: new Map([[WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow({ db: database, now: () => t.clock.now, mailFrom: t.config.mailFrom, publicUrl: t.config.appUrl, secretKey: t.config.blobEncryptionKey, allowLoopback: t.config.webhooks.allowLoopback })]]), logger: quiet });
  const create = async (body: object, user = ADMIN) => {
    const res = await t.call(user, 'PUT', '/api/webhooks/', { url, events: ['message.received'], ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; secret?: string }>();
  };
  const emit = (organizationId = lakeside, messageId = NOBODY) =>
    db().transaction((tx) => emitWebhookEvent(tx, { organizationId, type: 'message.received', messageId, occurredAt: t.clock.now }));
  const detail = async (id: string) => (await t.call(ADMIN, 'GET', `/api/webhooks/${id}`)).json();

  beforeAll(async () => {
    url = await receiver.listen();
    lakeside = await orgId('lakeside');
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    await db().delete(webhooks);
    receiver.received.length = 0;
    receiver.statuses.length = 0;
  });

  it('lets an Administrator add, read, change and delete the organization’s webhooks; the HMAC secret is shown once', async () => {
    expect((await t.call(ADMIN, 'GET', '/api/webhooks/')).json()).toEqual([]);
    // Only the events the product emits are offered.
    expect((await t.call(ADMIN, 'GET', '/api/webhooks/events')).json()).toEqual([
      { value: 'message.received', name: 'Message received' },
      { value: 'message.delivered', name: 'Message delivered' },
      { value: 'message.deliveryFailed', name: 'Delivery failed' },
      { value: 'message.processed', name: 'Message processed' },
    ]);
    expect((await t.call(ADMIN, 'GET', '/api/webhooks/authenticationtypes')).json().map((a: { value: string }) => a.value)).toEqual(['HmacSha256', 'Bearer', 'Basic']);

    const created = await create({ url: 'https://emr.example.org/hooks', authenticationType: 'HmacSha256', events: ['message.received'] });
    expect(created).toMatchObject({ url: 'https://emr.example.org/hooks', authenticationType: 'HmacSha256', isEnabled: true, lastDeliveryStatus: null });
    expect(created.secret).toMatch(/^whsec_[\w-]{43}$/);
    const listed = (await t.call(ADMIN, 'GET', '/api/webhooks')).json();
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(await detail(created.id)).toMatchObject({ id: created.id, events: ['message.received'], userName: null, attempts: [] });

    // An update keeps the secret and never shows it again.
    const updated = await create({ id: created.id, url: 'https://emr.example.org/v2', authenticationType: 'HmacSha256', isEnabled: false });
    expect(updated).toMatchObject({ url: 'https://emr.example.org/v2', isEnabled: false });
    expect(updated).not.toHaveProperty('secret');
    // Stored sealed, never as the secret itself.
    const [stored] = await db().select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(stored!.secret).toMatch(/^sealed:v1:/);
    expect(stored!.secret).not.toContain(created.secret!);

    // Switching to Basic needs a password; the user name is shown, the password never.
    const toBasic = await t.call(ADMIN, 'PUT', '/api/webhooks', { id: created.id, url, events: ['message.received'], authenticationType: 'Basic', userName: 'emr' });
    expect(toBasic.json()).toEqual({ message: webhookMessages.passwordRequired, modelState: { password: [webhookMessages.passwordRequired] } });
    await create({ id: created.id, authenticationType: 'Basic', userName: 'emr', password: 'pa55' });
    expect(await detail(created.id)).toMatchObject({ authenticationType: 'Basic', userName: 'emr' });

    expect((await t.call(ADMIN, 'DELETE', `/api/webhooks/${created.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/webhooks/${created.id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', `/api/webhooks/${created.id}`)).statusCode).toBe(404);
  });

  it('accepts https URLs, and http only for a loopback host; asks for events and credentials', async () => {
    const put = (body: object) => t.call(ADMIN, 'PUT', '/api/webhooks/', { url: 'https://emr.example.org/hooks', events: ['message.received'], authenticationType: 'HmacSha256', ...body });
    expect((await put({ url: 'http://emr.example.org/hooks' })).json().modelState).toEqual({ url: [webhookMessages.urlInvalid] });
    expect((await put({ url: 'ftp://emr.example.org' })).json().modelState).toEqual({ url: [webhookMessages.urlInvalid] });
    expect((await put({ url: 'http://localhost:8080/hooks' })).statusCode).toBe(200);
    expect((await put({ url: 'http://127.0.0.1:8080/hooks' })).statusCode).toBe(200);
    expect((await put({ events: [] })).json().modelState).toEqual({ events: [webhookMessages.eventsRequired] });
    expect((await put({ events: ['message.sneezed'] })).statusCode).toBe(400);
    expect((await put({ authenticationType: 'Bearer' })).json().modelState).toEqual({ token: [webhookMessages.tokenRequired] });
    expect((await put({ authenticationType: 'Basic' })).json().modelState).toEqual({ userName: [webhookMessages.userNameRequired], password: [webhookMessages.passwordRequired] });
  });

  it('keeps each organization’s webhooks to itself (404) and refuses Users (403)', async () => {
    const { id } = await create({ authenticationType: 'HmacSha256' });
    expect((await t.call(OTHER_ADMIN, 'GET', '/api/webhooks')).json()).toEqual([]);
    expect((await t.call(OTHER_ADMIN, 'GET', `/api/webhooks/${id}`)).statusCode).toBe(404);
    expect((await t.call(OTHER_ADMIN, 'PUT', '/api/webhooks', { id, url, events: ['message.received'], authenticationType: 'HmacSha256' })).statusCode).toBe(404);
    expect((await t.call(OTHER_ADMIN, 'DELETE', `/api/webhooks/${id}`)).statusCode).toBe(404);
    expect((await detail(id)).url).toBe(url);

    const calls: [string, string, object?][] = [
      ['GET', '/api/webhooks/'],
      ['GET', '/api/webhooks/events'],
      ['GET', '/api/webhooks/authenticationtypes'],
      ['GET', `/api/webhooks/${id}`],
      ['PUT', '/api/webhooks/', { url, events: ['message.received'], authenticationType: 'HmacSha256' }],
      ['DELETE', `/api/webhooks/${id}`],
    ];
    for (const [method, path, body] of calls) expect((await t.call(USER, method, path, body)).statusCode, `${method} ${path}`).toBe(403);
  });

  it('POSTs a signed event of ids only; the signature verifies with the secret shown at creation', async () => {
    const { id, secret } = await create({ authenticationType: 'HmacSha256' });
    const eventId = await emit(lakeside, NOBODY);
    expect(await runDeliveries()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const expected = `sha256=${createHmac('sha256', secret!).update(request!.body).digest('hex')}`;
    expect(request!.headers[WEBHOOK_SIGNATURE_HEADER]).toBe(expected);
    expect(request!.headers[WEBHOOK_EVENT_ID_HEADER]).toBe(eventId);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({ id: eventId, type: 'message.received', occurredAt: t.clock.now.toISOString(), organizationId: lakeside, data: { messageId: NOBODY } });
    const shown = await detail(id);
    expect(shown).toMatchObject({ lastDeliveryStatus: 'Delivered', attempts: [{ eventId, eventType: 'message.received', attempt: 1, statusCode: 200, error: null }] });
  });

  it('sends bearer and basic credentials as Authorization headers; a disabled webhook gets nothing', async () => {
    await create({ authenticationType: 'Bearer', token: 'tok-123' });
    await emit();
    await runDeliveries();
    expect(receiver.received.map((r) => r.headers.authorization)).toEqual(['Bearer tok-123']);
    expect(receiver.received[0]!.headers[WEBHOOK_SIGNATURE_HEADER]).toBeUndefined();

    await db().delete(webhooks);
    await create({ authenticationType: 'Basic', userName: 'emr', password: 'pa:55' });
    await create({ authenticationType: 'Bearer', token: 'off', isEnabled: false });
    await emit();
    await runDeliveries();
    expect(receiver.received.map((r) => r.headers.authorization)).toEqual(['Bearer tok-123', `Basic ${Buffer.from('emr:pa:55').toString('base64')}`]);
  });

  it('retries a failed delivery later with the same event id, and keeps each attempt', async () => {
    const { id } = await create({ authenticationType: 'HmacSha256' });
    receiver.statuses.push(500);
    const eventId = await emit();
    await runDeliveries();
    expect(receiver.received).toHaveLength(1);
    expect(await detail(id)).toMatchObject({ lastDeliveryStatus: 'Failed', attempts: [{ attempt: 1, statusCode: 500, error: 'The receiver answered 500.' }] });
    // The next try waits for its time (30 s): nothing runs now.
    expect(await runDeliveries()).toBe(0);
    const pending = await db().select().from(workflows).where(and(eq(workflows.type, WEBHOOK_DELIVERY_WORKFLOW), eq(workflows.status, 'Pending')));
    expect(pending).toHaveLength(1);
    expect(pending[0]!.runAfter.getTime() - t.clock.now.getTime()).toBe(30_000);
    await db().update(workflows).set({ runAfter: sql`now()` }).where(eq(workflows.id, pending[0]!.id));
    expect(await runDeliveries()).toBe(1);
    expect(receiver.received.map((r) => r.headers[WEBHOOK_EVENT_ID_HEADER])).toEqual([eventId, eventId]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const shown = await detail(id);
    expect(shown.lastDeliveryStatus).toBe('Delivered');
    expect(shown.attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode])).toEqual([
      [2, 200],
      [1, 500],
    ]);
  });

  it('sends the same event id again when a worker died mid-delivery, and records the try once', async () => {
    const { id } = await create({ authenticationType: 'HmacSha256' });
    const eventId = await emit();
    const [workflow] = await db().select().from(workflows).where(and(eq(workflows.type, WEBHOOK_DELIVERY_WORKFLOW), eq(workflows.status, 'Pending')));
    // The POST goes out, then the worker dies before it records anything.
    const dying = new Proxy(db(), {
      get: (target, key, receiverObj) =>
        key === 'transaction' ? () => Promise.reject(new Error('worker killed')) : (Reflect.get(target, key, receiverObj) as unknown),
    });
    const handler = webhookDeliveryWorkflow({ db: dying, now: () => t.clock.now, mailFrom: t.config.mailFrom, publicUrl: t.config.appUrl, secretKey: t.config.blobEncryptionKey, allowLoopback: t.config.webhooks.allowLoopback });
    await expect(handler(workflowContext({ db: dying, workflow: workflow!, now: () => t.clock.now, signal: new AbortController().signal }))).rejects.toThrow('worker killed');
    expect(receiver.received).toHaveLength(1);
    // Another worker runs the workflow again.
    expect(await runDeliveries()).toBe(1);
    expect(receiver.received.map((r) => r.headers[WEBHOOK_EVENT_ID_HEADER])).toEqual([eventId, eventId]);
    expect((await detail(id)).attempts).toHaveLength(1);
    expect(await runDeliveries()).toBe(0);
    expect(receiver.received).toHaveLength(2);
  });

  it('gives up after a day of failures and disables the webhook', async () => {
    const { id } = await create({ authenticationType: 'HmacSha256' });
    // Lakeside's other Administrator has turned system notifications off.
    await db().update(userPreferences).set({ emailSystemNotifications: false }).where(eq(userPreferences.userId, await userIdOf(db(), 'netadmin@example.org')));
    await emit();
    const started = t.clock.now;
    try {
      t.clock.now = new Date(started.getTime() + 24 * 60 * 60_000 + 1000);
      receiver.statuses.push(503);
      await runDeliveries();
    } finally {
      t.clock.now = started;
    }
    expect(await detail(id)).toMatchObject({ isEnabled: false, disabledReason: webhookMessages.disabledAfterFailures, lastDeliveryStatus: 'Failed' });
    const [delivery] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id));
    expect(delivery).toMatchObject({ status: 'Failed', attempts: 1 });
    expect(await db().select().from(workflows).where(and(eq(workflows.type, WEBHOOK_DELIVERY_WORKFLOW), eq(workflows.status, 'Pending')))).toEqual([]);
    // Lakeside's Administrators are told, with the URL and no message content.
    const mails = await db().select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'WebhookDisabled'), eq(mailOutbox.organizationId, lakeside)));
    expect(mails.map((m) => m.toAddress)).toEqual([ADMIN]);
    expect(mails[0]!.textBody).toContain(url);
    // No more events for a disabled webhook.
    expect(await emit()).toBeNull();
  });

  itWithFixtures('a message Lakeside sends to Riverview reaches Riverview’s webhook as exactly one “message received” event', async () => {
    const config = testConfig();
    const riverview = await orgId('riverview');
    const { id } = await create({ authenticationType: 'HmacSha256' }, OTHER_ADMIN);
    const sources = await db().select().from(documentSources);
    const releaseTypeId = (await t.call(USER, 'GET', '/api/releasetypes')).json()[0].id;
    const draft = await t.call(USER, 'PUT', '/api/messages', {
      subject: 'Referral: cardiology consult',
      fromAddress: 'intake@lakeside.direct.example.org',
      toAddress: 'referrals@riverview.direct.example.org',
      body: 'Please see this patient.',
      releaseTypeId,
      patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
      properties: { includeCoverPage: true, includeMessageBody: true, includeAttachmentDescriptions: true },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const messageId = draft.json().id as string;
    const pdf = fixture('pdf/ud-sample.pdf');
    await attachReadyPdf(db(), config, { messageId, organizationId: lakeside }, pdf);
    expect(sources.length).toBeGreaterThan(0);
    const sent = await t.call(USER, 'POST', `/api/messages/${messageId}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const handlers = workflowHandlers({ config, db: db(), now: () => t.clock.now });
    await runOnce({ db: db(), handlers, logger: quiet });
    await runOnce({ db: db(), handlers, logger: quiet });

    const [inbound] = await db().select({ id: messages.id }).from(messages).where(and(eq(messages.originalObjectId, messageId), eq(messages.direction, 'Inbound')));
    expect(inbound).toBeDefined();
    expect(receiver.received).toHaveLength(1);
    const event = JSON.parse(receiver.received[0]!.body);
    expect(event).toMatchObject({ type: 'message.received', organizationId: riverview, data: { messageId: inbound!.id } });
    expect(receiver.received[0]!.body).not.toContain('Alvarez');
    expect((await t.call(OTHER_ADMIN, 'GET', `/api/webhooks/${id}`)).json()).toMatchObject({ lastDeliveryStatus: 'Delivered', attempts: [{ eventId: event.id, statusCode: 200 }] });
  });
});
