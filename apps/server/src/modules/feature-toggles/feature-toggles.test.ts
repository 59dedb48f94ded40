import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { featureToggleMessages as text } from '@clinicrelay/contracts/feature-toggles.ts';
import { buildApp } from '../../app.ts';
import { openPostgres, type DatabaseHandle } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { featureToggles, organizationFeatures } from '../../db/schema/features.ts';
import { organizations } from '../../db/schema/organizations.ts';
import type { App } from '../../platform/http.ts';
import { createTestApp, testConfig, useTestApp, type TestContext } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const BASE = '/api/admin/features';

type Feature = { id: string; name: string; enabled: boolean; isOrganizationFeature: boolean; createDate: string; createdBy: string | null; modifiedBy: string | null; modifiedDate: string };

const featureOf = async (t: TestContext, name: string) => {
  const res = await t.call(ADMIN, 'GET', `${BASE}?search=${name}`);
  return res.json<{ items: Feature[] }>().items.find((f) => f.name === name)!;
};
const enabledFor = async (t: TestContext, user: string) => (await t.call(user, 'GET', '/api/features')).json<{ enabled: string[] }>().enabled;
const put = (t: TestContext, f: Feature, change: Partial<Pick<Feature, 'name' | 'enabled' | 'isOrganizationFeature'>>) =>
  t.call(ADMIN, 'PUT', `${BASE}/${f.id}`, { name: f.name, enabled: f.enabled, isOrganizationFeature: f.isOrganizationFeature, ...change });

