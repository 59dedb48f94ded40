import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { EXPIRING_SOON_DAYS, LICENSE_KEY_PATTERN, licenseMessages as text } from '@clinicrelay/contracts/licenses.ts';
import { queryRows } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';
import { licenseKeyHash } from './service.ts';

const ADMIN = 'sysadmin@example.org';
const OTHERS = ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org'];
const TYPES = '/api/admin/licensetypes';
const DAY_MS = 86_400_000;

const connectorType = {
  name: 'Kno2-Connector_v2',
  description: 'The desktop connector',
  category: 'LicensedConnector',
  applicationNames: ['Connector', 'Print driver'],
  connectorNames: ['Epic', 'Cerner', 'Athena', 'eCW', 'NextGen', 'Allscripts'],
};
const planType = { name: 'ProPlan-1y', description: 'A year of Professional', category: 'LicensedPlan', subscription: 'professional', subscriptionDurationDays: 365 };

// Each story starts with no keys and no types, at the real time.
function useCleanSlate(t: ReturnType<typeof useTestApp>) {
  beforeEach(async () => {
    t.clock.now = new Date();
    await t.handle.db.execute(sql`delete from licenses`);
    await t.handle.db.execute(sql`delete from license_types`);
  });
}

describe('license types (back-office-b §3, §5)', () => {
  const t = useTestApp();
  useCleanSlate(t);

  it('creates, reads, lists, searches, edits and deletes a type, each with an audit event', async () => {
    const created = await t.call(ADMIN, 'POST', TYPES, connectorType);
    expect(created.statusCode, created.body).toBe(200);
    const type = created.json();
    expect(type).toMatchObject({
      ...connectorType,
      apps: connectorType.applicationNames,
      subscription: null,
      subscriptionName: null,
      subscriptionDurationDays: null,
    });
    expect((await t.call(ADMIN, 'GET', `${TYPES}/${type.id}`)).json()).toEqual(type);

    const plan = (await t.call(ADMIN, 'POST', TYPES, planType)).json();
    expect(plan).toMatchObject({ subscription: 'professional', subscriptionName: expect.any(String), subscriptionDurationDays: 365 });

    const list = (await t.call(ADMIN, 'GET', `${TYPES}?pageSize=20`)).json();
    expect(list.totalCount).toBe(2);
    expect(list.items.map((i: { name: string }) => i.name)).toEqual(['Kno2-Connector_v2', 'ProPlan-1y']);
    expect((await t.call(ADMIN, 'GET', `${TYPES}?sortDir=desc`)).json().items[0].name).toBe('ProPlan-1y');
    expect((await t.call(ADMIN, 'GET', `${TYPES}?search=year`)).json()).toMatchObject({ totalCount: 1, items: [{ name: 'ProPlan-1y' }] });
    expect((await t.call(ADMIN, 'GET', `${TYPES}?search=LicensedConnector`)).json().totalCount).toBe(1);
    expect((await t.call(ADMIN, 'GET', `${TYPES}?search=%25`)).json().totalCount).toBe(0);
    expect((await t.call(ADMIN, 'GET', `${TYPES}?col=category&sortDir=asc`)).json().items[0].category).toBe('LicensedConnector');

    expect((await t.call(ADMIN, 'GET', `${TYPES}/appnames`)).json()).toEqual(['Connector', 'Print driver']);
    expect((await t.call(ADMIN, 'GET', `${TYPES}/exists?name=kno2-connector_V2`)).json()).toBe(true);
    expect((await t.call(ADMIN, 'GET', `${TYPES}/exists?name=kno2-connector_V2&id=${type.id}`)).json()).toBe(false);
    expect((await t.call(ADMIN, 'GET', `${TYPES}/exists?name=Other`)).json()).toBe(false);

    const edited = await t.call(ADMIN, 'PUT', `${TYPES}/${type.id}`, { ...connectorType, name: 'Connector', category: 'Device', connectorNames: [] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id: type.id, name: 'Connector', category: 'Device', connectorNames: [] });

    expect((await t.call(ADMIN, 'DELETE', `${TYPES}/${type.id}`)).json()).toEqual({ ok: true });
    for (const method of ['GET', 'DELETE', 'PUT'] as const) {
      const gone = await t.call(ADMIN, method, `${TYPES}/${type.id}`, method === 'PUT' ? connectorType : undefined);
      expect(gone.statusCode, method).toBe(404);
      expect(gone.json(), method).toEqual({ message: 'License type was not found' });
    }
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${type.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['LicenseTypeCreated', 'LicenseTypeDeleted', 'LicenseTypeUpdated']);
  });

  it('refuses a second type of the same name, whatever its case, on create and on rename', async () => {
    const first = (await t.call(ADMIN, 'POST', TYPES, connectorType)).json();
    const other = (await t.call(ADMIN, 'POST', TYPES, { ...connectorType, name: 'Other' })).json();
    const again = await t.call(ADMIN, 'POST', TYPES, { ...connectorType, name: 'KNO2-CONNECTOR_V2' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: 'This license type already exists', modelState: { name: ['This license type already exists'] } });
    const rename = await t.call(ADMIN, 'PUT', `${TYPES}/${other.id}`, connectorType);
    expect(rename.json()).toEqual({ message: 'This license type already exists', modelState: { name: ['This license type already exists'] } });
    // Saving a type under its own name is no clash.
    expect((await t.call(ADMIN, 'PUT', `${TYPES}/${first.id}`, connectorType)).statusCode).toBe(200);
  });

  it('says what is wrong at each field (§5)', async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ ...connectorType, name: '' }, { name: ['Name is required.'] }],
      [{ ...connectorType, name: 'x'.repeat(256) }, { name: ['Name must be at most 255 characters.'] }],
      [{ ...connectorType, name: 'two words' }, { name: [text.namePattern] }],
      [{ ...connectorType, name: 'dots.not.allowed' }, { name: [text.namePattern] }],
      [{ ...connectorType, description: ' ' }, { description: ['Description is required.'] }],
      [{ ...connectorType, description: 'd'.repeat(256) }, { description: ['Description must be at most 255 characters.'] }],
      [{ ...connectorType, category: undefined }, { category: ['Please select a category'] }],
      [{ ...connectorType, category: 'Toaster' }, { category: ['Please select a category'] }],
      [{ ...planType, subscription: undefined }, { subscription: [text.subscriptionRequired] }],
      [{ ...planType, subscriptionDurationDays: undefined }, { subscriptionDurationDays: [text.durationRequired] }],
      [{ ...planType, subscriptionDurationDays: '' }, { subscriptionDurationDays: [text.durationRequired] }],
      [{ ...planType, subscriptionDurationDays: 0 }, { subscriptionDurationDays: [text.durationInvalid] }],
      [{ ...planType, subscriptionDurationDays: 1000 }, { subscriptionDurationDays: [text.durationInvalid] }],
      [{ ...planType, subscriptionDurationDays: 1.5 }, { subscriptionDurationDays: [text.durationInvalid] }],
      [{ ...connectorType, subscriptionDurationDays: -3 }, { subscriptionDurationDays: [text.durationInvalid] }],
      [{ ...planType, subscription: 'no-such-plan' }, { subscription: [text.subscriptionUnknown] }],
    ];
    for (const [body, modelState] of cases) {
      const res = await t.call(ADMIN, 'POST', TYPES, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().modelState, JSON.stringify(body)).toEqual(modelState);
    }
    // Duration is optional outside LicensedPlan, and 999 is the largest.
    expect((await t.call(ADMIN, 'POST', TYPES, { ...planType, subscriptionDurationDays: 999 })).statusCode).toBe(200);
    expect((await t.call(ADMIN, 'POST', TYPES, { ...connectorType, name: 'App-1', category: 'App', subscriptionDurationDays: null })).statusCode).toBe(200);
    expect((await t.call(ADMIN, 'GET', `${TYPES}/not-a-uuid`)).statusCode).toBe(400);
  });

  it('answers system administrators only: SysAdminReporting and organization users get 403', async () => {
    const id = (await t.call(ADMIN, 'POST', TYPES, connectorType)).json().id as string;
    const calls: [string, string, unknown?][] = [
      ['GET', TYPES],
      ['POST', TYPES, connectorType],
      ['GET', `${TYPES}/${id}`],
      ['PUT', `${TYPES}/${id}`, connectorType],
      ['DELETE', `${TYPES}/${id}`],
      ['GET', `${TYPES}/appnames`],
      ['GET', `${TYPES}/exists?name=x`],
      ['GET', '/api/adminlicenses'],
      ['POST', '/api/licenses/issue', {}],
    ];
    for (const user of OTHERS) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
    expect((await t.call(ADMIN, 'GET', `${TYPES}/${id}`)).statusCode).toBe(200);
  });
});

