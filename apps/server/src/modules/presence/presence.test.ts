import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import WebSocket from 'ws';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { buildApp } from '../../app.ts';
import { openPostgres, type Database, type DatabaseHandle } from '../../db/client.ts';
import { messages } from '../../db/schema/messages.ts';
import { eulaAcceptances } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { clearSessionCache } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import { createTestApp, testConfig, useTestApp, type TestContext } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org'; // Leo Shore
const LAKESIDE_ADMIN = 'admin@lakeside.example.org'; // Laura Lake
const RIVERVIEW_USER = 'user@riverview.example.org'; // Ray Banks

interface Received {
  type: string;
  [key: string]: unknown;
}

// A browser tab's hub connection: what it received, in order, and how it was closed.
class HubClient {
  readonly received: Received[] = [];
  private read = 0;
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.received.push(JSON.parse(data.toString()) as Received);
      this.waiters.forEach((w) => w());
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async connect(baseUrl: string, headers: Record<string, string> = {}): Promise<HubClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/hub`, { headers });
    const client = new HubClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  static async signedIn(baseUrl: string, token: string): Promise<HubClient> {
    const client = await HubClient.connect(baseUrl);
    client.send({ type: 'authenticate', token });
    expect(await client.next('authenticated')).toEqual({ type: 'authenticated' });
    return client;
  }

  send(message: object | string) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  // The next message of this type after the ones already read; those before it are skipped.
  async next(type: string, timeoutMs = 5_000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex((m, i) => i >= this.read && m.type === type);
      if (index >= 0) {
        this.read = index + 1;
        return this.received[index]!;
      }
      if (Date.now() > deadline) throw new Error(`no ${type} within ${timeoutMs} ms; received ${JSON.stringify(this.received.slice(this.read))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.waiters = [];
    }
  }

  // Presence events received (and not yet read) before the next sync: the server sends a connection's
  // messages in order, so once the sync arrives nothing sent before it is still on the way.
  async presenceUntilSync(app: App): Promise<Received[]> {
    const from = this.read;
    await app.realtimeHub.syncNow();
    await this.next('sync');
    return this.received.slice(from, this.read - 1).filter((m) => m.type !== 'sync');
  }

  close() {
    this.ws.close();
    return this.closed;
  }
}

async function addMessage(db: Database, subdomain: string): Promise<string> {
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain));
  const [row] = await db
    .insert(messages)
    .values({ organizationId: org!.id, direction: 'Inbound', subject: 'Presence test', isDraft: false, status: 'Received' })
    .returning({ id: messages.id });
  return row!.id;
}

async function userIdOf(db: Database, userName: string): Promise<string> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  return row!.id;
}