describe('feature toggles (back-office-b §2, §3 Feature, §5)', () => {
  const t = useTestApp();

  it('lists the product features by name with their toggles and audit columns, searched and paged', async () => {
    const res = await t.call(ADMIN, 'GET', BASE);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ items: Feature[]; totalCount: number }>();
    expect(body.items.map((f) => f.name)).toEqual(['apiCaptureEnabled', 'AutomatedCarePlans', 'IntakeCdaViewer', 'PatientExtractionAPI', 'UseOptimizedIntake', 'WestFaxInterface']);
    expect(body.totalCount).toBe(6);
    expect(body.items.find((f) => f.name === 'IntakeCdaViewer')).toEqual({
      id: expect.any(String),
      name: 'IntakeCdaViewer',
      enabled: false,
      isOrganizationFeature: true,
      createDate: expect.any(String),
      createdBy: null,
      modifiedBy: null,
      modifiedDate: expect.any(String),
    });
    expect(body.items.find((f) => f.name === 'WestFaxInterface')).toMatchObject({ isOrganizationFeature: false });
    expect((await t.call(ADMIN, 'GET', `${BASE}?search=INTAKE`)).json().items.map((f: Feature) => f.name)).toEqual(['IntakeCdaViewer', 'UseOptimizedIntake']);
    const second = (await t.call(ADMIN, 'GET', `${BASE}?pageNumber=2&pageSize=4`)).json();
    expect(second).toMatchObject({ totalCount: 6, items: [{ name: 'UseOptimizedIntake' }, { name: 'WestFaxInterface' }] });
    expect((await t.call(ADMIN, 'GET', `${BASE}?sortDir=desc&pageSize=1`)).json().items[0].name).toBe('WestFaxInterface');
    expect((await t.call(ADMIN, 'GET', `${BASE}?search=nothing-like-it`)).json()).toEqual({ items: [], totalCount: 0 });
  });

  it('switches a feature on for everyone at once, records who and when, and audits it', async () => {
    const before = await enabledFor(t, LAKESIDE_USER);
    expect(before).not.toContain('AutomatedCarePlans');
    const f = await featureOf(t, 'AutomatedCarePlans');
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    const res = await put(t, f, { enabled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: f.id, name: 'AutomatedCarePlans', enabled: true, modifiedBy: ADMIN, modifiedDate: t.clock.now.toISOString() });
    expect(await enabledFor(t, LAKESIDE_USER)).toContain('AutomatedCarePlans');
    expect((await t.call(ADMIN, 'GET', `${BASE}/${f.id}`)).json()).toEqual(res.json());
    const off = await put(t, { ...f, enabled: true }, { enabled: false });
    expect(off.json().enabled).toBe(false);
    expect(await enabledFor(t, LAKESIDE_USER)).not.toContain('AutomatedCarePlans');
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType, details: auditEvents.details }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${f.id}`);
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ eventType: 'FeatureToggleUpdated', details: { enabled: true, was: { enabled: false } } });
  });

  it("keeps an organization's own setting for an organization feature, and only for one", async () => {
    const f = await featureOf(t, 'PatientExtractionAPI');
    const [lakeside] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    await t.handle.db.insert(organizationFeatures).values({ featureId: f.id, organizationId: lakeside!.id, isEnabled: true });
    // Written by hand: the trigger's notification empties the cache (below, the cache as such).
    await vi.waitFor(async () => expect(await enabledFor(t, LAKESIDE_USER)).toContain('PatientExtractionAPI'));
    expect(await enabledFor(t, 'admin@riverview.example.org')).not.toContain('PatientExtractionAPI');
    // No longer an organization feature: only the global setting counts.
    await put(t, f, { isOrganizationFeature: false });
    expect(await enabledFor(t, LAKESIDE_USER)).not.toContain('PatientExtractionAPI');
    await put(t, { ...f, isOrganizationFeature: false }, { enabled: true });
    expect(await enabledFor(t, 'admin@riverview.example.org')).toContain('PatientExtractionAPI');
    await put(t, f, { isOrganizationFeature: true, enabled: false });
    expect(await enabledFor(t, LAKESIDE_USER)).toContain('PatientExtractionAPI');
    expect(await enabledFor(t, 'admin@riverview.example.org')).not.toContain('PatientExtractionAPI');
    await t.handle.db.delete(organizationFeatures).where(eq(organizationFeatures.featureId, f.id));
  });

  it('takes a change written past the API (SQL, another tool) at once: the database notifies every process', async () => {
    expect(await enabledFor(t, LAKESIDE_USER)).not.toContain('UseOptimizedIntake');
    await t.handle.db.update(featureToggles).set({ isEnabled: true }).where(eq(featureToggles.name, 'UseOptimizedIntake'));
    await vi.waitFor(async () => expect(await enabledFor(t, LAKESIDE_USER)).toContain('UseOptimizedIntake'));
    await t.handle.db.update(featureToggles).set({ isEnabled: false }).where(eq(featureToggles.name, 'UseOptimizedIntake'));
    await vi.waitFor(async () => expect(await enabledFor(t, LAKESIDE_USER)).not.toContain('UseOptimizedIntake'));
  });

  it('adds a feature (staged before a release reads it), one per name whatever its case', async () => {
    const created = await t.call(ADMIN, 'POST', BASE, { name: '  DirectTrustBundleRefresh ', enabled: true });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ name: 'DirectTrustBundleRefresh', enabled: true, isOrganizationFeature: false, createdBy: ADMIN, modifiedBy: ADMIN });
    const again = await t.call(ADMIN, 'POST', BASE, { name: 'directtrustbundlerefresh' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: text.nameTaken, modelState: { name: [text.nameTaken] } });
    const renamed = await t.call(ADMIN, 'PUT', `${BASE}/${created.json().id}`, { name: 'TrustBundleRefresh', enabled: false, isOrganizationFeature: true });
    expect(renamed.json()).toMatchObject({ name: 'TrustBundleRefresh', enabled: false, isOrganizationFeature: true });
    const clash = await t.call(ADMIN, 'PUT', `${BASE}/${created.json().id}`, { name: 'westfaxinterface' });
    expect(clash.json()).toEqual({ message: text.nameTaken, modelState: { name: [text.nameTaken] } });
    expect(await enabledFor(t, LAKESIDE_USER)).not.toContain('TrustBundleRefresh');
  });

  it('says what is wrong with a name at its field, and keeps the names the product reads', async () => {
    const f = await featureOf(t, 'WestFaxInterface');
    for (const [name, message] of [
      ['', 'Name is required.'],
      ['   ', 'Name is required.'],
      ['abc', 'Name must be at least 4 characters.'],
      ['x'.repeat(151), 'Name must be at most 150 characters.'],
    ] as const) {
      for (const res of [await t.call(ADMIN, 'POST', BASE, { name }), await put(t, f, { name })]) {
        expect(res.statusCode, name).toBe(400);
        expect(res.json().modelState, name).toEqual({ name: [message] });
      }
    }
    expect((await t.call(ADMIN, 'POST', BASE, {})).json().modelState).toEqual({ name: ['Name is required.'] });
    expect((await t.call(ADMIN, 'POST', BASE, { name: 'x'.repeat(150) })).statusCode).toBe(200);
    const rename = await put(t, f, { name: 'WestFax' });
    expect(rename.json()).toEqual({ message: text.builtInName, modelState: { name: [text.builtInName] } });
    expect((await put(t, f, { enabled: true })).statusCode).toBe(200);
    expect((await t.call(ADMIN, 'GET', '/api/features')).json().enabled).toContain('WestFaxInterface');
    expect((await put(t, { ...f, enabled: true }, { enabled: false })).statusCode).toBe(200);
  });

  it('answers 404 for a feature that does not exist and 400 for an id that is not one', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await t.call(ADMIN, 'GET', `${BASE}/${missing}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `${BASE}/${missing}`, { name: 'Nothing here' })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', `${BASE}/abc`)).statusCode).toBe(400);
  });

  it('answers system administrators only: SysAdminReporting and organization users get 403', async () => {
    const f = await featureOf(t, 'IntakeCdaViewer');
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', LAKESIDE_USER]) {
      expect((await t.call(user, 'GET', BASE)).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', `${BASE}/${f.id}`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'POST', BASE, { name: 'Sneaky feature' })).statusCode, user).toBe(403);
      expect((await t.call(user, 'PUT', `${BASE}/${f.id}`, { name: f.name, enabled: true })).statusCode, user).toBe(403);
    }
    expect((await featureOf(t, 'IntakeCdaViewer')).enabled).toBe(false);
  });
});

