import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { faxAccountMessages as text } from '@clinicrelay/contracts/fax-accounts.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('fax accounts (back-office-a §2 "Fax accounts", §8 "Fax"): the sandbox provider', () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;

  it('saves an eFax sub group named after the subdomain, or the customer’s own group; group names are unique', async () => {
    const hillcrest = await idOf('hillcrest');
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${hillcrest}/faxaccounts`)).json()).toEqual({
      organizationName: 'Hillcrest Pediatrics',
      subdomain: 'hillcrest',
      provider: 'sandbox',
      eFaxAccount: null,
      westFaxAccount: null,
    });
    const created = await t.call(ADMIN, 'POST', '/api/efax/account/kno2', { organizationId: hillcrest, accountType: 'Kno2EFaxAccount' });
    expect(created.json()).toEqual({ message: 'Successfully saved eFax account for Hillcrest Pediatrics!', eFaxAccount: { groupName: 'hillcrest', accountType: 'Kno2EFaxAccount', modifiedDate: expect.any(String) } });

    const failed = 'There was an error creating a ClinicRelay eFax account for Hillcrest Pediatrics';
    expect((await t.call(ADMIN, 'PUT', '/api/efax/account/kno2', { organizationId: hillcrest, accountType: 'EFaxAccount' })).json()).toEqual({ message: failed, modelState: { groupName: [text.groupNameRequired] } });
    const lakeside = await idOf('lakeside');
    await t.call(ADMIN, 'PUT', '/api/efax/account/kno2', { organizationId: lakeside, accountType: 'EFaxAccount', groupName: 'LAKESIDE-OWN' });
    expect((await t.call(ADMIN, 'PUT', '/api/efax/account/kno2', { organizationId: hillcrest, accountType: 'EFaxAccount', groupName: 'LAKESIDE-OWN' })).json()).toEqual({ message: failed, modelState: { groupName: [text.groupNameTaken] } });
    const changed = await t.call(ADMIN, 'PUT', '/api/efax/account/kno2', { organizationId: hillcrest, accountType: 'EFaxAccount', groupName: 'HILLCREST-PEDS' });
    expect(changed.json().eFaxAccount).toMatchObject({ groupName: 'HILLCREST-PEDS', accountType: 'EFaxAccount' });
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${hillcrest}/faxaccounts`)).json().eFaxAccount).toMatchObject({ groupName: 'HILLCREST-PEDS', accountType: 'EFaxAccount' });
    expect((await t.call(ADMIN, 'PUT', '/api/efax/account/kno2', { organizationId: hillcrest, accountType: 'Other' })).statusCode).toBe(400);
    expect((await t.call(ADMIN, 'PUT', '/api/efax/account/kno2', { organizationId: NOBODY, accountType: 'Kno2EFaxAccount' })).statusCode).toBe(404);
  });

  it('generates a WestFax sub account, resets its password, adds and removes numbers, syncs and deletes it', async () => {
    const riverview = await idOf('riverview');
    const url = `/api/westfax/account/${riverview}`;
    expect((await t.call(ADMIN, 'POST', `${url}/sync`)).json()).toEqual({ message: text.westfaxMissing });
    const created = (await t.call(ADMIN, 'PUT', '/api/westfax/account', { organizationId: riverview })).json();
    expect(created).toEqual({
      message: 'Successfully created WestFax account for Riverview Cardiology!',
      westFaxAccount: { username: 'riverview.fax', numbers: [], syncedAt: null, createdDate: expect.any(String) },
      password: expect.stringMatching(/^.{12,}$/),
    });
    const reset = (await t.call(ADMIN, 'PUT', '/api/westfax/account', { organizationId: riverview })).json();
    expect(reset.message).toBe('Successfully updated WestFax account for Riverview Cardiology!');
    expect(reset.password).not.toBe(created.password);

    expect((await t.call(ADMIN, 'POST', url, { number: '(503) 555-0707' })).json().westFaxAccount.numbers).toEqual(['5035550707']);
    expect((await t.call(ADMIN, 'POST', url, { number: '503-555-0707' })).json()).toEqual({ message: text.numberTaken, modelState: { number: [text.numberTaken] } });
    expect((await t.call(ADMIN, 'POST', url, { number: '12345' })).json()).toEqual({ message: text.numberInvalid, modelState: { number: [text.numberInvalid] } });
    const synced = (await t.call(ADMIN, 'POST', `${url}/sync`)).json();
    expect(synced).toMatchObject({ message: 'Successfully synced WestFax account for Riverview Cardiology!', westFaxAccount: { numbers: ['5035550707'], syncedAt: expect.any(String) } });
    expect((await t.call(ADMIN, 'DELETE', `${url}/5035550707`)).json().westFaxAccount.numbers).toEqual([]);
    expect((await t.call(ADMIN, 'DELETE', `${url}/5035550707`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', url)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${riverview}/faxaccounts`)).json().westFaxAccount).toBeNull();
    expect((await t.call(ADMIN, 'DELETE', `/api/westfax/account/${NOBODY}`)).statusCode).toBe(404);

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'organizationId' = ${riverview} and ${auditEvents.eventType} like 'Westfax%'`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['WestfaxAccountCreated', 'WestfaxAccountDeleted', 'WestfaxAccountSynced', 'WestfaxNumberAdded', 'WestfaxNumberRemoved', 'WestfaxPasswordReset']);
  });

  it('asks for a subdomain first', async () => {
    const oakwood = await idOf('oakwood');
    await t.handle.db.update(organizations).set({ subdomain: '' }).where(eq(organizations.id, oakwood));
    expect((await t.call(ADMIN, 'PUT', '/api/westfax/account', { organizationId: oakwood })).json()).toEqual({ message: text.noSubdomainDetail });
    expect((await t.call(ADMIN, 'POST', '/api/efax/account/kno2', { organizationId: oakwood, accountType: 'Kno2EFaxAccount' })).json()).toEqual({ message: text.noSubdomainDetail });
  });

  it('answers system administrators only', async () => {
    const calls: [string, string, object?][] = [
      ['GET', `/api/organizations/${NOBODY}/faxaccounts`],
      ['PUT', '/api/efax/account/kno2', {}],
      ['POST', '/api/efax/account/kno2', {}],
      ['PUT', '/api/westfax/account', {}],
      ['POST', `/api/westfax/account/${NOBODY}/sync`],
      ['DELETE', `/api/westfax/account/${NOBODY}`],
      ['POST', `/api/westfax/account/${NOBODY}`, { number: '5035550000' }],
      ['DELETE', `/api/westfax/account/${NOBODY}/5035550000`],
    ];
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
  });
});