async function listen(app: App): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describe('the hub at /api/hub', () => {
  const t = useTestApp();
  let url = '';
  let leoId = '';
  let lauraId = '';
  const clients: HubClient[] = [];
  const signedIn = async (userName: string) => {
    const client = await HubClient.signedIn(url, (await t.login(userName)).accessToken);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    url = await listen(t.app);
    leoId = await userIdOf(t.handle.db, LAKESIDE_USER);
    lauraId = await userIdOf(t.handle.db, LAKESIDE_ADMIN);
  });
  afterAll(() => Promise.all(clients.map((c) => c.close())));

  it('Leo opens a message: Laura hears of it, Riverview never does; Laura opening it too is told Leo has it open', async () => {
    const messageId = await addMessage(t.handle.db, 'lakeside');
    const leo = await signedIn(LAKESIDE_USER);
    const laura = await signedIn(LAKESIDE_ADMIN);
    const ray = await signedIn(RIVERVIEW_USER);

    leo.send({ type: 'openMessage', messageId });
    expect(await laura.next('openMessage')).toEqual({ type: 'openMessage', messageId, userId: leoId, fullName: 'Leo Shore' });
    expect(intakeMessages.openedBy('Leo Shore')).toBe('Leo Shore has opened this message.');

    laura.send({ type: 'openMessage', messageId });
    expect(await laura.next('messageAlreadyOpened')).toEqual({ type: 'messageAlreadyOpened', messageId, userId: leoId, fullName: 'Leo Shore' });
    expect(await leo.next('openMessage')).toEqual({ type: 'openMessage', messageId, userId: lauraId, fullName: 'Laura Lake' });

    leo.send({ type: 'closeMessage', messageId });
    expect(await laura.next('closeMessage')).toEqual({ type: 'closeMessage', messageId, userId: leoId, fullName: 'Leo Shore' });
    // Laura's tab closing closes her message for the others.
    await laura.close();
    expect(await leo.next('closeMessage')).toEqual({ type: 'closeMessage', messageId, userId: lauraId, fullName: 'Laura Lake' });

    expect(await ray.presenceUntilSync(t.app)).toEqual([]);
    // The opener is not told about its own open.
    await leo.presenceUntilSync(t.app);
    expect(leo.received.filter((m) => m.userId === leoId)).toEqual([]);
  });

  it('a user with the message open in two tabs is not "another user" in either; others hear once, and of the close when the last tab closes it', async () => {
    const messageId = await addMessage(t.handle.db, 'lakeside');
    const firstTab = await signedIn(LAKESIDE_USER);
    const secondTab = await signedIn(LAKESIDE_USER);
    const laura = await signedIn(LAKESIDE_ADMIN);

    firstTab.send({ type: 'openMessage', messageId });
    await laura.next('openMessage');
    secondTab.send({ type: 'openMessage', messageId });
    expect(await secondTab.presenceUntilSync(t.app)).toEqual([]);
    expect(await laura.presenceUntilSync(t.app)).toEqual([]);

    firstTab.send({ type: 'closeMessage', messageId });
    expect(await laura.presenceUntilSync(t.app)).toEqual([]);
    await secondTab.close();
    expect(await laura.next('closeMessage')).toMatchObject({ messageId, userId: leoId });
  });

  it("ignores opening another organization's message (or one that does not exist), as a 404 would", async () => {
    const riverviewMessage = await addMessage(t.handle.db, 'riverview');
    const leo = await signedIn(LAKESIDE_USER);
    const laura = await signedIn(LAKESIDE_ADMIN);
    const ray = await signedIn(RIVERVIEW_USER);
    leo.send({ type: 'openMessage', messageId: riverviewMessage });
    leo.send({ type: 'openMessage', messageId: '00000000-0000-4000-8000-000000000000' });
    expect(await laura.presenceUntilSync(t.app)).toEqual([]);
    expect(await ray.presenceUntilSync(t.app)).toEqual([]);
    // Ray opening it afterwards is not told that Leo has it open.
    ray.send({ type: 'openMessage', messageId: riverviewMessage });
    expect(await ray.presenceUntilSync(t.app)).toEqual([]);
  });

  it('sends every connection a sync', async () => {
    const leo = await signedIn(LAKESIDE_USER);
    const ray = await signedIn(RIVERVIEW_USER);
    await t.app.realtimeHub.syncNow();
    expect(await leo.next('sync')).toEqual({ type: 'sync' });
    expect(await ray.next('sync')).toEqual({ type: 'sync' });
  });

  it('closes with 4401 when the first message is not a valid authenticate', async () => {
    const badToken = await HubClient.connect(url);
    badToken.send({ type: 'authenticate', token: 'not-a-token' });
    expect(await badToken.closed).toEqual({ code: 4401, reason: 'Token revoked or expired.' });

    const notAuthenticate = await HubClient.connect(url);
    notAuthenticate.send({ type: 'openMessage', messageId: '00000000-0000-4000-8000-000000000000' });
    expect((await notAuthenticate.closed).code).toBe(4401);

    const notJson = await HubClient.connect(url);
    notJson.send('{"type":');
    expect((await notJson.closed).code).toBe(4401);
  });

  it('closes with 4401 when nothing authenticates within 5 s', async () => {
    const silent = await HubClient.connect(url);
    const started = Date.now();
    expect((await silent.closed).code).toBe(4401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  });

  it('refuses a system administrator (no organization role) with 4403', async () => {
    const sam = await HubClient.connect(url);
    sam.send({ type: 'authenticate', token: (await t.login('sysadmin@example.org')).accessToken });
    expect(await sam.closed).toEqual({ code: 4403, reason: 'You are not authorized to view this resource.' });
  });

  it('closes a connection whose session was revoked, on its next message and on the sync tick', async () => {
    const pair = await t.login(LAKESIDE_USER);
    const typing = await HubClient.signedIn(url, pair.accessToken);
    const idle = await HubClient.signedIn(url, pair.accessToken);
    expect((await t.call(pair.accessToken, 'POST', '/api/account/logout')).statusCode).toBe(200);

    typing.send({ type: 'openMessage', messageId: await addMessage(t.handle.db, 'lakeside') });
    expect(await typing.closed).toEqual({ code: 4401, reason: 'Token revoked or expired.' });
    await t.app.realtimeHub.syncNow();
    expect((await idle.closed).code).toBe(4401);
    expect(idle.received.filter((m) => m.type === 'sync')).toEqual([]);
  });

  it('applies the HTTP gate of a cancelled organization: an open connection is closed, a new one refused (issue 26)', async () => {
    const pair = await t.login(RIVERVIEW_USER);
    const open = await HubClient.signedIn(url, pair.accessToken);
    await t.handle.db.update(organizations).set({ cancelledAt: t.clock.now, gracePeriodEndsAt: null }).where(eq(organizations.subdomain, 'riverview'));
    clearSessionCache(t.handle.db);
    try {
      expect((await t.call(pair.accessToken, 'GET', '/api/users/profiledata')).statusCode).toBe(200);
      expect((await t.call(pair.accessToken, 'GET', '/api/messages')).json()).toEqual({ message: 'Organization is currently canceled' });
      await t.app.realtimeHub.syncNow();
      expect(await open.closed).toEqual({ code: 4402, reason: 'Organization is currently canceled' });
      expect(open.received.filter((m) => m.type === 'sync')).toEqual([]);
      const again = await HubClient.connect(url);
      again.send({ type: 'authenticate', token: pair.accessToken });
      expect(await again.closed).toEqual({ code: 4402, reason: 'Organization is currently canceled' });
      expect(again.received).toEqual([]);
    } finally {
      await t.handle.db.update(organizations).set({ cancelledAt: null }).where(eq(organizations.subdomain, 'riverview'));
      clearSessionCache(t.handle.db);
    }
  });

  it('applies the HTTP gate of new terms: a user who has not accepted the active version gets no events (issue 26)', async () => {
    const pair = await t.login(RIVERVIEW_USER);
    const open = await HubClient.signedIn(url, pair.accessToken);
    const rayId = await userIdOf(t.handle.db, RIVERVIEW_USER);
    const [acceptance] = await t.handle.db.delete(eulaAcceptances).where(eq(eulaAcceptances.userId, rayId)).returning();
    clearSessionCache(t.handle.db);
    try {
      expect((await t.call(pair.accessToken, 'GET', '/api/messages')).statusCode).toBe(403);
      await t.app.realtimeHub.syncNow();
      const reason = 'Please accept the current terms and conditions to continue.';
      expect(await open.closed).toEqual({ code: 4451, reason });
      const again = await HubClient.connect(url);
      again.send({ type: 'authenticate', token: pair.accessToken });
      expect(await again.closed).toEqual({ code: 4451, reason });
    } finally {
      await t.handle.db.insert(eulaAcceptances).values(acceptance!);
      clearSessionCache(t.handle.db);
    }
  });

  it('is public only as a WebSocket upgrade: a plain GET is not found', async () => {
    expect(t.app.apiRoutes).toContainEqual({ method: 'GET', url: '/api/hub', roles: 'public' });
    expect((await t.call(null, 'GET', '/api/hub')).statusCode).toBe(404);
  });

  it('accepts a renewed token of the same user on an open connection, and closes on another user\'s', async () => {
    const first = await t.login(LAKESIDE_USER);
    const tab = await HubClient.signedIn(url, first.accessToken);
    const renewed = await t.login(LAKESIDE_USER);
    tab.send({ type: 'authenticate', token: renewed.accessToken });
    await tab.next('authenticated');
    // The first session ending no longer concerns the connection.
    await t.call(first.accessToken, 'POST', '/api/account/logout');
    await t.app.realtimeHub.syncNow();
    await tab.next('sync');
    tab.send({ type: 'authenticate', token: (await t.login(LAKESIDE_ADMIN)).accessToken });
    expect(await tab.closed).toEqual({ code: 4409, reason: 'Session changed.' });
  });

  it('refuses an upgrade from another site, and closes on an oversized message', async () => {
    await expect(HubClient.connect(url, { origin: 'https://evil.example.com' })).rejects.toThrow(/403/);
    const sameSite = await HubClient.signedIn(url, (await t.login(LAKESIDE_USER)).accessToken);
    expect(sameSite.ws.readyState).toBe(WebSocket.OPEN);
    const origin = await HubClient.connect(url, { origin: url });
    origin.send({ type: 'authenticate', token: 'x'.repeat(5_000) });
    expect((await origin.closed).code).toBe(1009);
    await sameSite.close();
  });
});