// Two server processes on one database. On PostgreSQL each has its own pool and its own cache, as behind a load
// balancer: the change reaches the other only through the trigger's NOTIFY. On PGlite both apps share the database.
const onPostgres = inject('testDatabase') === 'postgres' && !!process.env.TEST_DATABASE_URL;

describe('a toggle switched on one server process takes effect on another without a restart', () => {
  let a: TestContext;
  let handleB: DatabaseHandle | undefined;
  let appB: App;
  const callB = async (user: string, method: 'GET' | 'PUT', url: string, payload?: object) =>
    appB.inject({ method, url, headers: { authorization: `Bearer ${(await a.login(user)).accessToken}` }, ...(payload ? { payload } : {}) });
  const enabledOnB = async (user: string) => (await callB(user, 'GET', '/api/features')).json<{ enabled: string[] }>().enabled;

  beforeAll(async () => {
    a = await createTestApp();
    if (onPostgres) {
      const { connectionString } = (a.handle.db as unknown as { $client: { options: { connectionString: string } } }).$client.options;
      handleB = openPostgres(connectionString, 2);
    }
    appB = await buildApp({ config: testConfig(), db: handleB?.db ?? a.handle.db, logger: false });
    await appB.ready();
  });
  afterAll(async () => {
    await appB?.close();
    await handleB?.close();
    await a?.close();
  });

  it('an operator switches IntakeCdaViewer on through A: users served by B see it on their next call; off again, likewise', async () => {
    expect(await enabledOnB(LAKESIDE_USER)).toEqual([]);
    const f = await featureOf(a, 'IntakeCdaViewer');
    expect((await put(a, f, { enabled: true })).statusCode).toBe(200);
    await vi.waitFor(async () => expect(await enabledOnB(LAKESIDE_USER)).toEqual(['IntakeCdaViewer']));
    expect((await put(a, { ...f, enabled: true }, { enabled: false })).statusCode).toBe(200);
    await vi.waitFor(async () => expect(await enabledOnB(LAKESIDE_USER)).toEqual([]));
  });

  it("an organization's own setting saved through A (the organization form) reaches B too", async () => {
    const f = await featureOf(a, 'PatientExtractionAPI');
    const [lakeside] = await a.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    expect(await enabledOnB(LAKESIDE_USER)).toEqual([]);
    await a.handle.db.insert(organizationFeatures).values({ featureId: f.id, organizationId: lakeside!.id, isEnabled: true });
    await vi.waitFor(async () => expect(await enabledOnB(LAKESIDE_USER)).toEqual(['PatientExtractionAPI']));
    // And the extraction call, on B, is no longer refused as not enabled.
    const res = await callB(LAKESIDE_USER, 'GET', `/api/messages/00000000-0000-4000-8000-000000000000/attachments/00000000-0000-4000-8000-000000000000/patient`);
    expect(res.json().message).not.toBe('Patient extraction is not enabled for your organization.');
  });
});
