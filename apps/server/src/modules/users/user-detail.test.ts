import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { userDetailMessages as text, type OrgUser, type OrgUserDetail, type UserEvent, type UserRequest } from '@clinicrelay/contracts/users.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { TEST_PASSWORD, useTestApp } from '../../test/app.ts';
import { DEMO, userIdOf } from '../intake/test-inbound.ts';
import { applicationName } from './user-detail.ts';

const NETADMIN = 'netadmin@example.org';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('A user’s detail: security, activity and requests (issue 13 §2)', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  let laura: string;
  let leo: string;
  let morgan: string;
  let rachel: string;
  let lakesideId: string;
  let riverviewId: string;

  beforeAll(async () => {
    laura = await userIdOf(db(), DEMO.lakesideAdmin);
    leo = await userIdOf(db(), DEMO.lakesideUser);
    morgan = await userIdOf(db(), DEMO.multi);
    rachel = await userIdOf(db(), DEMO.riverviewAdmin);
    lakesideId = (await db().select().from(memberships).where(eq(memberships.userId, laura)))[0]!.organizationId;
    riverviewId = (await db().select().from(memberships).where(eq(memberships.userId, rachel)))[0]!.organizationId;
  });

  // A sign-in from a given browser, as the login page sends it.
  const signInWith = async (userName: string, userAgent: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password: TEST_PASSWORD }, headers: { 'user-agent': userAgent } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ accessToken: string; refreshToken: string }>();
  };
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/api/account/refresh', payload: { refreshToken } });
  const detail = async (id: string) => {
    const res = await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<OrgUserDetail>();
  };

  it('names applications from their user agent', () => {
    expect(applicationName(FIREFOX)).toBe('Firefox on Windows');
    expect(applicationName(CHROME)).toBe('Chrome on macOS');
    expect(applicationName('curl/8.5.0')).toBe('curl');
    expect(applicationName(null)).toBe('Unknown application');
  });

  it('lists where the user is signed in; removing an application ends its sessions at once and leaves the others', async () => {
    const firefox1 = await signInWith(DEMO.lakesideUser, FIREFOX);
    const firefox2 = await signInWith(DEMO.lakesideUser, FIREFOX);
    const chrome = await signInWith(DEMO.lakesideUser, CHROME);

    const before = await detail(leo);
    expect(before.twoFactorEnabled).toBe(false);
    const firefoxApp = before.applications.find((a) => a.name === 'Firefox on Windows')!;
    expect(firefoxApp).toMatchObject({ userAgent: FIREFOX, sessions: 2 });
    expect(before.applications.find((a) => a.name === 'Chrome on macOS')?.sessions).toBe(1);

    const removed = await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/users/${leo}/applications/${firefoxApp.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: text.applicationRemoved });

    // Both Firefox sessions are over: their access tokens and refresh tokens no longer work.
    expect((await t.call(firefox1.accessToken, 'GET', '/api/users/profiledata')).statusCode).toBe(401);
    expect((await refresh(firefox1.refreshToken)).statusCode).toBe(401);
    expect((await refresh(firefox2.refreshToken)).statusCode).toBe(401);
    // Chrome is still signed in.
    expect((await t.call(chrome.accessToken, 'GET', '/api/users/profiledata')).statusCode).toBe(200);
    expect((await refresh(chrome.refreshToken)).statusCode).toBe(200);

    const after = await detail(leo);
    expect(after.applications.map((a) => a.name)).not.toContain('Firefox on Windows');
    expect(after.applications.map((a) => a.name)).toContain('Chrome on macOS');
    const [row] = await db().select().from(auditEvents).where(and(eq(auditEvents.eventType, 'UserApplicationRemoved'), eq(auditEvents.correlationId, leo)));
    expect(row).toMatchObject({ userId: laura, organizationId: lakesideId, details: { userId: leo, application: 'Firefox on Windows', sessionsRevoked: 2 } });

    // Gone now, or never there: 404; not an application id at all: 400.
    expect((await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/users/${leo}/applications/${firefoxApp.id}`)).statusCode).toBe(404);
    expect((await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/users/${leo}/applications/not-an-id`)).statusCode).toBe(400);
  });

  it('removes the user’s authenticator, audited', async () => {
    await db().update(users).set({ twoFactorEnabled: true, tokenAuthEnabled: true, twoFactorSecret: 'JBSWY3DPEHPK3PXP', lastTotpStep: 123 }).where(eq(users.id, leo));
    expect(await detail(leo)).toMatchObject({ twoFactorEnabled: true, tokenAuthEnabled: true });
    const res = await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/users/${leo}/authenticators`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: text.authenticatorsRemoved });
    const [stored] = await db().select().from(users).where(eq(users.id, leo));
    expect(stored).toMatchObject({ twoFactorEnabled: false, twoFactorSecret: null, lastTotpStep: null });
    expect((await detail(leo)).twoFactorEnabled).toBe(false);
    const audits = await db().select().from(auditEvents).where(and(eq(auditEvents.eventType, 'UserAuthenticatorsRemoved'), eq(auditEvents.correlationId, leo)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ userId: laura, organizationId: lakesideId, details: { userId: leo, twoFactorWasEnabled: true } });
  });

  it('shows a user’s own activity in the organization: newest first, the last 14 days, filtered by type, no details', async () => {
    await signInWith(DEMO.lakesideUser, CHROME);
    const now = t.clock.now.getTime();
    await db()
      .insert(auditEvents)
      .values([
        // Older than 14 days: not shown by default.
        { eventType: 'MessageViewed', userId: leo, organizationId: lakesideId, correlationId: leo, details: { subject: 'Patient Jane Roe' }, createdAt: new Date(now - 20 * 86_400_000) },
        { eventType: 'MessageViewed', userId: leo, organizationId: lakesideId, details: { subject: 'Patient Jane Roe' }, createdAt: new Date(now - 2 * 86_400_000) },
        // Page views are left out unless asked for; another organization's rows never show.
        { eventType: 'MessageListViewed', userId: leo, organizationId: lakesideId, createdAt: new Date(now - 60_000) },
        { eventType: 'MessageViewed', userId: morgan, organizationId: riverviewId, createdAt: new Date(now - 60_000) },
      ]);

    const events = await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${leo}/events`);
    expect(events.statusCode, events.body).toBe(200);
    const page = events.json<{ items: UserEvent[]; totalCount: number }>();
    expect(page.items[0]).toMatchObject({ eventType: 'Login', name: 'Signed in' });
    expect(page.items.map((e) => e.eventType)).not.toContain('MessageListViewed');
    expect(page.items.filter((e) => e.eventType === 'MessageViewed')).toHaveLength(1);
    expect(page.items.some((e) => e.eventType === 'UserApplicationRemoved')).toBe(false);
    expect(JSON.stringify(page)).not.toContain('Jane Roe');
    expect(Object.keys(page.items[0]!).sort()).toEqual(['createdOn', 'eventType', 'id', 'ipAddress', 'name']);
    const createdOns = page.items.map((e) => e.createdOn);
    expect([...createdOns].sort().reverse()).toEqual(createdOns);

    const viewed = (await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${leo}/events?eventTypes=MessageViewed,MessageListViewed&pageSize=1`)).json<{ items: UserEvent[]; totalCount: number }>();
    expect(viewed.totalCount).toBe(2);
    expect(viewed.items).toHaveLength(1);
    const allTime = (await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${leo}/events?eventTypes=MessageViewed&start=${new Date(now - 30 * 86_400_000).toISOString()}`)).json<{ totalCount: number }>();
    expect(allTime.totalCount).toBe(2);
    expect((await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${leo}/events?start=yesterday`)).statusCode).toBe(400);

    const types = (await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${leo}/events/type`)).json<{ eventType: string; name: string }[]>();
    expect(types).toContainEqual({ eventType: 'Login', name: 'Signed in' });
    expect(types).toContainEqual({ eventType: 'MessageViewed', name: 'Message Viewed' });
    expect(types.map((x) => x.eventType)).not.toContain('MessageListViewed');

    // Morgan's Riverview activity is not Lakeside's to read.
    const morganEvents = (await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${morgan}/events`)).json<{ items: UserEvent[] }>();
    expect(morganEvents.items.some((e) => e.eventType === 'MessageViewed')).toBe(false);

    // Leo reads his own activity, not his Administrator's.
    expect((await t.call(DEMO.lakesideUser, 'GET', `/api/users/${leo}/events`)).statusCode).toBe(200);
    expect((await t.call(DEMO.lakesideUser, 'GET', `/api/users/${leo}/events/type`)).statusCode).toBe(200);
    expect((await t.call(DEMO.lakesideUser, 'GET', `/api/users/${laura}/events`)).statusCode).toBe(404);
  });

  it('lists what the user asked for: invitations, requested addresses and their state now', async () => {
    const invited = await t.call(DEMO.lakesideUser, 'POST', '/api/users/sendinvitation', { fullName: 'Dr. Ada Field', emailAddress: 'ada@field.example.com' });
    expect(invited.statusCode, invited.body).toBe(200);
    const requested = await t.call(DEMO.lakesideAdmin, 'POST', '/api/admin/documentsources', { organizationId: lakesideId, type: 'DirectMessaging', fullAddress: 'front@lakeside.direct.example.org' });
    expect(requested.statusCode, requested.body).toBe(200);

    const leoRequests = await t.call(DEMO.lakesideUser, 'GET', `/api/users/${leo}/requests`);
    expect(leoRequests.statusCode, leoRequests.body).toBe(200);
    expect(leoRequests.json<{ items: UserRequest[] }>().items).toEqual([
      expect.objectContaining({ type: 'Invitation', description: 'Invitation to Dr. Ada Field', status: 'Sending' }),
    ]);
    const lauraRequests = (await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${laura}/requests?pageSize=5&pageStart=1`)).json<{ items: UserRequest[]; totalCount: number }>();
    expect(lauraRequests.items[0]).toMatchObject({ type: 'DirectAddress', description: 'Direct address front@lakeside.direct.example.org', status: 'Provisioning' });
    expect(lauraRequests.totalCount).toBe(lauraRequests.items.length);
    // An Administrator reads their users' requests; a User only their own.
    expect((await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${leo}/requests`)).json<{ totalCount: number }>().totalCount).toBe(1);
    expect((await t.call(DEMO.lakesideUser, 'GET', `/api/users/${laura}/requests`)).statusCode).toBe(404);
  });

  it('adds the network’s users for a network administrator, read-only with their organization; changes nothing for others', async () => {
    const list = async (user: string, query: string) => {
      const res = await t.call(user, 'GET', `/api/users?pageSize=100&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: OrgUser[]; totalCount: number }>();
    };
    const own = await list(NETADMIN, '');
    const withNetwork = await list(NETADMIN, 'includeNetwork=true');
    expect(own.items.every((u) => u.organizationName === undefined)).toBe(true);
    const added = withNetwork.items.filter((u) => u.organizationName !== undefined);
    expect(added.map((u) => u.userName).sort()).toEqual([DEMO.riverviewAdmin, DEMO.riverviewUser].sort());
    expect(added.every((u) => u.organizationName === 'Riverview Cardiology' && u.organizationId === riverviewId)).toBe(true);
    // Morgan belongs to both: listed once, as Lakeside's.
    expect(withNetwork.items.filter((u) => u.id === morgan)).toHaveLength(1);
    expect(withNetwork.totalCount).toBe(own.totalCount + 2);
    expect((await list(NETADMIN, `includeNetwork=true&search=rivers`)).items.map((u) => u.id)).toEqual([rachel]);
    // Laura administers no network.
    expect((await list(DEMO.lakesideAdmin, 'includeNetwork=true')).totalCount).toBe((await list(DEMO.lakesideAdmin, '')).totalCount);
    // A network user's detail is still another organization's.
    expect((await t.call(NETADMIN, 'GET', `/api/users/${rachel}`)).statusCode).toBe(404);
  });

  it('refuses a User the administration calls (403) and hides another organization’s users (404)', async () => {
    const appId = '0123456789abcdef';
    for (const [method, url] of [
      ['GET', `/api/users/${leo}`],
      ['DELETE', `/api/users/${leo}/authenticators`],
      ['DELETE', `/api/users/${leo}/applications/${appId}`],
    ] as const) {
      expect((await t.call(DEMO.lakesideUser, method, url)).statusCode, `${method} ${url}`).toBe(403);
    }
    for (const [method, url] of [
      ['GET', `/api/users/${rachel}`],
      ['DELETE', `/api/users/${rachel}/authenticators`],
      ['DELETE', `/api/users/${rachel}/applications/${appId}`],
      ['GET', `/api/users/${rachel}/events`],
      ['GET', `/api/users/${rachel}/events/type`],
      ['GET', `/api/users/${rachel}/requests`],
    ] as const) {
      expect((await t.call(DEMO.lakesideAdmin, method, url)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await t.call(null, 'GET', `/api/users/${leo}/events`)).statusCode).toBe(401);
  });
});
