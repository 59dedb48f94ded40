import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { directoryMessages } from '@clinicrelay/contracts/directory.ts';
import { directoryEndpoints, directoryEntries } from '../../db/schema/directory.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';
import { nameKey, normalize, normalizeOrNull } from './normalize.ts';

const LAKESIDE = 'user@lakeside.example.org';
const RIVERVIEW = 'user@riverview.example.org';
const SEARCH = '/api/directory/search';

interface Row {
  npi: string;
  entityType?: 1 | 2;
  lastName?: string;
  firstName?: string;
  organizationName?: string;
  city?: string;
  state?: string;
  zip?: string;
  direct?: string;
  active?: boolean;
}

// NPPES rows as the importer writes them (its own tests cover the file format).
function entry(r: Row) {
  const entityType = r.entityType ?? 1;
  const v = { entityType, lastName: r.lastName ?? null, firstName: r.firstName ?? null, middleName: null, organizationName: r.organizationName ?? null };
  return {
    ...v,
    npi: r.npi,
    active: r.active ?? true,
    city: r.city ?? null,
    state: r.state ?? null,
    zip: r.zip ?? null,
    phonePrimary: '5035551234',
    fax: '5035554321',
    addressLine1: '1 Main St',
    taxonomy: '207Q00000X',
    directAddress: r.direct ?? null,
    nameNorm: nameKey(v),
    lastNorm: normalizeOrNull(v.lastName),
    firstNorm: normalizeOrNull(v.firstName),
    orgNorm: normalizeOrNull(v.organizationName),
    cityNorm: normalizeOrNull(r.city),
    sourceFile: 'test.csv',
  };
}

const ROWS: Row[] = [
  { npi: '1000000001', lastName: 'Smith', firstName: 'John', city: 'Seattle', state: 'WA', zip: '98101' },
  { npi: '1000000002', lastName: 'Smithers', firstName: 'Al', city: 'Seattle', state: 'WA', zip: '98102', direct: 'al.smithers@direct.smithers.example.net' },
  { npi: '1000000003', lastName: 'Smith', firstName: 'Zoe', city: 'Portland', state: 'OR', zip: '97201', direct: 'zoe.smith@direct.pdx.example.net' },
  { npi: '1000000004', lastName: 'Nguyễn', firstName: 'Thomas', city: 'Tacoma', state: 'WA', zip: '98402' },
  { npi: '1000000005', lastName: "O'Connor", firstName: 'Siobhán', city: 'Spokane', state: 'WA', zip: '992010001' },
  { npi: '1000000006', lastName: 'Smith', firstName: 'Retired', state: 'WA', active: false },
  { npi: '1000000007', entityType: 2, organizationName: 'Riverbend Surgical Group', city: 'Seattle', state: 'WA', zip: '98104', direct: 'records@direct.riverbend.example.net' },
  { npi: '1000000008', entityType: 2, organizationName: 'Riverside Imaging', city: 'Bend', state: 'OR', zip: '97701' },
];

