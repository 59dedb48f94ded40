import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { carequalityMessages as text } from '@clinicrelay/contracts/carequality.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('Carequality under an organization (back-office-a §2, §3, §4, §5)', () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;

  it('adds, edits, toggles the default of and deletes alternate OIDs; one default per organization', async () => {
    const lakeside = await idOf('lakeside');
    const url = `/api/admin/organizations/${lakeside}/oids`;
    expect((await t.call(ADMIN, 'GET', url)).json()).toEqual([]);
    const first = (await t.call(ADMIN, 'POST', url, { organizationId: lakeside, value: 'urn:oid:2.16.840.1.113883.3.72', isDefault: true })).json();
    expect(first).toEqual({ id: expect.any(String), organizationId: lakeside, value: '2.16.840.1.113883.3.72', isDefault: true });
    const second = (await t.call(ADMIN, 'POST', url, { value: '2.16.840.1.113883.3.73', isDefault: true })).json();
    expect((await t.call(ADMIN, 'GET', url)).json()).toEqual([
      { ...second, isDefault: true },
      { ...first, isDefault: false },
    ]);
    // Toggle the default back, then edit the value.
    expect((await t.call(ADMIN, 'PUT', url, { ...first, isDefault: true })).json().isDefault).toBe(true);
    expect((await t.call(ADMIN, 'GET', url)).json().map((o: { isDefault: boolean }) => o.isDefault)).toEqual([true, false]);
    expect((await t.call(ADMIN, 'PUT', url, { id: second.id, value: '2.16.840.1.113883.3.74', isDefault: false })).json()).toMatchObject({ value: '2.16.840.1.113883.3.74' });

    expect((await t.call(ADMIN, 'POST', url, { value: '' })).json().modelState).toEqual({ value: ['Value is required.'] });
    expect((await t.call(ADMIN, 'POST', url, { value: `1.${'2'.repeat(254)}` })).json().modelState.value).toContain('Value must be at most 255 characters.');
    expect((await t.call(ADMIN, 'POST', url, { value: 'not an oid' })).json()).toEqual({ message: text.oidInvalid, modelState: { value: [text.oidInvalid] } });
    expect((await t.call(ADMIN, 'POST', url, { value: '2.16.840.1.113883.3.72' })).json()).toEqual({ message: text.oidTaken, modelState: { value: [text.oidTaken] } });
    expect((await t.call(ADMIN, 'PUT', url, { value: '1.2.3' })).statusCode).toBe(404);
    // Another organization's OID: 404.
    const riverview = await idOf('riverview');
    expect((await t.call(ADMIN, 'PUT', `/api/admin/organizations/${riverview}/oids`, { id: first.id, value: '1.2.3' })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', `/api/admin/organizations/${riverview}/oids/${first.id}`)).statusCode).toBe(404);

    expect((await t.call(ADMIN, 'DELETE', `${url}/${second.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', url)).json()).toEqual([{ ...first, isDefault: true }]);
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'organizationId' = ${lakeside} and ${auditEvents.eventType} like 'AlternateOid%'`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['AlternateOidCreated', 'AlternateOidCreated', 'AlternateOidDeleted', 'AlternateOidUpdated', 'AlternateOidUpdated']);
  });

  it('offers a new directory entry prefilled from the organization, saves, edits and deactivates entries', async () => {
    const riverview = await idOf('riverview');
    await t.handle.db
      .update(organizations)
      .set({ addressStreet: '12 River Rd', addressCity: 'Portland', addressState: 'OR', addressZip: '97201', homeCommunityId: '2.16.840.1.113883.3.900', allowedPurposeOfUseCodes: ['TREATMENT'] })
      .where(eq(organizations.id, riverview));
    const url = `/api/admin/organizations/${riverview}/directoryentries`;
    const listed = (await t.call(ADMIN, 'GET', url)).json();
    expect(listed).toEqual({
      items: [],
      totalCount: 0,
      newEntry: {
        id: null, organizationId: riverview, parentOrgId: null, isParent: false, isActive: true, responderType: null,
        address: '12 River Rd', city: 'Portland', state: 'OR', zipCode: '97201', country: 'US', purposeOfUseCodes: ['TREATMENT'],
        displayName: 'Riverview Cardiology', legalName: 'Riverview Cardiology', homeCommunityId: '2.16.840.1.113883.3.900', otherNames: [], initiatorOnly: false, syncedAt: null,
      },
    });

    // §5 required fields, each named.
    const { id: _id, syncedAt: _s, purposeOfUseCodes: _p, ...blank } = listed.newEntry;
    const missing = (await t.call(ADMIN, 'PUT', url, { ...blank, responderType: null, displayName: '', address: '', city: '', state: '', zipCode: '', country: '' })).json();
    expect(missing.modelState).toEqual({
      responderType: ['Responder Type is required.'],
      displayName: ['Display Name is required.'],
      address: ['Street is required.'],
      city: ['City is required.'],
      state: ['State is required.'],
      zipCode: ['Zip Code is required.'],
      country: ['Country is required.'],
    });
    expect((await t.call(ADMIN, 'PUT', url, { ...blank, responderType: 'DirectResponder', organizationId: 'x' })).json().modelState).toEqual({ organizationId: ['Organization is not valid.'] });

    // InitiatorOnly sets initiatorOnly.
    const saved = (await t.call(ADMIN, 'PUT', url, { ...blank, responderType: 'InitiatorOnly', otherNames: ['Riverview Heart'] })).json();
    expect(saved).toMatchObject({ id: expect.any(String), responderType: 'InitiatorOnly', initiatorOnly: true, isActive: true, purposeOfUseCodes: ['TREATMENT'], otherNames: ['Riverview Heart'] });
    const edited = (await t.call(ADMIN, 'PUT', url, { ...blank, id: saved.id, responderType: 'GatewayResponder', displayName: 'Riverview Cardiology Clinic' })).json();
    expect(edited).toMatchObject({ id: saved.id, responderType: 'GatewayResponder', initiatorOnly: false, displayName: 'Riverview Cardiology Clinic' });
    const deactivated = (await t.call(ADMIN, 'PUT', url, { ...blank, id: saved.id, responderType: 'GatewayResponder', isActive: false })).json();
    expect(deactivated.isActive).toBe(false);
    expect((await t.call(ADMIN, 'GET', url)).json()).toMatchObject({ totalCount: 1, items: [{ id: saved.id, isActive: false }] });
    // The organization in the body must be the one of the path; another organization's entry is not found.
    const lakeside = await idOf('lakeside');
    expect((await t.call(ADMIN, 'PUT', url, { ...blank, organizationId: lakeside, responderType: 'DirectResponder' })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `/api/admin/organizations/${lakeside}/directoryentries`, { ...blank, organizationId: lakeside, id: saved.id, responderType: 'DirectResponder' })).statusCode).toBe(404);
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'directoryEntryId' = ${saved.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['DirectoryEntryCreated', 'DirectoryEntryDeactivated', 'DirectoryEntryUpdated']);
  });

  it('syncs the entries of configured OIDs with the (sandbox) directory', async () => {
    const hillcrest = await idOf('hillcrest');
    await t.handle.db.update(organizations).set({ homeCommunityId: '2.16.840.1.113883.3.950' }).where(eq(organizations.id, hillcrest));
    const url = `/api/admin/organizations/${hillcrest}/directoryentries`;
    const entry = { organizationId: hillcrest, responderType: 'DirectResponder', address: '1 Hill St', city: 'Salem', state: 'OR', zipCode: '97301', country: 'US', displayName: 'Hillcrest Pediatrics' };
    await t.call(ADMIN, 'PUT', url, entry);
    await t.call(ADMIN, 'PUT', url, { ...entry, displayName: 'Hillcrest North', homeCommunityId: '2.16.840.1.113883.3.951' });
    expect((await t.call(ADMIN, 'POST', `${url}/sync`, { oids: [] })).json()).toEqual({ message: text.syncNeedsOids, modelState: { oids: [text.syncNeedsOids] } });
    expect((await t.call(ADMIN, 'POST', `${url}/sync`, { oids: ['1.2.3'] })).json()).toEqual({ message: text.syncUnknownOids(['1.2.3']), modelState: { oids: [text.syncUnknownOids(['1.2.3'])] } });
    expect((await t.call(ADMIN, 'POST', `${url}/sync`, { oids: ['2.16.840.1.113883.3.950'] })).json()).toEqual({ message: text.synced(1), synced: 1 });
    const items = (await t.call(ADMIN, 'GET', url)).json().items as { displayName: string; syncedAt: string | null }[];
    expect(items.map((e) => [e.displayName, e.syncedAt !== null])).toEqual([['Hillcrest North', false], ['Hillcrest Pediatrics', true]]);
    expect((await t.call(ADMIN, 'POST', `/api/admin/organizations/${NOBODY}/directoryentries/sync`, { oids: ['1.2'] })).statusCode).toBe(404);
  });

  it('answers system administrators only', async () => {
    const base = `/api/admin/organizations/${NOBODY}`;
    const calls: [string, string, object?][] = [
      ['GET', `${base}/oids`],
      ['POST', `${base}/oids`, { value: '1.2' }],
      ['PUT', `${base}/oids`, { value: '1.2' }],
      ['DELETE', `${base}/oids/${NOBODY}`],
      ['GET', `${base}/directoryentries`],
      ['PUT', `${base}/directoryentries`, {}],
      ['POST', `${base}/directoryentries/sync`, { oids: ['1.2'] }],
    ];
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
  });
});
