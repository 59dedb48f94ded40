import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { systemRoles } from '@clinicrelay/contracts/roles.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

// Walks the whole route table, so routes added later are covered without editing this test.
describe('authorization of every /api route', () => {
  const t = useTestApp();
  const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000').replace('*', 'index.html');

  it('has routes to walk, each with declared roles', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(5);
    for (const r of t.app.apiRoutes) expect(r.roles, `${r.method} ${r.url}`).toBeDefined();
  });

  it('refuses an anonymous call on every route not declared public', async () => {
    for (const r of t.app.apiRoutes.filter((x) => x.roles !== 'public' && !x.anonymousWithoutToken)) {
      const res = await t.call(null, r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.json(), `${r.method} ${r.url}`).toEqual({ message: 'Token revoked or expired.' });
    }
  });

  it('answers an anonymous call on a route with an anonymous form by that form, never by its signed-in one', async () => {
    const anonymous = t.app.apiRoutes.filter((x) => x.anonymousWithoutToken);
    expect(anonymous.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/users/resetpassword']);
    // The forgotten-password form takes a user name; an administrator's {id} means nothing without a session.
    const res = await t.call(null, 'POST', '/api/users/resetpassword', { id: '00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode).toBe(400);
  });

  it('refuses an organization user on every route declared for system administrators', async () => {
    const sysadminOnly = t.app.apiRoutes.filter(
      (r) => Array.isArray(r.roles) && r.roles.every((role: string) => (systemRoles as readonly string[]).includes(role)),
    );
    expect(sysadminOnly.length).toBeGreaterThan(0);
    for (const user of ['user@lakeside.example.org', 'admin@lakeside.example.org']) {
      for (const r of sysadminOnly) {
        const res = await t.call(user, r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
        expect(res.statusCode, `${user} ${r.method} ${r.url}`).toBe(403);
        expect(res.json()).toEqual({ message: 'You are not authorized to view this resource.' });
      }
    }
  });

  it('opens to SysAdminReporting only the dashboard, reports and sift metrics, and refuses it every other system route (back-office-b §6)', async () => {
    const systemRoute = (r: (typeof t.app.apiRoutes)[number]) => Array.isArray(r.roles) && r.roles.includes('SysAdmin');
    const reporting = t.app.apiRoutes.filter((r) => systemRoute(r) && r.roles.includes('SysAdminReporting'));
    for (const r of reporting) expect(`${r.method} ${r.url}`).toMatch(/^(GET|POST) \/api\/(diagnostics\/(messaging\/(messageCounts|systemalerts)|stats|worker|siftmetrics)|admin\/reports\/|reports\/)/);
    expect(reporting.length).toBeGreaterThan(5);
    const refused = [...t.app.apiRoutes.filter((r) => systemRoute(r) && !r.roles.includes('SysAdminReporting'))];
    expect(refused.map((r) => r.url)).toEqual(expect.arrayContaining(['/api/admin/audits', '/api/workflows/:id', '/api/diagnostics/apicapture', '/odata/mailmessages']));
    // A network administrator is an organization Administrator with a network: no route for system roles only either.
    const systemOnly = [...reporting, ...refused].filter((r) => Array.isArray(r.roles) && r.roles.every((role: string) => (systemRoles as readonly string[]).includes(role)));
    for (const [user, routes] of [['reporting@example.org', refused], ['netadmin@example.org', systemOnly]] as const) {
      for (const r of routes) {
        const res = await t.call(user, r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
        expect(res.statusCode, `${user} ${r.method} ${r.url}`).toBe(403);
      }
    }
  });

  it('refuses system administrators on routes declared for organization roles only', async () => {
    const orgOnly = t.app.apiRoutes.filter(
      (r) => Array.isArray(r.roles) && r.roles.every((role: string) => role === 'Administrator' || role === 'User'),
    );
    for (const r of orgOnly) {
      const res = await t.call('sysadmin@example.org', r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
  });

  it('refuses a User on every route declared for Administrators only', async () => {
    const adminOnly = t.app.apiRoutes.filter((r) => Array.isArray(r.roles) && r.roles.length > 0 && r.roles.every((role: string) => role === 'Administrator'));
    expect(adminOnly.map((r) => `${r.method} ${r.url}`)).toContain('GET /api/users');
    for (const r of adminOnly) {
      const res = await t.call('user@lakeside.example.org', r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
  });

  it("refuses a cancelled organization's users on every route not opened to them, with the cancellation text", async () => {
    const orgRoute = (r: (typeof t.app.apiRoutes)[number]) =>
      r.roles === 'authenticated' || (Array.isArray(r.roles) && r.roles.some((role: string) => role === 'Administrator' || role === 'User'));
    const closed = t.app.apiRoutes.filter((r) => orgRoute(r) && !r.cancelledOrganization);
    expect(closed.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['GET /api/users', 'GET /api/users/ipaddress']));
    for (const r of closed) {
      // The Administrator passes every organization role check, so only the cancellation can refuse it.
      const user = Array.isArray(r.roles) && !r.roles.includes('Administrator') ? 'user@oakwood.example.org' : 'admin@oakwood.example.org';
      const res = await t.call(user, r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json(), `${r.method} ${r.url}`).toEqual({ message: 'Organization is currently canceled' });
    }
  });

  it("lets a cancelled organization's users reach their profile, session, sign-out and organization change", async () => {
    const open = t.app.apiRoutes.filter((r) => r.cancelledOrganization).map((r) => `${r.method} ${r.url}`);
    expect(open).toEqual(expect.arrayContaining(['GET /api/users/profiledata', 'GET /api/users/current', 'POST /api/account/logout', 'POST /api/account/change']));
    for (const url of ['/api/users/profiledata', '/api/users/current', '/api/features', '/api/users/preferences']) {
      expect((await t.call('user@oakwood.example.org', 'GET', url)).statusCode, url).toBe(200);
    }
    const pair = await t.login('admin@oakwood.example.org');
    expect((await t.call(pair.accessToken, 'POST', '/api/account/logout')).statusCode).toBe(200);
  });

  it('keeps an organization in its grace period working until the final date', async () => {
    const oakwood = eq(organizations.subdomain, 'oakwood');
    const end = new Date(t.clock.now.getTime() + 86_400_000);
    await t.handle.db.update(organizations).set({ gracePeriodEndsAt: end }).where(oakwood);
    try {
      expect((await t.call('admin@oakwood.example.org', 'GET', '/api/users')).statusCode).toBe(200);
      t.clock.now = new Date(end.getTime() + 1000);
      const pair = await t.login('admin@oakwood.example.org');
      const after = await t.call(pair.accessToken, 'GET', '/api/users');
      expect(after.statusCode).toBe(403);
      expect(after.json()).toEqual({ message: 'Organization is currently canceled' });
    } finally {
      t.clock.now = new Date();
      await t.handle.db.update(organizations).set({ gracePeriodEndsAt: null }).where(oakwood);
    }
  });

  it('refuses a token that was revoked on every non-public route', async () => {
    const pair = await t.login('user@lakeside.example.org');
    await t.call(pair.accessToken, 'POST', '/api/account/logout');
    for (const r of t.app.apiRoutes.filter((x) => x.roles !== 'public')) {
      const res = await t.call(pair.accessToken, r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
  });
});