describe('directory search, as the Find Provider dialog asks it', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await t.handle.db.insert(directoryEntries).values(ROWS.map(entry));
    await t.handle.db.insert(directoryEndpoints).values(ROWS.filter((r) => r.direct).map((r) => ({ npi: r.npi, address: r.direct! })));
    // 130 more Washington providers named Clark: more than the dialog counts.
    await t.handle.db.insert(directoryEntries).values(
      Array.from({ length: 130 }, (_, i) => entry({ npi: String(2000000000 + i), lastName: 'Clark', firstName: `Pat${String(i).padStart(3, '0')}`, state: 'WA', city: 'Olympia', zip: '98501' })),
    );
  });
  const search = (body: object, user = LAKESIDE) => t.call(user, 'POST', SEARCH, body);
  const names = (entries: { lastName: string | null; firstName: string | null; organizationName: string | null }[]) =>
    entries.map((e) => e.organizationName ?? `${e.lastName}, ${e.firstName}`);

  it('runs only when a field has a value', async () => {
    for (const body of [{}, { firstName: '  ', zip: '' }]) {
      const res = await search(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(directoryMessages.searchNeedsValue);
    }
  });

  it('finds by last-name prefix, case- and accent-insensitive, Direct addresses first, whole names before longer ones', async () => {
    const res = await search({ lastName: 'SMI', state: 'WA' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // Smithers has a Direct address; the deactivated Smith has left the search.
    expect(names(body.providers)).toEqual(['Smithers, Al', 'Smith, John']);
    expect(body.totalProvidersCount).toBe(2);
    // A search for a person finds no organization.
    expect(body).toMatchObject({ organizations: [], totalOrganizationsCount: 0 });
    expect(body.providers[0]).toMatchObject({ directAddress: 'al.smithers@direct.smithers.example.net', source: 'NPPES', hosted: false, npi: '1000000002', entityType: 1, standardizedState: 'WA' });
    expect(body.providers[1]).toMatchObject({ directAddress: null, phonePrimary: '5035551234', fax: '5035554321', standardizedAddressLine1: '1 Main St', standardizedCity: 'Seattle', standardizedZip: '98101' });

    // The same statement serves every search of a shape (compiled once, queries.ts), each with its own values.
    expect(names((await search({ lastName: 'nguy', state: 'WA' })).json().providers)).toEqual(['Nguyễn, Thomas']);
    // Without a state: both with an address first, each group by name ("smith zoe" before "smithers al").
    expect(names((await search({ lastName: 'smith' })).json().providers)).toEqual(['Smith, Zoe', 'Smithers, Al', 'Smith, John']);
    expect(names((await search({ lastName: 'nguyen' })).json().providers)).toEqual(['Nguyễn, Thomas']);
    expect(names((await search({ lastName: 'oconn', firstName: 'siob' })).json().providers)).toEqual(["O'Connor, Siobhán"]);
    expect(names((await search({ lastName: "O'Con" })).json().providers)).toEqual(["O'Connor, Siobhán"]);
  });

  it('finds by city and name, organization-name prefix, zip prefix and state', async () => {
    expect(names((await search({ city: 'seat', lastName: 'smith' })).json().providers)).toEqual(['Smithers, Al', 'Smith, John']);
    const orgs = (await search({ organizationName: 'river' })).json();
    // Riverview Cardiology is hosted here (its Direct address is on this installation), Riverbend in NPPES.
    expect(names(orgs.organizations)).toEqual(['Riverbend Surgical Group', 'Riverview Cardiology', 'Riverside Imaging']);
    // A hosted organization's entry carries the organization's own address, phone and NPI.
    expect(orgs.organizations[1]).toMatchObject({
      source: 'Hosted',
      hosted: true,
      directAddress: 'referrals@riverview.direct.example.org',
      fax: '5035550202',
      standardizedAddressLine1: '200 River Road',
      standardizedCity: 'Salem',
      standardizedState: 'OR',
      standardizedZip: '97301',
      phonePrimary: '5035550200',
      npi: '1447000005',
    });
    expect(orgs.totalOrganizationsCount).toBe(3);
    // NPPES individuals have no organization: a provider search by organization finds none of them.
    expect(orgs.totalProvidersCount).toBe(0);

    const byZip = (await search({ zip: '981' })).json();
    expect(names(byZip.providers)).toEqual(['Smithers, Al', 'Smith, John']);
    expect(names(byZip.organizations)).toEqual(['Riverbend Surgical Group']);
    expect(names((await search({ zip: '99201' })).json().providers)).toEqual(["O'Connor, Siobhán"]);
    // Oregon: one NPPES organization and the two hosted Oregon organizations with a Direct address in service.
    expect((await search({ state: 'OR' })).json()).toMatchObject({ totalProvidersCount: 1, totalOrganizationsCount: 3 });
  });

  it("finds a hosted organization by its city, state and zip, and shows the organization's address as it is now", async () => {
    expect(names((await search({ city: 'sale', state: 'OR' })).json().organizations)).toContain('Riverview Cardiology');
    expect(names((await search({ zip: '973' })).json().organizations)).toContain('Riverview Cardiology');
    expect(names((await search({ city: 'seattle' })).json().organizations)).not.toContain('Riverview Cardiology');
    // The organization moves: its entry follows at once (read live from the organization, never copied).
    await t.handle.db.update(organizations).set({ addressStreet: '12 Court Street', addressUnit: 'Suite 4', addressCity: 'Corvallis', addressZip: '97330', primaryPhone: '(541) 555-0199' }).where(eq(organizations.subdomain, 'riverview'));
    try {
      const moved = (await search({ organizationName: 'riverview' })).json().organizations.find((o: { source: string }) => o.source === 'Hosted');
      expect(moved).toMatchObject({ standardizedAddressLine1: '12 Court Street Suite 4', standardizedCity: 'Corvallis', standardizedZip: '97330', phonePrimary: '5415550199' });
      expect(names((await search({ city: 'corv' })).json().organizations)).toEqual(['Riverview Cardiology']);
    } finally {
      await t.handle.db.update(organizations).set({ addressStreet: '200 River Road', addressUnit: null, addressCity: 'Salem', addressZip: '97301', primaryPhone: '5035550200' }).where(eq(organizations.subdomain, 'riverview'));
    }
  });

  it('refuses a state not on the list and a zip with letters, at their fields', async () => {
    const state = await search({ lastName: 'smith', state: 'XX' });
    expect(state.statusCode).toBe(400);
    expect(state.json().modelState.state).toEqual([directoryMessages.stateFromList]);
    const zip = await search({ zip: '98-101' });
    expect(zip.statusCode).toBe(400);
    expect(zip.json().modelState.zip).toEqual([directoryMessages.zipDigits]);
    // Territories and armed-forces codes are on the list.
    for (const code of ['PR', 'GU', 'AE']) expect((await search({ state: code })).statusCode).toBe(200);
  });

  it('pages each tab on its own, 10 a page, and never counts past 100', async () => {
    const first = (await search({ lastName: 'clark' })).json();
    expect(first.providers).toHaveLength(10);
    expect(first.totalProvidersCount).toBe(100);
    expect(first.providers[0].firstName).toBe('Pat000');
    const third = (await search({ lastName: 'clark', providerPageStart: 20, organizationPageStart: 0 })).json();
    expect(third.providers.map((p: { firstName: string }) => p.firstName)).toEqual(Array.from({ length: 10 }, (_, i) => `Pat0${20 + i}`));
    const last = (await search({ lastName: 'clark', providerPageStart: 125 })).json();
    expect(last.providers.map((p: { firstName: string }) => p.firstName)).toEqual(['Pat125', 'Pat126', 'Pat127', 'Pat128', 'Pat129']);
  });

  it('answers organization users only', async () => {
    expect((await t.call(null, 'POST', SEARCH, { lastName: 'smith' })).statusCode).toBe(401);
    expect((await search({ lastName: 'smith' }, 'sysadmin@example.org')).statusCode).toBe(403);
  });
});

describe('address validation for the To field', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await t.handle.db.insert(directoryEntries).values([entry(ROWS[1]!), entry(ROWS[6]!)]);
    await t.handle.db.insert(directoryEndpoints).values([
      { npi: ROWS[1]!.npi, address: ROWS[1]!.direct! },
      { npi: ROWS[6]!.npi, address: ROWS[6]!.direct! },
    ]);
  });

  it('says for each address whether it is malformed, hosted here, known to the directory, or unknown', async () => {
    const addresses = ['Referrals@Riverview.Direct.Example.org', 'al.smithers@direct.smithers.example.net', 'records@direct.riverbend.example.net', 'someone@elsewhere.example.com', 'not an address', '5035550101'];
    const res = await t.call(LAKESIDE, 'GET', `/api/directory/validate?addresses=${encodeURIComponent(addresses.join(';'))}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { address: 'Referrals@Riverview.Direct.Example.org', status: 'Hosted', valid: true, hosted: true, name: 'Riverview Cardiology', organizationName: 'Riverview Cardiology' },
      { address: 'al.smithers@direct.smithers.example.net', status: 'Known', valid: true, hosted: false, name: 'Al Smithers', organizationName: null },
      { address: 'records@direct.riverbend.example.net', status: 'Known', valid: true, hosted: false, name: 'Riverbend Surgical Group', organizationName: 'Riverbend Surgical Group' },
      { address: 'someone@elsewhere.example.com', status: 'Unknown', valid: true, hosted: false, name: null, organizationName: null },
      { address: 'not', status: 'Invalid', valid: false, hosted: false, name: null, organizationName: null },
      { address: 'an', status: 'Invalid', valid: false, hosted: false, name: null, organizationName: null },
      { address: 'address', status: 'Invalid', valid: false, hosted: false, name: null, organizationName: null },
      { address: '5035550101', status: 'Invalid', valid: false, hosted: false, name: null, organizationName: null },
    ]);
  });

  it('refuses more than 50 addresses at once, and anonymous callers', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `a${i}@x.example.org`).join(';');
    const res = await t.call(LAKESIDE, 'GET', `/api/directory/validate?addresses=${many}`);
    expect(res.statusCode).toBe(400);
    expect((await t.call(null, 'GET', '/api/directory/validate?addresses=a@b.org')).statusCode).toBe(401);
  });
});

describe("an organization's own directory entries (/api/addressbook)", () => {
  const t = useTestApp();
  const BASE = '/api/addressbook';
  const dr = { entityType: 1, lastName: 'Okafor', firstName: 'Chidi', directAddress: 'C.Okafor@Direct.SmallPractice.example.net', standardizedCity: 'Salem', standardizedState: 'OR', standardizedZip: '97301', phonePrimary: '(503) 555-7000' };

  it('lets Lakeside add a contact that its searches find and Riverview never sees', async () => {
    const created = await t.call(LAKESIDE, 'POST', BASE, dr);
    expect(created.statusCode, created.body).toBe(200);
    const contact = created.json();
    expect(contact).toMatchObject({ lastName: 'Okafor', directAddress: 'c.okafor@direct.smallpractice.example.net', phonePrimary: '5035557000', source: 'Organization', hosted: false });
    const lakesideOrg = contact.tenantId as string;

    const found = (await t.call(LAKESIDE, 'POST', SEARCH, { lastName: 'oka' })).json();
    expect(found.providers).toEqual([expect.objectContaining({ id: contact.id, source: 'Organization' })]);
    expect((await t.call(LAKESIDE, 'GET', `/api/directory/validate?addresses=${dr.directAddress}`)).json()[0]).toMatchObject({ status: 'Known', name: 'Chidi Okafor' });
    expect((await t.call(LAKESIDE, 'GET', `${BASE}/search/okaf`)).json()).toEqual([expect.objectContaining({ id: contact.id })]);
    expect((await t.call(LAKESIDE, 'GET', `${BASE}/search/${encodeURIComponent(dr.directAddress)}`)).json()).toEqual([expect.objectContaining({ id: contact.id })]);
    expect((await t.call(LAKESIDE, 'GET', BASE)).json()).toMatchObject({ totalCount: 1, items: [expect.objectContaining({ id: contact.id })] });
    expect((await t.call(LAKESIDE, 'GET', `${BASE}/${lakesideOrg}/${contact.id}`)).statusCode).toBe(200);

    // Riverview: invisible everywhere, 404 by id whatever tenant it names.
    expect((await t.call(RIVERVIEW, 'POST', SEARCH, { lastName: 'oka' })).json().totalProvidersCount).toBe(0);
    expect((await t.call(RIVERVIEW, 'GET', `/api/directory/validate?addresses=${dr.directAddress}`)).json()[0].status).toBe('Unknown');
    expect((await t.call(RIVERVIEW, 'GET', BASE)).json()).toEqual({ items: [], totalCount: 0 });
    expect((await t.call(RIVERVIEW, 'GET', `${BASE}/search/okaf`)).json()).toEqual([]);
    expect((await t.call(RIVERVIEW, 'GET', `${BASE}/${lakesideOrg}/${contact.id}`)).statusCode).toBe(404);
    expect((await t.call(RIVERVIEW, 'DELETE', `${BASE}/${lakesideOrg}/${contact.id}`)).statusCode).toBe(404);
    expect((await t.call(RIVERVIEW, 'PUT', BASE, { ...dr, id: contact.id, lastName: 'Taken' })).statusCode).toBe(404);

    const updated = await t.call(LAKESIDE, 'PUT', BASE, { ...dr, id: contact.id, firstName: 'Chidinma' });
    expect(updated.json()).toMatchObject({ firstName: 'Chidinma' });
    expect((await t.call(LAKESIDE, 'DELETE', `${BASE}/${lakesideOrg}/${contact.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(LAKESIDE, 'GET', `${BASE}/${lakesideOrg}/${contact.id}`)).statusCode).toBe(404);
  });

  it('says what is wrong with an entry at its field', async () => {
    const noName = await t.call(LAKESIDE, 'POST', BASE, { entityType: 2, directAddress: 'a@b.example.org' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().modelState).toEqual({ organizationName: [directoryMessages.entryNeedsName] });
    const badAddress = await t.call(LAKESIDE, 'POST', BASE, { ...dr, directAddress: 'no-at-sign' });
    expect(badAddress.json().modelState).toEqual({ directAddress: [directoryMessages.entryAddressInvalid] });
    const badNpi = await t.call(LAKESIDE, 'POST', BASE, { ...dr, npi: '12' });
    expect(badNpi.statusCode).toBe(400);
    expect(Object.keys(badNpi.json().modelState)).toEqual(['npi']);
  });

  it('finds an address hosted here by the whole address, as the organization it belongs to', async () => {
    const res = await t.call(LAKESIDE, 'GET', `${BASE}/search/${encodeURIComponent('Referrals@Riverview.Direct.Example.org')}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({ directAddress: 'referrals@riverview.direct.example.org', organizationName: 'Riverview Cardiology', entityType: 2, source: 'Hosted', hosted: true, npi: '1447000005', standardizedCity: 'Salem', phonePrimary: '5035550200' }),
    ]);
  });

  it('lists the two entry types, and answers organization users only', async () => {
    expect((await t.call(LAKESIDE, 'GET', `${BASE}/entrytypes`)).json()).toEqual([{ id: 1, name: 'Provider' }, { id: 2, name: 'Organization' }]);
    expect((await t.call('sysadmin@example.org', 'GET', BASE)).statusCode).toBe(403);
    expect((await t.call(null, 'GET', BASE)).statusCode).toBe(401);
  });
});

describe('normalize', () => {
  it('folds case, accents and punctuation to the searchable form', () => {
    expect(normalize("O'Connor-Nguyễn")).toBe('oconnor nguyen');
    expect(normalize('  ST. MARY’S   Hospital ')).toBe('st marys hospital');
    expect(normalize('Straße Ærø Łódź')).toBe('strasse aero lodz');
    expect(normalize(null)).toBe('');
  });
});
