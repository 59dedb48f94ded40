import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { networkMessages as text } from '@clinicrelay/contracts/networks.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';

describe('networks (back-office-a §7 Networks)', () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const userId = async (userName: string) => (await t.handle.db.select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0]!.id;
  const create = async (name: string) => {
    const res = await t.call(ADMIN, 'POST', '/api/networks/', { name });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; name: string }>();
  };

  it('lists networks with their counts, searched, sorted by name and paged; without paging, the whole list', async () => {
    await create('Alpine Care Collaborative');
    await create('zeta Partners');
    const page = await t.call(ADMIN, 'GET', '/api/networks?pageNumber=1&pageSize=2&sortDir=asc');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toEqual({
      totalCount: 3,
      items: [
        { id: expect.any(String), name: 'Alpine Care Collaborative', organizationCount: 0, administratorCount: 0 },
        { id: expect.any(String), name: 'Northwest Health Network', organizationCount: 2, administratorCount: 1 },
      ],
    });
    expect((await t.call(ADMIN, 'GET', '/api/networks?sortDir=desc&pageSize=1')).json().items[0].name).toBe('zeta Partners');
    expect((await t.call(ADMIN, 'GET', '/api/networks?search=HEALTH')).json().items.map((n: { name: string }) => n.name)).toEqual(['Northwest Health Network']);
    expect((await t.call(ADMIN, 'GET', '/api/networks/')).json().items).toHaveLength(3);
  });

  it('creates, reads, renames and deletes a network; names are required, at most 255 characters and unique', async () => {
    const made = await create('Coastal Referral Network');
    expect(made).toMatchObject({ name: 'Coastal Referral Network', organizations: [], administrators: [], enabledNetworkFeatureIds: [], identityProvider: { connectionName: null } });
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${made.id}`)).json()).toEqual((await t.call(ADMIN, 'GET', `/api/networks/${made.id}`)).json());
    expect((await t.call(ADMIN, 'POST', '/api/networks', { name: 'Coastal Referral Network' })).json()).toEqual({ message: text.nameTaken, modelState: { name: [text.nameTaken] } });
    expect((await t.call(ADMIN, 'POST', '/api/networks', { name: ' ' })).json().modelState).toEqual({ name: ['Name is required.'] });
    expect((await t.call(ADMIN, 'POST', '/api/networks', { name: 'n'.repeat(256) })).json().modelState).toEqual({ name: ['Name must be at most 255 characters.'] });
    expect((await t.call(ADMIN, 'PUT', `/api/networks/${made.id}`, { name: 'Northwest Health Network' })).json().modelState).toEqual({ name: [text.nameTaken] });
    // Unique whatever the case (issue 26 §3b), on create and on rename.
    expect((await t.call(ADMIN, 'POST', '/api/networks', { name: 'COASTAL referral network' })).json()).toEqual({ message: text.nameTaken, modelState: { name: [text.nameTaken] } });
    expect((await t.call(ADMIN, 'PUT', `/api/networks/${made.id}`, { name: 'northwest health NETWORK' })).json().modelState).toEqual({ name: [text.nameTaken] });
    expect((await t.call(ADMIN, 'PUT', `/api/networks/${made.id}`, { name: 'Coastal Network' })).json()).toMatchObject({ id: made.id, name: 'Coastal Network' });
    expect((await t.call(ADMIN, 'DELETE', `/api/networks/${made.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/networks/${made.id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `/api/networks/${made.id}`, { name: 'Gone' })).statusCode).toBe(404);
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'networkId' = ${made.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['NetworkCreated', 'NetworkDeleted', 'NetworkUpdated']);
  });

  it('assigns organizations and administrators through typeaheads that hide what is already assigned', async () => {
    const n = await create('Valley Network');
    const hillcrest = await idOf('hillcrest');
    // From the second character; organizations of another network are not offered.
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${n.id}/organizations?search=h`)).json()).toEqual([]);
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${n.id}/organizations?search=hill`)).json()).toEqual([{ id: hillcrest, name: 'Hillcrest Pediatrics' }]);
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${n.id}/organizations?search=lakes`)).json()).toEqual([]);
    expect((await t.call(ADMIN, 'POST', `/api/admin/networks/${n.id}/organizations/`, { organizationId: hillcrest })).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${n.id}/organizations`)).json()).toEqual([{ id: hillcrest, name: 'Hillcrest Pediatrics' }]);
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${n.id}/organizations?search=hill`)).json()).toEqual([]);
    const lakeside = await t.call(ADMIN, 'POST', `/api/admin/networks/${n.id}/organizations`, { organizationId: await idOf('lakeside') });
    expect(lakeside.json()).toEqual({ message: text.organizationInOtherNetwork, modelState: { organizationId: [text.organizationInOtherNetwork] } });
    const unknown = await t.call(ADMIN, 'POST', `/api/admin/networks/${n.id}/organizations`, { organizationId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json()).toEqual({ message: text.chooseFromList, modelState: { organizationId: [text.chooseFromList] } });

    const reporting = await userId('reporting@example.org');
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${n.id}/admins?search=rita`)).json()).toEqual([{ id: reporting, fullName: 'Rita Reports', userName: 'reporting@example.org' }]);
    expect((await t.call(ADMIN, 'POST', `/api/admin/networks/${n.id}/admins/`, { networkId: n.id, userId: reporting })).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/${n.id}/admins?search=rita`)).json()).toEqual([]);
    expect((await t.call(ADMIN, 'GET', `/api/networks/${n.id}`)).json()).toMatchObject({ organizations: [{ name: 'Hillcrest Pediatrics' }], administrators: [{ userName: 'reporting@example.org' }] });

    expect((await t.call(ADMIN, 'DELETE', `/api/admin/networks/${n.id}/admins/${reporting}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'DELETE', `/api/admin/networks/${n.id}/organizations/${hillcrest}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'DELETE', `/api/admin/networks/${n.id}/organizations/${hillcrest}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', `/api/admin/networks/00000000-0000-4000-8000-000000000000/admins`)).statusCode).toBe(404);
  });

  it('turns network features on, a child only with its parent, and never SSO or SCIM off again', async () => {
    expect((await t.call(ADMIN, 'GET', '/api/networkfeatures')).json()).toEqual([
      { id: 1, name: 'SSO', description: expect.any(String), childNetworkFeatures: [{ id: 2, name: 'SCIM', description: expect.any(String), childNetworkFeatures: [] }] },
    ]);
    const n = await create('Feature Network');
    const put = (ids: number[]) => t.call(ADMIN, 'PUT', `/api/networks/${n.id}`, { name: 'Feature Network', enabledNetworkFeatureIds: ids });
    expect((await put([2])).json()).toEqual({ message: text.childNeedsParent, modelState: { enabledNetworkFeatureIds: [text.childNeedsParent] } });
    expect((await put([1])).json().enabledNetworkFeatureIds).toEqual([1]);
    expect((await put([2, 1, 1])).json().enabledNetworkFeatureIds).toEqual([1, 2]);
    expect((await put([1])).json()).toEqual({ message: text.featureLocked, modelState: { enabledNetworkFeatureIds: [text.featureLocked] } });
    expect((await put([])).statusCode).toBe(400);
    // A rename leaves the features as they are.
    expect((await t.call(ADMIN, 'PUT', `/api/networks/${n.id}`, { name: 'Featured Network' })).json()).toMatchObject({ name: 'Featured Network', enabledNetworkFeatureIds: [1, 2] });
  });

  it("lets a network's administrator turn its features on, under the same rules, and shows them in the profile of its organizations' users", async () => {
    const northwest = (await t.call(ADMIN, 'GET', '/api/networks?search=northwest')).json().items[0].id as string;
    const url = `/api/networks/${northwest}/features`;
    const settings = await t.call('netadmin@example.org', 'GET', url);
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json()).toMatchObject({ id: northwest, name: 'Northwest Health Network', enabledNetworkFeatureIds: [], features: [{ name: 'SSO' }] });
    expect(settings.json().organizations.map((o: { name: string }) => o.name).sort()).toEqual(['Lakeside Family Medicine', 'Riverview Cardiology']);
    const profileFeatures = async (user: string) => (await t.call(user, 'GET', '/api/users/profiledata')).json().networkFeatures;
    expect(await profileFeatures('user@riverview.example.org')).toEqual([{ name: 'SSO', isEnabled: false, childNetworkFeatures: [{ name: 'SCIM', isEnabled: false, childNetworkFeatures: [] }] }]);

    expect((await t.call('netadmin@example.org', 'PUT', url, { enabledNetworkFeatureIds: [2] })).json().message).toBe(text.childNeedsParent);
    const on = await t.call('netadmin@example.org', 'PUT', url, { enabledNetworkFeatureIds: [1] });
    expect(on.json().enabledNetworkFeatureIds).toEqual([1]);
    expect((await t.call('netadmin@example.org', 'PUT', url, { enabledNetworkFeatureIds: [] })).json().message).toBe(text.featureLocked);
    expect(await profileFeatures('user@riverview.example.org')).toEqual([{ name: 'SSO', isEnabled: true, childNetworkFeatures: [{ name: 'SCIM', isEnabled: false, childNetworkFeatures: [] }] }]);
    // An organization outside the network sees nothing on.
    expect((await profileFeatures('admin@hillcrest.example.org'))[0].isEnabled).toBe(false);
    const audit = await t.handle.db.select({ userName: auditEvents.userName }).from(auditEvents).where(eq(auditEvents.eventType, 'NetworkFeaturesUpdated'));
    expect(audit.map((a) => a.userName)).toEqual(['netadmin@example.org']);

    // Anyone else who is not a system administrator finds no such network.
    for (const user of ['admin@lakeside.example.org', 'user@riverview.example.org', 'admin@hillcrest.example.org']) {
      expect((await t.call(user, 'GET', url)).statusCode, user).toBe(404);
      expect((await t.call(user, 'PUT', url, { enabledNetworkFeatureIds: [1, 2] })).statusCode, user).toBe(404);
    }
    expect((await t.call('reporting@example.org', 'GET', url)).statusCode).toBe(403);
    expect((await t.call(ADMIN, 'PUT', url, { enabledNetworkFeatureIds: [1, 2] })).json().enabledNetworkFeatureIds).toEqual([1, 2]);
  });

  it('answers system administrators only', async () => {
    for (const user of ['reporting@example.org', 'netadmin@example.org']) {
      expect((await t.call(user, 'GET', '/api/networks')).statusCode, user).toBe(403);
      expect((await t.call(user, 'POST', '/api/networks', { name: 'x' })).statusCode, user).toBe(403);
    }
  });
});