describe('license keys (back-office-b §3, §5, §7, §9)', () => {
  const t = useTestApp();
  useCleanSlate(t);

  const orgId = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const form = (fields: Record<string, string | number | boolean>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
  // Form-encoded as §7 says; one sign-in per user and point of the test clock.
  const tokens = new Map<string, string>();
  const tokenOf = async (user: string) => {
    const key = `${user} ${t.clock.now.getTime()}`;
    if (!tokens.has(key)) tokens.set(key, (await t.login(user)).accessToken);
    return tokens.get(key)!;
  };
  const issue = async (fields: Record<string, string | number | boolean>, user = ADMIN) => {
    const accessToken = await tokenOf(user);
    return t.app.inject({
      method: 'POST',
      url: '/api/licenses/issue',
      payload: form(fields),
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
  };
  const request = async (overrides: Record<string, string | number | boolean> = {}) => ({
    name: 'Laura Lake',
    email: 'laura@lakeside.example.org',
    internalproductname: 'Connector Pro',
    quantity: 3,
    expiresindays: 30,
    company: await orgId('lakeside'),
    licensedPlan: false,
    applicationname: 'Connector',
    licenseType: connectorType.name,
    reference: 'ORDER-1001',
    ...overrides,
  });
  const feed = (query: string) => t.call(ADMIN, 'GET', `/api/adminlicenses?${query}`);

  it('issues keys in bulk, shows them once in full, and keeps only their hash and first group', async () => {
    expect((await t.call(ADMIN, 'POST', TYPES, connectorType)).statusCode).toBe(200);
    const res = await issue({ ...(await request()), quantity: 25 });
    expect(res.statusCode, res.body).toBe(200);
    const { count, licenses } = res.json<{ count: number; licenses: { id: string; licenseKey: string; licenseType: string; organization: string; issuedDate: string; expirationDate: string }[] }>();
    expect(count).toBe(25);
    expect(licenses).toHaveLength(25);
    for (const l of licenses) {
      expect(l.licenseKey).toMatch(LICENSE_KEY_PATTERN);
      expect(l).toMatchObject({ licenseType: connectorType.name, organization: 'Lakeside Family Medicine' });
      expect(new Date(l.expirationDate).getTime() - new Date(l.issuedDate).getTime()).toBe(30 * DAY_MS);
    }
    // Unguessable: all different, 30 characters of a 32-letter alphabet (150 bits), every letter used about evenly.
    const keys = licenses.map((l) => l.licenseKey);
    expect(new Set(keys).size).toBe(25);
    const chars = keys.join('').replaceAll('-', '');
    expect(chars).toHaveLength(25 * 30);
    const counts = new Map<string, number>();
    for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 750 draws over 32 letters: every letter appears, none more than 3 times its share (about 23).
    expect(counts.size).toBe(32);
    expect(Math.max(...counts.values())).toBeLessThan(70);

    // At rest: no column of any license row holds a key, nor any group past the first.
    const rows = await queryRows<Record<string, unknown>>(t.handle.db, sql`select * from licenses`);
    expect(rows).toHaveLength(25);
    const stored = JSON.stringify(rows);
    for (const key of keys) {
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(key.replaceAll('-', ''));
      expect(stored).not.toContain(key.split('-')[1]);
      const row = rows.find((r) => r.key_hash === licenseKeyHash(key));
      expect(row, key).toBeDefined();
      expect(row!.key_prefix).toBe(key.split('-')[0]);
    }
    // Nor does the audit trail.
    const audit = await queryRows<{ details: unknown }>(t.handle.db, sql`select details from audit_events where event_type = 'LicensesIssued'`);
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(keys[0]!.split('-')[1]);

    // The grid shows the first group only.
    const page = (await feed('$count=true&$top=20')).json();
    expect(page['@odata.count']).toBe(25);
    expect(page.value).toHaveLength(20);
    // The grid's first row, whichever of the 25 its order puts there (the 20 shown need not hold the answer's first).
    const firstRow = page.value[0] as { Id: string };
    const shownKey = licenses.find((l) => l.id === firstRow.Id)!.licenseKey;
    expect(firstRow).toMatchObject({ LicenseKey: `${shownKey.split('-')[0]}-…`, LicenseType: connectorType.name, Organization: 'Lakeside Family Medicine', ConnectorId: null, ConnectorName: null });
    for (const key of keys) expect(JSON.stringify(page)).not.toContain(key.split('-')[1]);
  });

  it('accepts the organization by its exact name, and a licensed plan without an application name', async () => {
    await t.call(ADMIN, 'POST', TYPES, planType);
    const res = await issue({ ...(await request()), company: 'riverview cardiology', licensedPlan: true, licenseType: 'proplan-1y', applicationname: '', quantity: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().licenses[0]).toMatchObject({ licenseType: 'ProPlan-1y', organization: 'Riverview Cardiology' });
  });

  it("refuses every invalid request with 'Error generating licenses: ...' and the field", async () => {
    await t.call(ADMIN, 'POST', TYPES, connectorType);
    await t.call(ADMIN, 'POST', TYPES, planType);
    const base = await request();
    const cases: [Record<string, string | number | boolean>, string, string][] = [
      [{ ...base, name: '' }, 'name', 'Name is required.'],
      [{ ...base, email: '' }, 'email', 'Email is required.'],
      [{ ...base, email: 'not-an-address' }, 'email', text.emailInvalid],
      [{ ...base, internalproductname: ' ' }, 'internalproductname', 'Product name is required.'],
      [{ ...base, quantity: '' }, 'quantity', 'Quantity is required.'],
      [{ ...base, quantity: 'many' }, 'quantity', 'Quantity must be a number.'],
      [{ ...base, quantity: 0 }, 'quantity', 'Quantity must be at least 1.'],
      [{ ...base, quantity: 501 }, 'quantity', 'Quantity must be at most 500.'],
      [{ ...base, expiresindays: 'soon' }, 'expiresindays', 'Expires in days must be a number.'],
      [{ ...base, expiresindays: 0 }, 'expiresindays', 'Expires in days must be at least 1.'],
      [{ ...base, company: '' }, 'company', 'Organization is required.'],
      [{ ...base, company: 'L' }, 'company', 'Organization must be at least 2 characters.'],
      [{ ...base, company: 'Nobody Clinic' }, 'company', text.organizationNotFound],
      [{ ...base, company: '00000000-0000-4000-8000-000000000000' }, 'company', text.organizationNotFound],
      [{ ...base, reference: '' }, 'reference', 'Reference is required.'],
      [{ ...base, licenseType: '' }, 'licenseType', 'License type is required.'],
      [{ ...base, licenseType: 'NoSuchType' }, 'licenseType', text.licenseTypeUnknown],
      [{ ...base, applicationname: '' }, 'applicationname', text.applicationNameRequired],
      [{ ...base, licensedPlan: 'maybe' }, 'licensedPlan', 'Licensed plan must be true or false.'],
      [{ ...base, licensedPlan: true }, 'licensedPlan', text.licensedPlanMismatch(connectorType.name, false)],
      [{ ...base, licenseType: planType.name, licensedPlan: false }, 'licensedPlan', text.licensedPlanMismatch(planType.name, true)],
    ];
    for (const [body, field, reason] of cases) {
      const res = await issue(body);
      expect(res.statusCode, `${field} ${reason}`).toBe(400);
      expect(res.json(), `${field} ${reason}`).toEqual({ message: `Error generating licenses: ${reason}`, modelState: { [field]: [reason] } });
    }
    const { licensedPlan: _omitted, ...withoutFlag } = base;
    const missing = await issue(withoutFlag);
    expect(missing.json().message).toBe('Error generating licenses: Licensed plan is required.');
    expect((await queryRows<{ n: number }>(t.handle.db, sql`select count(*)::int as n from licenses`))[0]!.n).toBe(0);
  });

  it("filters the keys expiring within 60 days ('Expiring Soon'), boundaries included, expired ones excluded", async () => {
    await t.call(ADMIN, 'POST', TYPES, connectorType);
    const start = new Date('2027-01-01T00:00:00Z');
    t.clock.now = start;
    const ids: Record<string, string> = {};
    for (const days of [1, 59, 60, 61, 365]) ids[days] = (await issue({ ...(await request()), quantity: 1, expiresindays: days, reference: `R-${days}` })).json().licenses[0].id;
    const soon = async () => ((await feed('$filter=ExpiringSoon&$orderby=ExpirationDate')).json().value as { Reference: string }[]).map((r) => r.Reference);

    // Issued now: 1, 59 and exactly 60 days away are expiring soon; 61 and 365 are not.
    expect(await soon()).toEqual(['R-1', 'R-59', 'R-60']);
    // One millisecond before the 61-day key is 60 days away: not yet.
    t.clock.now = new Date(start.getTime() + DAY_MS - 1);
    expect(await soon()).toEqual(['R-1', 'R-59', 'R-60']);
    // A day later: it is exactly 60 days away; the 1-day key expires at that very moment and is no longer listed.
    t.clock.now = new Date(start.getTime() + DAY_MS);
    expect(await soon()).toEqual(['R-59', 'R-60', 'R-61']);
    expect(EXPIRING_SOON_DAYS).toBe(60);

    // The flag is a column too, and other filters combine with it.
    const all = (await feed(`$filter=ExpiringSoon and Reference eq 'R-60'&$select=Reference,ExpiringSoon`)).json().value;
    expect(all).toEqual([{ Reference: 'R-60', ExpiringSoon: true }]);
    const notSoon = (await feed('$filter=not ExpiringSoon&$orderby=Reference&$select=Reference')).json().value;
    expect(notSoon).toEqual([{ Reference: 'R-1' }, { Reference: 'R-365' }]);
  });

  it('pages, sorts and filters the grid as OData, and names what it refuses', async () => {
    await t.call(ADMIN, 'POST', TYPES, connectorType);
    await issue({ ...(await request()), quantity: 3, reference: 'A-1' });
    await issue({ ...(await request()), company: await orgId('riverview'), quantity: 2, reference: 'B-1' });
    const riverview = await orgId('riverview');
    const byOrg = (await feed(`$filter=OrganizationId eq ${riverview}&$count=true`)).json();
    expect(byOrg['@odata.count']).toBe(2);
    expect(byOrg.value.every((r: { Organization: string }) => r.Organization === 'Riverview Cardiology')).toBe(true);
    expect((await feed(`$filter=contains(Organization,'Lakeside')&$count=true&$top=0`)).json()['@odata.count']).toBe(3);
    const sorted = (await feed('$orderby=Organization desc&$select=Organization')).json().value.map((r: { Organization: string }) => r.Organization);
    expect(sorted).toEqual([...sorted].sort().reverse());
    const second = (await feed('$orderby=Reference,Id&$skip=3&$top=2&$select=Reference')).json().value;
    expect(second).toEqual([{ Reference: 'B-1' }, { Reference: 'B-1' }]);
    const refused = await feed('$filter=KeyHash eq 1');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe("Unknown property 'KeyHash' of adminlicenses.");
  });

  it("lists an organization's real keys on its Licenses tab, and nothing of another's", async () => {
    await t.call(ADMIN, 'POST', TYPES, connectorType);
    const lakeside = await orgId('lakeside');
    const riverview = await orgId('riverview');
    expect((await t.call(ADMIN, 'GET', `/api/admin/organizations/${lakeside}/licenses`)).json()).toEqual([]);
    const issued = (await issue({ ...(await request()), quantity: 2 })).json().licenses as { id: string; licenseKey: string }[];
    await issue({ ...(await request()), company: riverview, quantity: 1 });
    const tab = await t.call(ADMIN, 'GET', `/api/admin/organizations/${lakeside}/licenses`);
    expect(tab.statusCode).toBe(200);
    const rows = tab.json<{ id: string; name: string; licenseKey: string; licenseType: string; expirationDate: string }[]>();
    expect(rows.map((r) => r.id).sort()).toEqual(issued.map((l) => l.id).sort());
    for (const r of rows) {
      const key = issued.find((l) => l.id === r.id)!.licenseKey;
      expect(r).toMatchObject({ name: `${key.split('-')[0]}-…`, licenseKey: `${key.split('-')[0]}-…`, licenseType: connectorType.name, connectorId: null });
    }
    expect((await t.call(ADMIN, 'GET', '/api/admin/organizations/00000000-0000-4000-8000-000000000000/licenses')).statusCode).toBe(404);
    for (const user of OTHERS) expect((await t.call(user, 'GET', `/api/admin/organizations/${lakeside}/licenses`)).statusCode, user).toBe(403);
    // A type with keys is not deleted.
    const typeId = (await t.call(ADMIN, 'GET', TYPES)).json().items[0].id;
    const refused = await t.call(ADMIN, 'DELETE', `${TYPES}/${typeId}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(text.typeInUse(3));
  });

  it('refuses the issue call to everyone but system administrators, form-encoded as the spec sends it', async () => {
    await t.call(ADMIN, 'POST', TYPES, connectorType);
    for (const user of OTHERS) expect((await issue(await request(), user)).statusCode, user).toBe(403);
    expect((await queryRows<{ n: number }>(t.handle.db, sql`select count(*)::int as n from licenses`))[0]!.n).toBe(0);
  });
});
