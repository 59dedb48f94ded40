import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookMessages, type WebhookDetail } from '@clinicrelay/contracts/webhooks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { webhooks } from '../../db/schema/webhooks.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp, type TestContext } from '../../test/app.ts';
import { resolve4With, startDnsTestServer, type DnsTestServer } from '../../test/dns-test-server.ts';
import { emitWebhookEvent, WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow } from './delivery-workflow.ts';
import type { ResolveHost } from './guarded-post.ts';
import { startReceiver } from './webhook-test-receiver.ts';

const ADMIN = 'admin@lakeside.example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// Issue 26 §1: in production a webhook must not reach the server itself (its API, SMTP or database ports would answer,
// and the attempt log would tell what answered: a blind port scan). Development keeps a local receiver.
function loopbackSuite(env: 'production' | 'development') {
  const t: TestContext = useTestApp({ config: { NODE_ENV: env } });
  const db = () => t.handle.db;
  const receiver = startReceiver();
  let dns: DnsTestServer;
  let lakeside: string;
  let resolveHost: ResolveHost;

  const runDeliveries = () =>
    runOnce({
      db: db(),
      handlers: new Map([
        [
          WEBHOOK_DELIVERY_WORKFLOW,
          webhookDeliveryWorkflow({ db: db(), now: () => t.clock.now, mailFrom: t.config.mailFrom, publicUrl: t.config.appUrl, secretKey: t.config.blobEncryptionKey, allowLoopback: t.config.webhooks.allowLoopback, resolveHost }),
        ],
      ]),
      logger: quiet,
    });
  const put = (url: string) => t.call(ADMIN, 'PUT', '/api/webhooks/', { url, events: ['message.received'], authenticationType: 'HmacSha256' });
  // A webhook whose stored URL is `url` (a row saved before the rule, or a name that resolves to loopback).
  const storedWebhook = async (url: string) => {
    const res = await put('https://receiver.example.org/hooks');
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ id: string }>();
    await db().update(webhooks).set({ url }).where(eq(webhooks.id, id));
    return id;
  };
  const attemptsOf = async (id: string) => (await t.call(ADMIN, 'GET', `/api/webhooks/${id}`)).json<WebhookDetail>().attempts;
  const emit = () => db().transaction((tx) => emitWebhookEvent(tx, { organizationId: lakeside, type: 'message.received', messageId: NOBODY, occurredAt: t.clock.now }));

  beforeAll(async () => {
    await receiver.listen();
    dns = await startDnsTestServer([
      { type: 'A', name: 'receiver.example.org', ttl: 60, data: '127.0.0.1' },
      { type: 'A', name: 'sneaky.example.org', ttl: 60, data: '203.0.113.7' },
      { type: 'A', name: 'sneaky.example.org', ttl: 60, data: '127.0.0.2' },
    ]);
    resolveHost = resolve4With(dns);
    lakeside = (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside')))[0]!.id;
  });
  afterAll(async () => {
    await receiver.close();
    await dns.close();
  });
  beforeEach(async () => {
    await db().delete(webhooks);
    receiver.received.length = 0;
  });
  return { t, receiver, put, storedWebhook, attemptsOf, emit, runDeliveries };
}

describe('webhooks to the server itself in production (issue 26)', () => {
  const s = loopbackSuite('production');

  it('refuses a loopback address or localhost at creation and update, with a clear message', async () => {
    expect(s.t.config.webhooks.allowLoopback).toBe(false);
    const port = s.receiver.port();
    for (const url of [`http://127.0.0.1:${port}/hooks`, 'http://localhost:2525/', 'https://localhost/hooks', 'https://127.8.9.10/hooks', 'https://[::1]:5432/', 'https://api.localhost/hooks', 'https://LOCALHOST./hooks']) {
      const res = await s.put(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ message: webhookMessages.urlLoopback, modelState: { url: [webhookMessages.urlLoopback] } });
    }
    const id = await s.storedWebhook('https://receiver.example.org/hooks');
    const update = await s.t.call(ADMIN, 'PUT', '/api/webhooks/', { id, url: 'http://localhost:8080/hooks', events: ['message.received'], authenticationType: 'HmacSha256' });
    expect(update.statusCode).toBe(400);
    expect(update.json().modelState).toEqual({ url: [webhookMessages.urlLoopback] });
  });

  it('refuses to connect to loopback at delivery: a literal, localhost, or a name that resolves there; nothing of the target is told', async () => {
    const port = s.receiver.port();
    const literal = await s.storedWebhook(`http://127.0.0.1:${port}/hooks`);
    const localhost = await s.storedWebhook(`http://localhost:${port}/hooks`);
    const named = await s.storedWebhook(`http://receiver.example.org:${port}/hooks`);
    const mixed = await s.storedWebhook(`http://sneaky.example.org:${port}/hooks`);
    await s.emit();
    expect(await s.runDeliveries()).toBe(4);
    expect(s.receiver.received).toEqual([]);
    expect(await s.attemptsOf(literal)).toMatchObject([{ statusCode: null, error: 'Not sent: 127.0.0.1 is an address of this server.' }]);
    expect(await s.attemptsOf(localhost)).toMatchObject([{ statusCode: null, error: 'Not sent: localhost is this server.' }]);
    expect(await s.attemptsOf(named)).toMatchObject([{ statusCode: null, error: 'Not sent: receiver.example.org resolves to 127.0.0.1, an address of this server.' }]);
    expect(await s.attemptsOf(mixed)).toMatchObject([{ statusCode: null, error: 'Not sent: sneaky.example.org resolves to 127.0.0.2, an address of this server.' }]);
  });
});

describe('webhooks to a local receiver in development (issue 26)', () => {
  const s = loopbackSuite('development');

  it('accepts loopback and localhost, and delivers to a name that resolves to 127.0.0.1', async () => {
    expect(s.t.config.webhooks.allowLoopback).toBe(true);
    expect(testConfig().webhooks.allowLoopback).toBe(true);
    for (const url of [`http://127.0.0.1:${s.receiver.port()}/hooks`, 'http://localhost:8080/hooks']) expect((await s.put(url)).statusCode, url).toBe(200);
    // Only the named one receives the event (nothing is sent to whatever listens on 8080).
    await s.t.handle.db.delete(webhooks);
    const named = await s.storedWebhook(`http://receiver.example.org:${s.receiver.port()}/hooks`);
    await s.emit();
    await s.runDeliveries();
    expect(await s.attemptsOf(named)).toMatchObject([{ statusCode: 200, error: null }]);
  });
});
