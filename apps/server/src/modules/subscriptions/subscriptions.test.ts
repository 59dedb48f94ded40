import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptionMessages } from '@clinicrelay/contracts/subscriptions.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';

const OAKWOOD_ADMIN = 'admin@oakwood.example.org';
const OAKWOOD_USER = 'user@oakwood.example.org';
const SUBSCRIPTION = '/api/subscriptionplans/subscriptions';
const REACTIVATE = '/api/subscriptionplans/reactivate';

// Issue 9: Oakwood Clinic is canceled in the demo world. Its administrator asks for reactivation; until
// payments exist the request is recorded (audit) and the answer says it was sent, not that it is reactivated.
describe('reactivation of a canceled organization', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const requestsOf = (organizationId: string) =>
    db().select().from(auditEvents).where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.eventType, 'ReactivationRequested')));

  it('gives Oakwood’s profile the flags the reactivation modal opens on', async () => {
    const profile = (await t.call(OAKWOOD_ADMIN, 'GET', '/api/users/profiledata')).json();
    expect(profile).toMatchObject({ organizationName: 'Oakwood Clinic', isAdmin: true, orgIsCancelled: true, orgIsInGracePeriod: false, subscriptionReference: 'SUB-OAKWOOD-2025-0042' });
  });

  it('shows Oakwood’s administrator the current plan, then records the request and answers honestly', async () => {
    const before = await t.call(OAKWOOD_ADMIN, 'GET', SUBSCRIPTION);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toEqual({
      organizationId: expect.any(String),
      organizationName: 'Oakwood Clinic',
      planId: 'professional',
      subscriptionReference: 'SUB-OAKWOOD-2025-0042',
      status: 'Cancelled',
      cancelledAt: expect.any(String),
      gracePeriodEndDate: null,
      reactivationRequestedAt: null,
    });
    const organizationId = before.json().organizationId as string;

    const res = await t.call(OAKWOOD_ADMIN, 'POST', REACTIVATE, { planId: 'professional' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: subscriptionMessages.reactivationRequested, requestedAt: t.clock.now.toISOString() });
    expect(res.json().message).not.toContain('successfully reactivated');

    const [admin] = await db().select().from(users).where(eq(users.userName, OAKWOOD_ADMIN));
    expect(await requestsOf(organizationId)).toEqual([
      expect.objectContaining({ userId: admin!.id, userName: OAKWOOD_ADMIN, correlationId: organizationId, ip: '127.0.0.1', details: { planId: 'professional', subscriptionReference: 'SUB-OAKWOOD-2025-0042' } }),
    ]);
    expect((await t.call(OAKWOOD_ADMIN, 'GET', SUBSCRIPTION)).json().reactivationRequestedAt).toBe(t.clock.now.toISOString());
    // Still canceled: nothing else answers until support reactivates it.
    expect((await t.call(OAKWOOD_ADMIN, 'GET', '/api/users/profiledata')).json().orgIsCancelled).toBe(true);
    expect((await t.call(OAKWOOD_ADMIN, 'GET', '/api/users')).statusCode).toBe(403);

    // The modal may send no plan (or no body): the current plan is recorded.
    expect((await t.call(OAKWOOD_ADMIN, 'POST', REACTIVATE)).statusCode).toBe(200);
    expect((await requestsOf(organizationId)).at(-1)!.details).toEqual({ planId: 'professional', subscriptionReference: 'SUB-OAKWOOD-2025-0042' });
  });

  it('refuses everyone but administrators: Oakwood’s User, other organizations’ Users and system administrators get 403', async () => {
    for (const user of [OAKWOOD_USER, 'user@lakeside.example.org', 'sysadmin@example.org']) {
      for (const [method, url] of [['GET', SUBSCRIPTION], ['POST', REACTIVATE]] as const) {
        const res = await t.call(user, method, url, method === 'POST' ? {} : undefined);
        expect(res.statusCode, `${user} ${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ message: 'You are not authorized to view this resource.' });
      }
    }
    expect((await t.call(null, 'POST', REACTIVATE, {})).statusCode).toBe(401);
  });

  it('has nothing to reactivate for an organization that is not canceled, and records nothing', async () => {
    const current = await t.call('admin@lakeside.example.org', 'GET', SUBSCRIPTION);
    expect(current.json()).toMatchObject({ organizationName: 'Lakeside Family Medicine', status: 'Active', cancelledAt: null, reactivationRequestedAt: null });
    const res = await t.call('admin@lakeside.example.org', 'POST', REACTIVATE, { planId: 'professional' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: subscriptionMessages.notCancelled });
    expect(await requestsOf(current.json().organizationId)).toEqual([]);
  });

  it('lets an organization in its grace period ask too', async () => {
    const oakwood = eq(organizations.subdomain, 'oakwood');
    const end = new Date(t.clock.now.getTime() + 5 * 86_400_000);
    await db().update(organizations).set({ gracePeriodEndsAt: end }).where(oakwood);
    try {
      expect((await t.call(OAKWOOD_ADMIN, 'GET', SUBSCRIPTION)).json()).toMatchObject({ status: 'GracePeriod', gracePeriodEndDate: end.toISOString() });
      expect((await t.call(OAKWOOD_ADMIN, 'POST', REACTIVATE, {})).statusCode).toBe(200);
    } finally {
      await db().update(organizations).set({ gracePeriodEndsAt: null }).where(oakwood);
    }
  });
});
