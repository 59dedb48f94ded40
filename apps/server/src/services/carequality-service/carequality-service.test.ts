import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emergencyMessages as text } from '@clinicrelay/contracts/emergencies.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { alternateOids, carequalityDirectoryEntries } from '../../db/schema/back-office.ts';
import { organizations } from '../../db/schema/organizations.ts';
import type { App } from '../../platform/http.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { buildCarequalityServiceApp, startCarequalityService } from './app.ts';

const ADMIN = 'sysadmin@example.org';
const ORGS = '/api/emergencies/organizations';
const SEARCH = '/api/organization/admin/_search';
// The web app's origin without PUBLIC_URL (config.ts: PORT's loopback names; the test config keeps PORT 8080).
const WEB_ORIGIN = 'http://127.0.0.1:8080';

// The second application on a port of its own, called over real HTTP with the main app's session tokens.
describe('the emergency-organization service (back-office-b §7, issue 29 §6)', () => {
  const t = useTestApp();
  let service: App;
  let base: string;
  const tokens = new Map<string, string>();
  const tokenOf = async (user: string) => {
    if (!tokens.has(user)) tokens.set(user, (await t.login(user)).accessToken);
    return tokens.get(user)!;
  };
  const call = async (user: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(user ? { authorization: `Bearer ${await tokenOf(user)}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const textBody = await response.text();
    return { status: response.status, headers: response.headers, json: () => JSON.parse(textBody) as unknown, body: textBody };
  };

  beforeAll(async () => {
    service = await startCarequalityService({ config: t.config, db: t.handle.db, now: () => t.clock.now, logger: false, port: 0, host: '127.0.0.1' });
    const address = service.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => service?.close());

  it('adds, renames, reads, lists and deletes emergency organizations, with an audit event each', async () => {
    const added = await call(ADMIN, 'PUT', ORGS, { oid: ' urn:oid:2.16.840.1.113883.3.7777.1 ', name: ' Coastal Hospital ' });
    expect(added.status, added.body).toBe(200);
    expect(added.json()).toEqual({ oid: '2.16.840.1.113883.3.7777.1', name: 'Coastal Hospital' });
    const renamed = await call(ADMIN, 'PUT', ORGS, { oid: '2.16.840.1.113883.3.7777.1', name: 'Coastal General Hospital' });
    expect(renamed.json()).toEqual({ oid: '2.16.840.1.113883.3.7777.1', name: 'Coastal General Hospital' });
    await call(ADMIN, 'PUT', ORGS, { oid: '2.16.840.1.113883.3.7777.2', name: 'alpine clinic' });
    await call(ADMIN, 'PUT', ORGS, { oid: '2.16.840.1.113883.3.7777.3', name: 'Zenith Health' });

    expect((await call(ADMIN, 'GET', `${ORGS}/2.16.840.1.113883.3.7777.1`)).json()).toEqual({ oid: '2.16.840.1.113883.3.7777.1', name: 'Coastal General Hospital' });
    const list = await call(ADMIN, 'GET', `${ORGS}?pageSize=2`);
    expect(list.status, list.body).toBe(200);
    expect(list.json()).toEqual({ totalCount: 3, items: [{ oid: '2.16.840.1.113883.3.7777.2', name: 'alpine clinic' }, { oid: '2.16.840.1.113883.3.7777.1', name: 'Coastal General Hospital' }] });
    expect((await call(ADMIN, 'GET', `${ORGS}?search=zenith`)).json()).toEqual({ totalCount: 1, items: [{ oid: '2.16.840.1.113883.3.7777.3', name: 'Zenith Health' }] });
    expect((await call(ADMIN, 'GET', `${ORGS}?search=7777.3`)).json()).toMatchObject({ totalCount: 1 });
    expect((await call(ADMIN, 'GET', `${ORGS}?sortDir=desc&pageSize=1`)).json()).toMatchObject({ items: [{ name: 'Zenith Health' }] });

    expect((await call(ADMIN, 'DELETE', `${ORGS}/2.16.840.1.113883.3.7777.3`)).json()).toEqual({ ok: true });
    expect((await call(ADMIN, 'GET', `${ORGS}/2.16.840.1.113883.3.7777.3`)).status).toBe(404);
    const again = await call(ADMIN, 'DELETE', `${ORGS}/2.16.840.1.113883.3.7777.3`);
    expect(again.status).toBe(404);
    expect(again.json()).toEqual({ message: expect.any(String) });

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'oid' like '2.16.840.1.113883.3.7777.%'`).orderBy(auditEvents.createdAt);
    expect(audit.map((a) => a.eventType)).toEqual(['EmergencyOrganizationAdded', 'EmergencyOrganizationUpdated', 'EmergencyOrganizationAdded', 'EmergencyOrganizationAdded', 'EmergencyOrganizationDeleted']);
  });

  it('needs a name (max 1000) and a valid OID, said at the field', async () => {
    for (const [body, field, message] of [
      [{ oid: '', name: 'A' }, 'oid', 'OID is required.'],
      [{ name: 'A' }, 'oid', 'OID is required.'],
      [{ oid: 'not an oid', name: 'A' }, 'oid', text.oidInvalid],
      [{ oid: '1.2.3', name: '' }, 'name', 'Name is required.'],
      [{ oid: '1.2.3', name: 'x'.repeat(1001) }, 'name', 'Name must be at most 1000 characters.'],
    ] as const) {
      const res = await call(ADMIN, 'PUT', ORGS, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.json() as { modelState: Record<string, string[]> }).modelState[field], JSON.stringify(body)).toEqual([message]);
    }
    expect((await call(ADMIN, 'PUT', ORGS, { oid: '1.2.3', name: 'x'.repeat(1000) })).status).toBe(200);
    await call(ADMIN, 'DELETE', `${ORGS}/1.2.3`);
  });

  it("searches the product's organizations by name or OID, the Carequality directory and its own list, one row per OID", async () => {
    const [lakeside] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    await t.handle.db.insert(alternateOids).values({ organizationId: lakeside!.id, value: '2.16.840.1.113883.3.5555.1', isDefault: true });
    await t.handle.db.insert(carequalityDirectoryEntries).values({
      organizationId: lakeside!.id,
      responderType: 'DirectResponder',
      address: '100 Lakeshore Drive',
      city: 'Portland',
      state: 'OR',
      zipCode: '97201',
      displayName: 'Lakeside Downtown Location',
      homeCommunityId: '2.16.840.1.113883.3.5555.2',
    });
    // The same OID in the service's list: its own name wins.
    await call(ADMIN, 'PUT', ORGS, { oid: '2.16.840.1.113883.3.5555.2', name: 'Lakeside Downtown (emergency)' });

    const byName = await call(ADMIN, 'POST', SEARCH, { orgId: 'lakeside' });
    expect(byName.status, byName.body).toBe(200);
    expect(byName.json()).toEqual([
      { name: 'Lakeside Downtown (emergency)', oid: '2.16.840.1.113883.3.5555.2' },
      { name: 'Lakeside Family Medicine', oid: '2.16.840.1.113883.3.5555.1' },
    ]);
    expect((await call(ADMIN, 'POST', SEARCH, { orgId: '3.5555.1' })).json()).toEqual([{ name: 'Lakeside Family Medicine', oid: '2.16.840.1.113883.3.5555.1' }]);
    expect((await call(ADMIN, 'POST', SEARCH, { orgId: 'nothing like it' })).json()).toEqual([]);
    // % is a letter, not a pattern.
    expect((await call(ADMIN, 'POST', SEARCH, { orgId: '%%' })).json()).toEqual([]);
    // §5: at least 2 characters.
    const short = await call(ADMIN, 'POST', SEARCH, { orgId: ' L ' });
    expect(short.status).toBe(400);
    expect((short.json() as { modelState: Record<string, string[]> }).modelState.orgId).toEqual(['Search must be at least 2 characters.']);
  });

  it('answers at most 20 organizations', async () => {
    for (let n = 0; n < 25; n++) await call(ADMIN, 'PUT', ORGS, { oid: `2.16.840.1.113883.3.8888.${n}`, name: `Many Clinic ${String(n).padStart(2, '0')}` });
    const found = (await call(ADMIN, 'POST', SEARCH, { orgId: 'many clinic' })).json() as { name: string }[];
    expect(found).toHaveLength(20);
    expect(found[0]!.name).toBe('Many Clinic 00');
  });

  it('answers system administrators only (the same session tokens as the main app): others 403, anonymous 401', async () => {
    const calls: [string, string, object?][] = [
      ['POST', SEARCH, { orgId: 'lakeside' }],
      ['GET', ORGS],
      ['PUT', ORGS, { oid: '1.2.3.4', name: 'Nope' }],
      ['GET', `${ORGS}/2.16.840.1.113883.3.7777.1`],
      ['DELETE', `${ORGS}/2.16.840.1.113883.3.7777.1`],
    ];
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@riverview.example.org']) {
      for (const [method, url, body] of calls) expect((await call(user, method, url, body)).status, `${user} ${method} ${url}`).toBe(403);
    }
    for (const [method, url, body] of calls) {
      const res = await call(null, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ message: 'Token revoked or expired.' });
    }
    // A token signed off on the main app stops working here at once.
    const pair = await t.login(ADMIN);
    const signedIn = await fetch(`${base}${ORGS}`, { headers: { authorization: `Bearer ${pair.accessToken}` } });
    expect(signedIn.status).toBe(200);
    const logout = await t.app.inject({ method: 'POST', url: '/api/account/logout', headers: { authorization: `Bearer ${pair.accessToken}` }, payload: { refreshToken: pair.refreshToken } });
    expect(logout.statusCode, logout.body).toBeLessThan(300);
    expect((await fetch(`${base}${ORGS}`, { headers: { authorization: `Bearer ${pair.accessToken}` } })).status).toBe(401);
  });

  it("lets the web app's origin call it (CORS), preflight included, and no other origin", async () => {
    const preflight = await call(null, 'OPTIONS', ORGS, undefined, { origin: WEB_ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const listed = await call(ADMIN, 'GET', ORGS, undefined, { origin: WEB_ORIGIN });
    expect(listed.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    expect(listed.headers.get('vary')).toContain('Origin');
    // A refusal is readable by the page too.
    const refused = await call(null, 'GET', ORGS, undefined, { origin: 'http://localhost:8080' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');

    const stranger = 'https://evil.example.com';
    const strangerPreflight = await call(null, 'OPTIONS', ORGS, undefined, { origin: stranger, 'access-control-request-method': 'GET' });
    expect(strangerPreflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(strangerPreflight.headers.get('access-control-allow-methods')).toBeNull();
    expect((await call(ADMIN, 'GET', ORGS, undefined, { origin: stranger })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 404 in the one error shape for anything else, and its health publicly', async () => {
    const unknown = await call(ADMIN, 'GET', '/api/admin/emergencies');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ message: expect.any(String) });
    expect((await call(null, 'GET', '/api/health')).json()).toEqual({ status: 'ok' });
  });
});

describe('the emergency-organization service behind a PUBLIC_URL', () => {
  const t = useTestApp({ config: { PUBLIC_URL: 'https://relay.example.org' } });

  it("allows PUBLIC_URL's origin only", async () => {
    const service = await buildCarequalityServiceApp({ config: t.config, db: t.handle.db, logger: false });
    try {
      const allowed = await service.inject({ method: 'OPTIONS', url: ORGS, headers: { origin: 'https://relay.example.org', 'access-control-request-method': 'GET' } });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://relay.example.org');
      const loopback = await service.inject({ method: 'OPTIONS', url: ORGS, headers: { origin: 'http://localhost:8080', 'access-control-request-method': 'GET' } });
      expect(loopback.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await service.close();
    }
  });
});

describe('the emergency-organization service settings', () => {
  it('default to port 8090 on this machine, named for browsers by EMERGENCY_SERVICE_URL, and can be off', () => {
    expect(testConfig().emergencyService).toEqual({
      port: 8090,
      host: '0.0.0.0',
      url: 'http://localhost:8090',
      corsOrigins: ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080'],
    });
    expect(testConfig({ PORT: '9000', EMERGENCY_SERVICE_PORT: '9001', EMERGENCY_SERVICE_HOST: '127.0.0.1' }).emergencyService).toMatchObject({ port: 9001, host: '127.0.0.1', url: 'http://localhost:9001', corsOrigins: expect.arrayContaining(['http://localhost:9000']) });
    expect(testConfig({ PUBLIC_URL: 'https://relay.example.org', EMERGENCY_SERVICE_PORT: 'off', EMERGENCY_SERVICE_URL: 'https://emergencies.example.org/' }).emergencyService).toEqual({
      port: null,
      host: '0.0.0.0',
      url: 'https://emergencies.example.org',
      corsOrigins: ['https://relay.example.org'],
    });
    expect(() => testConfig({ EMERGENCY_SERVICE_PORT: 'eighty' })).toThrow(/EMERGENCY_SERVICE_PORT/);
    expect(() => testConfig({ EMERGENCY_SERVICE_URL: 'not a url' })).toThrow(/EMERGENCY_SERVICE_URL/);
  });
});
