import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isValidNpi, organizationMessages as text } from '@clinicrelay/contracts/organizations.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { brands, resellers } from '../../db/schema/back-office.ts';
import { directoryEntries } from '../../db/schema/directory.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';
import { newOrganizationForm as valid } from '../../test/organization-form.ts';
import { csvCell } from '../../platform/csv.ts';

const ADMIN = 'sysadmin@example.org';


describe('organizations (back-office-a §7 Organizations)', () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;

  it('checks NPIs as NPPES does', () => {
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('808401234567893')).toBe(true);
    expect(isValidNpi('123456789')).toBe(false);
  });

  it('lists organizations with the columns of §2, searched, sorted, paged, and the cancelling filter; the typeahead from 2 characters', async () => {
    const page = await t.call(ADMIN, 'GET', '/api/organizations?pageNumber=1&pageSize=2&sortDir=asc');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().totalCount).toBe(4);
    expect(page.json().items[0]).toEqual({
      id: expect.any(String),
      orgId: expect.any(Number),
      name: 'Hillcrest Pediatrics',
      networkName: null,
      subdomain: 'hillcrest',
      resellerName: null,
      tierCode: null,
      isActivated: false,
      isEnabled: true,
      loginType: 'Password',
      apiCapture: false,
      isPendingCancellation: false,
      isCancelled: false,
    });
    expect((await t.call(ADMIN, 'GET', '/api/organizations?search=lake&pageNumber=1&pageSize=10')).json().items).toMatchObject([{ name: 'Lakeside Family Medicine', networkName: 'Northwest Health Network' }]);
    expect((await t.call(ADMIN, 'GET', '/api/organizations?cancelling=true&pageNumber=1&pageSize=10')).json().items.map((o: { subdomain: string }) => o.subdomain)).toEqual(['oakwood']);
    // The Id column's number finds its organization (/admin/organizations/{orgId}).
    const lakesideRow = (await t.call(ADMIN, 'GET', '/api/organizations?search=lake&pageNumber=1&pageSize=10')).json().items[0];
    expect((await t.call(ADMIN, 'GET', `/api/organizations?orgId=${lakesideRow.orgId}&pageNumber=1&pageSize=1`)).json().items.map((o: { id: string }) => o.id)).toEqual([lakesideRow.id]);
    expect((await t.call(ADMIN, 'GET', '/api/organizations?orgId=x&pageNumber=1&pageSize=1')).statusCode).toBe(400);
    expect((await t.call(ADMIN, 'GET', '/api/organizations/?search=r')).json()).toEqual({ items: [], totalCount: 0 });
    expect((await t.call(ADMIN, 'GET', '/api/organizations/?search=river')).json().items).toMatchObject([{ name: 'Riverview Cardiology' }]);
  });

  it('reads a demo organization whole, with its details, contact and settings', async () => {
    const res = await t.call(ADMIN, 'GET', `/api/organizations/${await idOf('lakeside')}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Lakeside Family Medicine',
      brandId: 'clinicrelay',
      organizationTypeId: 1,
      organizationSpecialtyId: expect.any(Number),
      hispProviderId: 1,
      organizationNpi: '1234567893',
      address: { street: '100 Lakeshore Drive', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
      primaryPhone: '5035550100',
      networkName: 'Northwest Health Network',
      plan: { id: 'professional', allowedUsersDescription: 'Up to 25 users' },
      numberOfUsers: 4,
      settings: { exportMode: 'Export', exportOption: 'PatientFolder', deliverySummaryEnableDownload: true, planRestricted: false },
    });
    expect((await t.call(ADMIN, 'GET', '/api/organizations/types')).json()).toContainEqual({ id: 1, name: 'Provider' });
    expect((await t.call(ADMIN, 'GET', '/api/organizations/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('refuses an invalid form with "Please fill out all required fields." and each field’s reason', async () => {
    const res = await t.call(ADMIN, 'POST', '/api/organizations', valid({ name: 'ab', organizationNpi: '1234567890', primaryPhone: '(800) 555-0100', address: { street: 'PO Box 12', city: '', state: 'OR', zip: '97201' }, primaryContactFirstName: 'S', primaryContactEmail: 'nope', brandId: '', organizationTypeId: null, primaryContactNpi: '12345678901' }));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.message).toBe(text.invalidForm);
    expect(body.modelState).toMatchObject({
      name: ['Name must be at least 3 characters.'],
      organizationNpi: [text.npiInvalid],
      primaryPhone: [text.phoneTollFree],
      'address.street': [text.streetInvalid],
      'address.city': ['City is required.'],
      primaryContactFirstName: ['First name must be at least 2 characters.'],
      primaryContactEmail: [text.emailInvalid],
      brandId: ['Brand is required.'],
      organizationTypeId: ['Type is required.'],
      primaryContactNpi: ['Contact NPI must be at most 10 characters.'],
    });
    for (const phone of ['888-555-0100', '8775550100', '(866) 555-0100', '855 555 0100', '8445550100', '8335550100']) {
      expect((await t.call(ADMIN, 'POST', '/api/organizations', valid({ primaryPhone: phone }))).json().modelState).toEqual({ primaryPhone: [text.phoneTollFree] });
    }
    expect((await t.call(ADMIN, 'POST', '/api/organizations', valid({ name: 'n'.repeat(51) }))).json().modelState).toEqual({ name: ['Name must be at most 50 characters.'] });
    expect((await t.call(ADMIN, 'POST', '/api/organizations', valid({ hispProviderId: 2 }))).json().modelState).toEqual({ hispProviderId: [text.chooseFromList] });
    expect((await t.call(ADMIN, 'POST', '/api/organizations', valid({ organizationSpecialtyId: 9999 }))).json().modelState).toEqual({ organizationSpecialtyId: [text.chooseFromList] });
  });

  it('refuses a subdomain that exists, has invalid characters or is a reserved word, with one message', async () => {
    for (const subdomain of ['lakeside', 'LakeSide', 'bad_name', 'admin', '-x']) {
      const res = await t.call(ADMIN, 'POST', '/api/organizations', valid({ subdomain }));
      expect(res.statusCode, subdomain).toBe(400);
      expect(res.json().modelState).toEqual({ subdomain: [text.subdomainInvalid] });
    }
    expect((await t.call(ADMIN, 'GET', '/api/organizations/subdomain/exists?subdomain=lakeside')).json()).toBe(true);
    expect((await t.call(ADMIN, 'GET', `/api/organizations/subdomain/exists?subdomain=lakeside&id=${await idOf('lakeside')}`)).json()).toBe(false);
    expect((await t.call(ADMIN, 'GET', '/api/organizations/subdomain/isvalid?subdomain=admin&organizationId=')).json()).toBe(false);
    expect((await t.call(ADMIN, 'GET', '/api/organizations/subdomain/isvalid?subdomain=bad_name')).json()).toBe(false);
    expect((await t.call(ADMIN, 'GET', '/api/organizations/subdomain/isvalid?subdomain=summit-ortho')).json()).toBe(true);
  });

  it('creates, edits (with settings and features) and deletes an organization, each change audited', async () => {
    const created = await t.call(ADMIN, 'POST', '/api/organizations/', valid({ subdomain: 'Summit', enabledFeatures: ['WestFaxInterface'], planId: 'free' }));
    expect(created.statusCode, created.body).toBe(200);
    const org = created.json();
    expect(org).toMatchObject({ subdomain: 'summit', primaryPhone: '5035550177', isActivated: false, isEnabled: true, enabledFeatures: ['WestFaxInterface'], plan: { id: 'free', allowedUsersDescription: 'Up to 3 users' }, createdBy: ADMIN });
    const settings = { exportMode: 'Print', exportOption: null, exportDirectoryType: null, exportVisitDirectory: false, nonPatientExport: true, deliverySummaryEnableDownload: true, suppressCoverPage: true, suppressMessageBody: false, suppressAttachmentDescriptions: false, planRestricted: true };
    const edited = await t.call(ADMIN, 'PUT', `/api/organizations/${org.id}`, valid({ subdomain: 'summit', name: 'Summit Ortho', enabledFeatures: [], settings }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Summit Ortho', enabledFeatures: [], settings });
    // The settings end users read come from the same column.
    const [row] = await t.handle.db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, org.id));
    expect(row!.settings).toMatchObject({ exportMode: 'Print', suppressCoverPage: true });
    expect((await t.call(ADMIN, 'DELETE', `/api/organizations/${org.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${org.id}`)).statusCode).toBe(404);
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'organizationId' = ${org.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['OrganizationCreated', 'OrganizationDeleted', 'OrganizationUpdated']);
  });

  it('offers only plans that cover the users; removing a licensing reseller resets to the free plan, refused above 3 users', async () => {
    const lakeside = await idOf('lakeside');
    const current = (await t.call(ADMIN, 'GET', `/api/organizations/${lakeside}`)).json();
    const input = (over: Record<string, unknown>) => valid({ name: current.name, subdomain: 'lakeside', ...over });
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${lakeside}`, input({ planId: 'free' }))).json().modelState).toEqual({ planId: [text.planTooSmall] });
    const [licenser] = await t.handle.db.insert(resellers).values({ name: 'Licensing Co', type: 1 }).returning({ id: resellers.id });
    const [affiliate] = await t.handle.db.insert(resellers).values({ name: 'Referral Partners', type: 0 }).returning({ id: resellers.id });
    // §3: the two roles, each with a reseller of its type.
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${lakeside}`, input({ planId: 'enterprise', licensingResellerId: affiliate!.id }))).json().modelState).toEqual({ licensingResellerId: [text.notALicenser] });
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${lakeside}`, input({ planId: 'enterprise', affiliateResellerId: licenser!.id }))).json().modelState).toEqual({ affiliateResellerId: [text.notAnAffiliate] });
    const both = await t.call(ADMIN, 'PUT', `/api/organizations/${lakeside}`, input({ planId: 'enterprise', licensingResellerId: licenser!.id, affiliateResellerId: affiliate!.id }));
    expect(both.json()).toMatchObject({
      reseller: { id: licenser!.id, type: 1 },
      resellerName: 'Licensing Co',
      affiliateResellerId: affiliate!.id,
      affiliateResellerName: 'Referral Partners',
      licensingResellerId: licenser!.id,
      licensingResellerName: 'Licensing Co',
    });
    expect((await t.call(ADMIN, 'GET', '/api/organizations?search=lake&pageNumber=1&pageSize=10')).json().items[0].resellerName).toBe('Licensing Co');
    // Removing the affiliate leaves the plan; Lakeside has 4 users, more than the free plan's 3: the licenser stays.
    const noAffiliate = await t.call(ADMIN, 'PUT', `/api/organizations/${lakeside}`, input({ planId: 'enterprise', licensingResellerId: licenser!.id, affiliateResellerId: null }));
    expect(noAffiliate.json()).toMatchObject({ planId: 'enterprise', affiliateResellerId: null, reseller: { id: licenser!.id, type: 1 } });
    const refused = await t.call(ADMIN, 'PUT', `/api/organizations/${lakeside}`, input({ planId: 'enterprise', licensingResellerId: null, affiliateResellerId: affiliate!.id }));
    expect(refused.json()).toEqual({ message: text.licenserOverFreeLimit, modelState: { licensingResellerId: [text.licenserOverFreeLimit] } });

    const small = (await t.call(ADMIN, 'POST', '/api/organizations', valid({ subdomain: 'smallclinic', planId: 'enterprise', licensingResellerId: licenser!.id }))).json();
    const reset = await t.call(ADMIN, 'PUT', `/api/organizations/${small.id}`, valid({ subdomain: 'smallclinic', planId: 'enterprise', licensingResellerId: null, affiliateResellerId: affiliate!.id }));
    expect(reset.json()).toMatchObject({ planId: 'free', reseller: { id: affiliate!.id, type: 0 }, resellerName: 'Referral Partners', licensingResellerId: null });
  });

  it('activates with the Administrators’ email and the default records address; deactivates', async () => {
    const hillcrest = await idOf('hillcrest');
    const res = await t.call(ADMIN, 'PUT', `/api/organizations/${hillcrest}/activate`, { id: hillcrest, activated: true, sendEmail: true, seedRecords: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().isActivated).toBe(true);
    const mails = await t.handle.db.select({ to: mailOutbox.toAddress, kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.organizationId, hillcrest));
    expect(mails).toEqual([{ to: 'admin@hillcrest.example.org', kind: 'OrganizationActivated' }]);
    const sources = await t.handle.db.select({ fullAddress: documentSources.fullAddress, status: documentSources.status }).from(documentSources).where(eq(documentSources.organizationId, hillcrest));
    // In service at once (issue 26 §3b): Release offers it as From.
    expect(sources).toEqual([{ fullAddress: 'records@hillcrest.direct.example.org', status: 1 }]);
    const off = await t.call(ADMIN, 'PUT', `/api/organizations/${hillcrest}/activate`, { id: hillcrest, activated: false, sendEmail: false, seedRecords: false });
    expect(off.json().isActivated).toBe(false);
  });

  it('disabling login signs the members out at once; enabling lets them in again', async () => {
    const riverview = await idOf('riverview');
    expect((await t.call('user@riverview.example.org', 'GET', '/api/users/profiledata')).statusCode).toBe(200);
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${riverview}/enable`, {})).json().isEnabled).toBe(false);
    expect((await t.call('user@riverview.example.org', 'GET', '/api/users/profiledata')).statusCode).toBe(401);
    await expect(t.login('user@riverview.example.org')).rejects.toThrow();
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${riverview}/enable`, { enabled: true })).json().isEnabled).toBe(true);
    expect((await t.login('user@riverview.example.org')).accessToken).toBeTruthy();
  });

  it('toggles API capture, clears a pending cancellation only when pending, and syncs through the sandbox', async () => {
    const oakwood = await idOf('oakwood');
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${oakwood}/apicapture/`, {})).json().apiCapture).toBe(true);
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${oakwood}/apicapture/`, { apiCapture: false })).json().apiCapture).toBe(false);
    expect((await t.call(ADMIN, 'POST', `/api/organizations/${oakwood}/clearcancel`)).json()).toEqual({ message: text.notPendingCancellation });
    await t.handle.db.update(organizations).set({ isPendingCancellation: true }).where(eq(organizations.id, oakwood));
    expect((await t.call(ADMIN, 'POST', `/api/organizations/${oakwood}/clearcancel`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${oakwood}`)).json().isPendingCancellation).toBe(false);
    expect((await t.call(ADMIN, 'POST', `/api/organizations/${oakwood}/sync`)).json()).toEqual({ ok: true, sandbox: true, message: text.sandboxSync });
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'organizationId' = ${oakwood}`);
    expect(audit.map((a) => a.eventType)).toEqual(expect.arrayContaining(['OrganizationApiCaptureStarted', 'OrganizationApiCaptureStopped', 'OrganizationCancellationCleared', 'OrganizationCustomerMessagingSynced']));
  });

  it('answers the admins, empty devices, licenses and integrations, and the organizations a user is not in', async () => {
    const lakeside = await idOf('lakeside');
    expect((await t.call(ADMIN, 'GET', `/api/admin/organizations/${lakeside}/admins`)).json().map((u: { userName: string }) => u.userName)).toEqual(['admin@lakeside.example.org', 'netadmin@example.org']);
    for (const path of [`/api/admin/organizations/${lakeside}/devices`, `/api/admin/organizations/${lakeside}/licenses`, `/api/organizations/${lakeside}/integrations`]) {
      expect((await t.call(ADMIN, 'GET', path)).json()).toEqual([]);
    }
    const [multi] = await t.handle.db.select({ id: users.id }).from(users).where(eq(users.userName, 'multi@example.org'));
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${multi!.id}?search=view`)).json()).toEqual([]);
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${multi!.id}?search=hill`)).json()).toEqual([{ id: await idOf('hillcrest'), name: 'Hillcrest Pediatrics' }]);
  });

  it('looks an NPI up in the provider directory, with the authorized official NPPES lists', async () => {
    await t.handle.db.insert(directoryEntries).values({
      npi: '1992999999', entityType: 2, organizationName: 'Cascade Imaging', nameNorm: 'cascade imaging', phonePrimary: '5035550999', addressLine1: '9 Cascade Ave', city: 'Portland', state: 'OR', zip: '97201',
      officialLastName: 'ANDERSON', officialFirstName: 'DONALD', officialMiddleName: 'WAYNE', officialNameSuffix: 'JR.', officialCredential: 'MD', officialTitle: 'PRESIDENT', officialPhone: '4255255392', organizationSubpart: 'N',
    });
    expect((await t.call(ADMIN, 'GET', '/api/admin/organizations/npi?npiNumber=1992999999')).json()).toEqual({
      number: '1992999999',
      basic: { authorizedOfficialFirstName: 'DONALD', authorizedOfficialMiddleName: 'WAYNE', authorizedOfficialLastName: 'ANDERSON' },
      name: 'Cascade Imaging',
      organizationName: 'Cascade Imaging',
      fullName: 'DONALD WAYNE ANDERSON JR., MD',
      organizationalSubpart: 'NO',
      // The official's own number, not the practice's.
      authorizedOfficialTelephoneNumber: '4255255392',
      status: 'A',
      addresses: [{ address_1: '9 Cascade Ave', address_2: null, city: 'Portland', state: 'OR', postalCode: '97201' }],
    });
    // An individual has no authorized official: the names and the official's phone are null, never the practice's phone.
    await t.handle.db.insert(directoryEntries).values({ npi: '1992999998', entityType: 1, lastName: 'Reyes', firstName: 'Ana', nameNorm: 'reyes ana', phonePrimary: '5035550998' });
    expect((await t.call(ADMIN, 'GET', '/api/admin/organizations/npi?npiNumber=1992999998')).json()).toMatchObject({
      basic: { authorizedOfficialFirstName: null, authorizedOfficialMiddleName: null, authorizedOfficialLastName: null },
      name: 'Ana Reyes',
      fullName: null,
      authorizedOfficialTelephoneNumber: null,
    });
    expect((await t.call(ADMIN, 'GET', '/api/admin/organizations/npi?npiNumber=1000000000')).json()).toBeNull();
    expect((await t.call(ADMIN, 'GET', '/api/admin/organizations/npi?npiNumber=12')).statusCode).toBe(400);
  });

  it('exports every Direct address as CSV named by brand and time, formula cells neutralized', async () => {
    const res = await t.call(ADMIN, 'GET', '/api/admin/reports/directaddresses');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="ClinicRelay_DirectAddresses_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv"$/);
    expect(res.body).toContain('intake@lakeside.direct.example.org');
    // The installation's brand renamed: the next export carries the new name.
    await t.handle.db.update(brands).set({ name: 'Acme Relay' }).where(eq(brands.id, 'clinicrelay'));
    try {
      expect((await t.call(ADMIN, 'GET', '/api/admin/reports/directaddresses')).headers['content-disposition']).toMatch(/^attachment; filename="AcmeRelay_DirectAddresses_/);
    } finally {
      await t.handle.db.update(brands).set({ name: 'ClinicRelay' }).where(eq(brands.id, 'clinicrelay'));
    }
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('@x,y')).toBe('"\'@x,y"');
  });

  it('is for system administrators only: SysAdminReporting and organization users get 403', async () => {
    const lakeside = await idOf('lakeside');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/organizations?pageNumber=1&pageSize=10'],
      ['GET', '/api/organizations/types'],
      ['GET', '/api/organizations/subdomain/exists?subdomain=x'],
      ['GET', '/api/organizations/subdomain/isvalid?subdomain=x'],
      ['POST', '/api/organizations', valid({ subdomain: 'nope' })],
      ['GET', `/api/organizations/${lakeside}`],
      ['PUT', `/api/organizations/${lakeside}`, valid()],
      ['DELETE', `/api/organizations/${lakeside}`],
      ['PUT', `/api/organizations/${lakeside}/activate`, { activated: true }],
      ['PUT', `/api/organizations/${lakeside}/enable`, {}],
      ['PUT', `/api/organizations/${lakeside}/apicapture`, {}],
      ['POST', `/api/organizations/${lakeside}/clearcancel`],
      ['POST', `/api/organizations/${lakeside}/sync`],
      ['GET', `/api/organizations/${lakeside}/integrations`],
      ['GET', '/api/admin/organizations/npi?npiNumber=1234567893'],
      ['GET', '/api/admin/organizations/choices'],
      ['GET', `/api/admin/organizations/${lakeside}/admins`],
      ['GET', `/api/admin/organizations/${lakeside}/devices`],
      ['GET', `/api/admin/organizations/${lakeside}/licenses`],
    ];
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
    // Reports are open to SysAdminReporting (§6), not to organization users.
    expect((await t.call('reporting@example.org', 'GET', '/api/admin/reports/directaddresses')).statusCode).toBe(200);
    expect((await t.call('admin@lakeside.example.org', 'GET', '/api/admin/reports/directaddresses')).statusCode).toBe(403);
  });
});
