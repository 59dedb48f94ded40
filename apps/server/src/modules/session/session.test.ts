import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { featureToggles, organizationFeatures } from '../../db/schema/features.ts';
import { networks } from '../../db/schema/networks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';
import { clearSessionCache } from '../../platform/auth/guard.ts';

describe('session calls', () => {
  const t = useTestApp();
  const orgId = async (subdomain: string) =>
    (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const profileOf = async (user: string) => (await t.call(user, 'GET', '/api/users/profiledata')).json();

  it("gives a Lakeside administrator the profile of their organization", async () => {
    const p = await profileOf('admin@lakeside.example.org');
    expect(p).toMatchObject({
      userName: 'admin@lakeside.example.org',
      fullName: 'Laura Lake',
      organizationId: await orgId('lakeside'),
      organizationName: 'Lakeside Family Medicine',
      organizations: [{ id: await orgId('lakeside'), subDomain: 'lakeside', name: 'Lakeside Family Medicine' }],
      roles: ['Administrator'],
      isAdmin: true,
      isNetworkAdmin: false,
      administerOfNetworkObjectId: null,
      authStrategy: 'Password',
      orgIsAcceptedEULA: true,
      orgIsIdProofed: true,
      orgIsActivated: true,
      orgIsCancelled: false,
      orgIsInGracePeriod: false,
      subscriptionReference: null,
      resellerBypassTos: false,
      intercomAppId: null,
      intercomUserHash: null,
      host: 'localhost',
    });
    expect(p.uiResources.intake).toContain('activity');
    expect(p.idProofedAttemptDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('gives a User no admin flag and no activity action', async () => {
    const p = await profileOf('user@lakeside.example.org');
    expect(p.roles).toEqual(['User']);
    expect(p.isAdmin).toBe(false);
    expect(p.uiResources.intake).not.toContain('activity');
  });

  it('shows Hillcrest as not activated, terms not accepted, not ID-proofed', async () => {
    expect(await profileOf('admin@hillcrest.example.org')).toMatchObject({
      orgIsActivated: false,
      orgIsAcceptedEULA: false,
      orgIsIdProofed: false,
      idProofedAttemptDate: null,
    });
  });

  it('shows Oakwood as cancelled with its subscription reference', async () => {
    expect(await profileOf('user@oakwood.example.org')).toMatchObject({
      orgIsCancelled: true,
      orgIsInGracePeriod: false,
      subscriptionReference: 'SUB-OAKWOOD-2025-0042',
    });
  });

  it('shows a cancelled organization still in its grace period as in grace period', async () => {
    const end = new Date(Date.now() + 7 * 86_400_000);
    await t.handle.db.update(organizations).set({ gracePeriodEndsAt: end }).where(eq(organizations.subdomain, 'oakwood'));
    expect(await profileOf('admin@oakwood.example.org')).toMatchObject({
      orgIsCancelled: false,
      orgIsInGracePeriod: true,
      orgGracePeriodEndDate: end.toISOString(),
    });
    await t.handle.db.update(organizations).set({ gracePeriodEndsAt: null }).where(eq(organizations.subdomain, 'oakwood'));
  });

  it('marks the network administrator with the network they administer', async () => {
    const [network] = await t.handle.db.select().from(networks).where(eq(networks.name, 'Northwest Health Network'));
    expect(await profileOf('netadmin@example.org')).toMatchObject({ isNetworkAdmin: true, administerOfNetworkObjectId: network!.id, isAdmin: true });
  });

  it('gives system administrators their roles and no organization', async () => {
    expect(await profileOf('sysadmin@example.org')).toMatchObject({ roles: ['SysAdmin'], organizationId: null, organizations: [], isAdmin: false });
    expect((await profileOf('reporting@example.org')).roles).toEqual(['SysAdminReporting']);
  });

  it('lists both organizations for a user in two', async () => {
    const p = await profileOf('multi@example.org');
    expect(p.organizations.map((o: { subDomain: string }) => o.subDomain)).toEqual(['lakeside', 'riverview']);
    expect(p.organizationName).toBe('Lakeside Family Medicine');
  });

  it('returns the current user and the caller IP address', async () => {
    const current = await t.call('user@lakeside.example.org', 'GET', '/api/users/current');
    expect(current.json()).toMatchObject({ userName: 'user@lakeside.example.org', firstName: 'Leo', lastName: 'Shore', roles: ['User'], twoFactorEnabled: false });
    const ip = await t.call('user@lakeside.example.org', 'GET', '/api/users/ipaddress');
    expect(ip.json()).toEqual({ ipAddress: '127.0.0.1' });
  });

  it('switches organization among the memberships and keeps it for the session', async () => {
    const token = (await t.login('multi@example.org')).accessToken;
    const res = await t.call(token, 'POST', '/api/account/change', { orgId: await orgId('riverview') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ organizationName: 'Riverview Cardiology', roles: ['User'] });
    expect((await t.call(token, 'GET', '/api/users/profiledata')).json().organizationName).toBe('Riverview Cardiology');
    const audit = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'OrganizationSwitched'));
    expect(audit).toHaveLength(1);
  });

  it('answers 404 for an organization the user does not belong to, or that does not exist', async () => {
    const other = await t.call('multi@example.org', 'POST', '/api/account/change', { orgId: await orgId('hillcrest') });
    expect(other.statusCode).toBe(404);
    const none = await t.call('multi@example.org', 'POST', '/api/account/change', { orgId: '00000000-0000-4000-8000-000000000000' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual(other.json());
  });

  it('applies a role change on the next request', async () => {
    const token = (await t.login('netadmin@example.org')).accessToken;
    expect((await t.call(token, 'GET', '/api/users/profiledata')).json().roles).toEqual(['Administrator']);
    const [u] = await t.handle.db.select().from(users).where(eq(users.userName, 'netadmin@example.org'));
    await t.handle.db.update(memberships).set({ role: 'User' }).where(and(eq(memberships.userId, u!.id)));
    // Written past the API, which empties the session cache as a write request answers.
    clearSessionCache(t.handle.db);
    expect((await t.call(token, 'GET', '/api/users/profiledata')).json()).toMatchObject({ roles: ['User'], isAdmin: false });
    await t.handle.db.update(memberships).set({ role: 'Administrator' }).where(eq(memberships.userId, u!.id));
    clearSessionCache(t.handle.db);
  });

  it('lists the features enabled for the organization, its own setting winning over the global one', async () => {
    expect((await t.call('user@lakeside.example.org', 'GET', '/api/features')).json()).toEqual({ enabled: [] });
    const [cda] = await t.handle.db.update(featureToggles).set({ isEnabled: true }).where(eq(featureToggles.name, 'IntakeCdaViewer')).returning();
    const [ext] = await t.handle.db.select().from(featureToggles).where(eq(featureToggles.name, 'PatientExtractionAPI'));
    await t.handle.db.insert(organizationFeatures).values([
      { featureId: ext!.id, organizationId: await orgId('lakeside'), isEnabled: true },
      { featureId: cda!.id, organizationId: await orgId('riverview'), isEnabled: false },
    ]);
    expect((await t.call('user@lakeside.example.org', 'GET', '/api/features')).json()).toEqual({ enabled: ['IntakeCdaViewer', 'PatientExtractionAPI'] });
    expect((await t.call('admin@riverview.example.org', 'GET', '/api/features')).json()).toEqual({ enabled: [] });
    expect((await t.call('sysadmin@example.org', 'GET', '/api/features')).json()).toEqual({ enabled: ['IntakeCdaViewer'] });
  });

  it('reads and saves user preferences', async () => {
    const before = await t.call('user@lakeside.example.org', 'GET', '/api/users/preferences');
    expect(before.json()).toMatchObject({ sidebarCollapsed: false, emailNewMessages: true });
    const saved = await t.call('user@lakeside.example.org', 'PUT', '/api/users/preferences', { sidebarCollapsed: true });
    expect(saved.json()).toMatchObject({ sidebarCollapsed: true, emailNewMessages: true });
    expect((await t.call('user@lakeside.example.org', 'GET', '/api/users/preferences')).json().sidebarCollapsed).toBe(true);
    expect((await t.call('sysadmin@example.org', 'GET', '/api/users/preferences')).statusCode).toBe(200);
  });

  it('refuses a preference value of the wrong type', async () => {
    const res = await t.call('user@lakeside.example.org', 'PUT', '/api/users/preferences', { sidebarCollapsed: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json().modelState.sidebarCollapsed).toHaveLength(1);
  });
});
