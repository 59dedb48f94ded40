import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_SIGNATURE_HEADER, webhookMessages } from '@clinicrelay/contracts/webhooks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { webhooks } from '../../db/schema/webhooks.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { useTestApp } from '../../test/app.ts';
import { resolve4With, startDnsTestServer, type DnsTestServer } from '../../test/dns-test-server.ts';
import { emitWebhookEvent, WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow } from './delivery-workflow.ts';
import type { ResolveHost } from './guarded-post.ts';
import { startReceiver } from './webhook-test-receiver.ts';

const ADMIN = 'admin@lakeside.example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// Issue 13 §6: a webhook URL is a customer's, and the server sits inside the installation's network: it must not be
// made to call into that network (SSRF). Its credentials are sealed at rest.
describe('webhook security (issue 13 §6)', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const receiver = startReceiver();
  let url: string;
  let lakeside: string;
  let dns: DnsTestServer;
  let lookups: string[];
  // Host names resolved by the test's DNS server on loopback, as the system resolver would ask a real one.
  let resolveHost: ResolveHost;

  const runDeliveries = () =>
    runOnce({
      db: db(),
      handlers: new Map([[WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow({ db: db(), now: () => t.clock.now, mailFrom: t.config.mailFrom, publicUrl: t.config.appUrl, secretKey: t.config.blobEncryptionKey, allowLoopback: t.config.webhooks.allowLoopback, resolveHost })]]),
      logger: quiet,
    });
  const put = (body: object) => t.call(ADMIN, 'PUT', '/api/webhooks/', { url, events: ['message.received'], authenticationType: 'HmacSha256', ...body });
  const create = async (body: object) => {
    const res = await put(body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; secret?: string }>();
  };
  const emit = () => db().transaction((tx) => emitWebhookEvent(tx, { organizationId: lakeside, type: 'message.received', messageId: NOBODY, occurredAt: t.clock.now }));
  const attempts = async (id: string) => (await t.call(ADMIN, 'GET', `/api/webhooks/${id}`)).json<{ attempts: { statusCode: number | null; error: string | null }[] }>().attempts;
  const stored = async (id: string) => (await db().select().from(webhooks).where(eq(webhooks.id, id)))[0]!;

  beforeAll(async () => {
    url = await receiver.listen();
    dns = await startDnsTestServer([
      { type: 'A', name: 'internal.example.org', ttl: 60, data: '10.0.0.5' },
      { type: 'A', name: 'mixed.example.org', ttl: 60, data: '203.0.113.7' },
      { type: 'A', name: 'mixed.example.org', ttl: 60, data: '169.254.169.254' },
      { type: 'A', name: 'receiver.example.org', ttl: 60, data: '127.0.0.1' },
    ]);
    resolveHost = resolve4With(dns, (host) => lookups.push(host));
    lakeside = (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside')))[0]!.id;
  });
  afterAll(async () => {
    await receiver.close();
    await dns.close();
  });
  beforeEach(async () => {
    await db().delete(webhooks);
    receiver.received.length = 0;
    receiver.statuses.length = 0;
    lookups = [];
  });

  it('refuses a URL whose host is an IP address of a private, link-local, metadata or unspecified network; loopback stays allowed', async () => {
    const refused = [
      'https://10.0.0.5/hooks',
      'https://172.16.4.1/hooks',
      'https://192.168.1.20/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hooks',
      'https://0.0.0.0/hooks',
      'https://167772161/hooks', // 10.0.0.1 written as one number
      'https://[fc00::1]/hooks',
      'https://[fd12:3456::1]/hooks',
      'https://[fe80::1]/hooks',
      'https://[::]/hooks',
      'https://[::ffff:10.0.0.1]/hooks',
      'https://[::ffff:a9fe:a9fe]/hooks',
    ];
    for (const candidate of refused) {
      const res = await put({ url: candidate });
      expect(res.statusCode, candidate).toBe(400);
      expect(res.json().modelState, candidate).toEqual({ url: [webhookMessages.urlPrivate] });
    }
    for (const allowed of ['https://203.0.113.7/hooks', 'https://[2001:db8::1]/hooks', 'http://127.0.0.1:8080/hooks', 'http://localhost:8080/hooks', 'https://internal.example.org/hooks']) {
      expect((await put({ url: allowed })).statusCode, allowed).toBe(200);
    }
  });

  it('refuses to deliver to a host name that resolves into the private network: a failed try with the reason, no request', async () => {
    // Names are accepted at registration: what they resolve to is checked at each delivery.
    const internal = await create({ url: 'https://internal.example.org/hooks' });
    const mixed = await create({ url: 'https://mixed.example.org/hooks' });
    await emit();
    expect(await runDeliveries()).toBe(2);
    expect(await attempts(internal.id)).toMatchObject([{ statusCode: null, error: 'Not sent: internal.example.org resolves to 10.0.0.5, an address in a private network.' }]);
    // One address inside is enough: the connection could go to any of them.
    expect(await attempts(mixed.id)).toMatchObject([{ statusCode: null, error: 'Not sent: mixed.example.org resolves to 169.254.169.254, an address in a private network.' }]);
    expect(receiver.received).toEqual([]);
  });

  it('refuses a stored URL to a private IP address without asking DNS (a row older than the check)', async () => {
    const { id } = await create({});
    await db().update(webhooks).set({ url: 'http://10.0.0.5:8080/hooks' }).where(eq(webhooks.id, id));
    await emit();
    await runDeliveries();
    expect(await attempts(id)).toMatchObject([{ statusCode: null, error: 'Not sent: 10.0.0.5 is an address in a private network.' }]);
    expect(lookups).toEqual([]);
  });

  it('resolves a host name once and connects to the address it checked, under the URL’s own host name', async () => {
    const { id } = await create({});
    // receiver.example.org resolves to loopback, where the test's receiver listens (http only for a test name).
    await db().update(webhooks).set({ url: `http://receiver.example.org:${receiver.port()}/hooks` }).where(eq(webhooks.id, id));
    await emit();
    await runDeliveries();
    expect(lookups).toEqual(['receiver.example.org']);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`receiver.example.org:${receiver.port()}`);
    expect(await attempts(id)).toMatchObject([{ statusCode: 200, error: null }]);
  });

  it('does not follow a redirect: the answer is recorded as a failed try', async () => {
    const { id } = await create({});
    receiver.statuses.push(302);
    await emit();
    await runDeliveries();
    expect(receiver.received).toHaveLength(1);
    expect(await attempts(id)).toMatchObject([{ statusCode: 302, error: 'The receiver answered 302.' }]);
  });

  it('stores the HMAC secret, bearer token and Basic password sealed, never as they are', async () => {
    const hmac = await create({});
    const bearer = await create({ authenticationType: 'Bearer', token: 'tok-plain-123' });
    const basic = await create({ authenticationType: 'Basic', userName: 'emr', password: 'pa55-plain' });
    for (const [row, plain] of [
      [await stored(hmac.id), hmac.secret!],
      [await stored(bearer.id), 'tok-plain-123'],
      [await stored(basic.id), 'pa55-plain'],
    ] as const) {
      expect(row.secret).toMatch(/^sealed:v1:/);
      expect(row.secret).not.toContain(plain);
    }
    // The sealed values still authenticate each delivery.
    await emit();
    await runDeliveries();
    const byAuth = receiver.received.map((r) => r.headers.authorization ?? r.headers[WEBHOOK_SIGNATURE_HEADER]);
    expect(byAuth).toEqual(
      expect.arrayContaining([
        `sha256=${createHmac('sha256', hmac.secret!).update(receiver.received[0]!.body).digest('hex')}`,
        'Bearer tok-plain-123',
        `Basic ${Buffer.from('emr:pa55-plain').toString('base64')}`,
      ]),
    );
  });

  it('keeps a webhook stored before sealing working: its plain secret signs, and the next save seals it', async () => {
    const { id } = await create({});
    await db().update(webhooks).set({ secret: 'whsec_legacy-plain' }).where(eq(webhooks.id, id));
    const signedWith = (secret: string, i: number) => `sha256=${createHmac('sha256', secret).update(receiver.received[i]!.body).digest('hex')}`;
    await emit();
    await runDeliveries();
    expect(receiver.received[0]!.headers[WEBHOOK_SIGNATURE_HEADER]).toBe(signedWith('whsec_legacy-plain', 0));

    // An edit that keeps the secret seals it; deliveries stay signed with the same secret.
    const saved = await create({ id, url, events: ['message.received'] });
    expect(saved).not.toHaveProperty('secret');
    expect((await stored(id)).secret).toMatch(/^sealed:v1:/);
    await emit();
    await runDeliveries();
    expect(receiver.received[1]!.headers[WEBHOOK_SIGNATURE_HEADER]).toBe(signedWith('whsec_legacy-plain', 1));
  });
});