// Two server processes on one PostgreSQL, as behind a load balancer. The server-postgres project (run
// when TEST_DATABASE_URL is set) gives this file a PostgreSQL database; on PGlite a second process
// cannot share the database, so the test runs there only.
const onPostgres = inject('testDatabase') === 'postgres' && !!process.env.TEST_DATABASE_URL;

describe.runIf(onPostgres)('the hub across two server processes on one PostgreSQL', () => {
  let a: TestContext;
  let handleB: DatabaseHandle;
  let appB: App;
  let urlA = '';
  let urlB = '';
  const clients: HubClient[] = [];

  beforeAll(async () => {
    a = await createTestApp();
    // The second process opens its own pool on the same database.
    const { connectionString } = (a.handle.db as unknown as { $client: { options: { connectionString: string } } }).$client.options;
    handleB = openPostgres(connectionString, 4);
    appB = await buildApp({ config: testConfig(), db: handleB.db, logger: false });
    await appB.ready();
    urlA = await listen(a.app);
    urlB = await listen(appB);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await appB?.close();
    await handleB?.close();
    await a?.close();
  });

  it('Leo on A opens a message: Laura on B hears of it and is told he has it open; Riverview on B hears nothing', async () => {
    const messageId = await addMessage(a.handle.db, 'lakeside');
    const leoId = await userIdOf(a.handle.db, LAKESIDE_USER);
    const lauraId = await userIdOf(a.handle.db, LAKESIDE_ADMIN);
    const leo = await HubClient.signedIn(urlA, (await a.login(LAKESIDE_USER)).accessToken);
    const laura = await HubClient.signedIn(urlB, (await a.login(LAKESIDE_ADMIN)).accessToken);
    const ray = await HubClient.signedIn(urlB, (await a.login(RIVERVIEW_USER)).accessToken);
    clients.push(leo, ray);

    leo.send({ type: 'openMessage', messageId });
    expect(await laura.next('openMessage')).toEqual({ type: 'openMessage', messageId, userId: leoId, fullName: 'Leo Shore' });

    laura.send({ type: 'openMessage', messageId });
    expect(await laura.next('messageAlreadyOpened')).toEqual({ type: 'messageAlreadyOpened', messageId, userId: leoId, fullName: 'Leo Shore' });
    expect(await leo.next('openMessage')).toEqual({ type: 'openMessage', messageId, userId: lauraId, fullName: 'Laura Lake' });

    leo.send({ type: 'closeMessage', messageId });
    expect(await laura.next('closeMessage')).toEqual({ type: 'closeMessage', messageId, userId: leoId, fullName: 'Leo Shore' });
    leo.send({ type: 'openMessage', messageId });
    expect(await leo.next('messageAlreadyOpened')).toMatchObject({ messageId, userId: lauraId, fullName: 'Laura Lake' });
    await laura.close();
    expect(await leo.next('closeMessage')).toEqual({ type: 'closeMessage', messageId, userId: lauraId, fullName: 'Laura Lake' });

    expect(await ray.presenceUntilSync(appB)).toEqual([]);
  });

  it('a process started later learns what is already open, and a closing process closes its opens for the others', async () => {
    const messageId = await addMessage(a.handle.db, 'lakeside');
    const leoId = await userIdOf(a.handle.db, LAKESIDE_USER);
    const leo = await HubClient.signedIn(urlA, (await a.login(LAKESIDE_USER)).accessToken);
    clients.push(leo);
    leo.send({ type: 'openMessage', messageId });
    await leo.presenceUntilSync(a.app);

    const handleC = openPostgres((a.handle.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString, 2);
    const appC = await buildApp({ config: testConfig(), db: handleC.db, logger: false });
    await appC.ready();
    let closed = false;
    try {
      const laura = await HubClient.signedIn(await listen(appC), (await a.login(LAKESIDE_ADMIN)).accessToken);
      // C asked the others for their opens when it started; their answer arrives shortly.
      await vi.waitFor(
        async () => {
          laura.send({ type: 'openMessage', messageId });
          expect(await laura.next('messageAlreadyOpened', 300)).toMatchObject({ messageId, userId: leoId });
        },
        { timeout: 5_000, interval: 50 },
      );
      closed = true;
      await appC.close();
      expect(await leo.next('closeMessage')).toMatchObject({ messageId, fullName: 'Laura Lake' });
    } finally {
      if (!closed) await appC.close();
      await handleC.close();
    }
  });
});
