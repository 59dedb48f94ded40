import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activationMessages } from '@clinicrelay/contracts/delivery.ts';
import { documentSourceMessages as text } from '@clinicrelay/contracts/document-sources.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';
import { findHostedAddress } from '../../transports/local.ts';

const ADMIN = 'sysadmin@example.org';
const HILLCREST_ADMIN = 'admin@hillcrest.example.org';
const base = '/api/admin/documentsources';

describe('document sources in the back office (end-user §7 "Fax and other")', () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const add = async (organizationId: string, type: string, fullAddress: string) => {
    const res = await t.call(ADMIN, 'POST', base, { organizationId, type, fullAddress });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; fullAddress: string; status: number; statusName: string }>();
  };

  it('a Direct address added and activated for Hillcrest is at once its From address, and receives; removed, it is neither', async () => {
    const hillcrest = await idOf('hillcrest');
    const added = await add(hillcrest, 'DirectMessaging', ' Front.Desk@Hillcrest.direct.example.org ');
    expect(added).toMatchObject({ organizationId: hillcrest, organizationName: 'Hillcrest Pediatrics', type: 'DirectMessaging', fullAddress: 'front.desk@hillcrest.direct.example.org', status: 0, statusName: 'Provisioning' });
    // Provisioning: not offered as From, not a From a draft can keep, and not delivered to.
    expect((await t.call(HILLCREST_ADMIN, 'GET', '/api/documentsources')).json()).toEqual([]);
    expect(await findHostedAddress(t.handle.db, 'Direct', added.fullAddress)).toBeUndefined();

    const activated = await t.call(ADMIN, 'POST', `${base}/activate/${added.id}`);
    expect(activated.json()).toMatchObject({ id: added.id, status: 1, statusName: 'Activated' });
    expect((await t.call(HILLCREST_ADMIN, 'GET', '/api/documentsources')).json()).toEqual([{ id: added.id, address: { fullAddress: added.fullAddress, type: 'Direct' }, status: 1, canSend: true }]);
    // Hosted here; Hillcrest is not activated, so mail for it is refused with the reason (issue 26).
    expect(await findHostedAddress(t.handle.db, 'Direct', added.fullAddress)).toEqual({ id: added.id, organizationId: hillcrest, refusal: activationMessages.receiveNotActivated });
    const draft = await t.call(HILLCREST_ADMIN, 'PUT', '/api/messages', { subject: 'Welcome packet', fromAddress: added.fullAddress, toAddress: 'intake@lakeside.direct.example.org' });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ fromAddress: added.fullAddress, isDraft: true });
    const [stored] = await t.handle.db.select({ from: messages.fromDocumentSourceId }).from(messages).where(eq(messages.id, draft.json().id));
    expect(stored!.from).toBe(added.id);

    // Removal: Deleted (4), out of service at once; the draft still points at it (history intact).
    expect((await t.call(ADMIN, 'DELETE', `${base}?id=${added.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `${base}/${added.id}`)).json()).toMatchObject({ status: 4, statusName: 'Deleted' });
    expect((await t.call(HILLCREST_ADMIN, 'GET', '/api/documentsources')).json()).toEqual([]);
    expect(await findHostedAddress(t.handle.db, 'Direct', added.fullAddress)).toBeUndefined();
    const [kept] = await t.handle.db.select({ from: messages.fromDocumentSourceId }).from(messages).where(eq(messages.id, draft.json().id));
    expect(kept!.from).toBe(added.id);
    // The address stays taken; it cannot be changed, and activating it restores it.
    expect((await t.call(ADMIN, 'GET', `${base}/exists?val=FRONT.DESK@hillcrest.direct.example.org`)).json()).toBe(true);
    expect((await t.call(ADMIN, 'PUT', base, { id: added.id, type: 'DirectMessaging', fullAddress: 'desk@hillcrest.direct.example.org' })).json()).toEqual({ message: text.deletedIsFinal });
    expect((await t.call(ADMIN, 'POST', `${base}/activate/${added.id}`)).json().status).toBe(1);

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'documentSourceId' = ${added.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['DocumentSourceActivated', 'DocumentSourceActivated', 'DocumentSourceCreated', 'DocumentSourceDeleted']);
  });

  it('checks addresses: a valid Direct address in the organization’s domain, a 10-digit fax number, unique everywhere', async () => {
    const hillcrest = await idOf('hillcrest');
    const post = (type: string, fullAddress: string, organizationId = hillcrest) => t.call(ADMIN, 'POST', base, { organizationId, type, fullAddress });
    expect((await post('DirectMessaging', 'not-an-address')).json()).toEqual({ message: text.directInvalid, modelState: { fullAddress: [text.directInvalid] } });
    expect((await post('DirectMessaging', 'x@lakeside.direct.example.org')).json()).toEqual({
      message: 'A Direct address of this organization must end in @hillcrest.…',
      modelState: { fullAddress: ['A Direct address of this organization must end in @hillcrest.…'] },
    });
    expect((await post('Fax', '555-0101')).json()).toEqual({ message: text.faxInvalid, modelState: { fullAddress: [text.faxInvalid] } });
    expect((await post('Fax', 'fax me')).json().modelState).toEqual({ fullAddress: [text.faxInvalid] });
    expect((await post('DirectMessaging', ' ')).json().modelState).toEqual({ fullAddress: ['Address is required.'] });
    expect((await post('Fax', '5'.repeat(256))).json().modelState).toEqual({ fullAddress: ['Address must be at most 255 characters.'] });
    expect((await post('Email', 'a@hillcrest.x.org')).statusCode).toBe(400);
    // Stored as 10 digits, whatever the punctuation or a leading 1.
    expect((await add(hillcrest, 'Fax', '+1 (503) 555-0303')).fullAddress).toBe('5035550303');
    expect((await post('Fax', '503.555.0303')).json()).toEqual({ message: text.addressTaken, modelState: { fullAddress: [text.addressTaken] } });
    expect((await post('Fax', '5035550101')).json().message).toBe(text.addressTaken);
    expect((await post('DirectMessaging', 'INTAKE@lakeside.direct.example.org', await idOf('lakeside'))).json().message).toBe(text.addressTaken);
    expect((await t.call(ADMIN, 'GET', `${base}/exists?val=(503) 555-0101`)).json()).toBe(true);
    expect((await t.call(ADMIN, 'GET', `${base}/exists?val=nobody@hillcrest.direct.example.org`)).json()).toBe(false);
    expect((await post('Fax', '5035550404', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('changes an address (an activated one goes Pending Update and stays in service) and sets a fax number’s status', async () => {
    const hillcrest = await idOf('hillcrest');
    const fax = await add(hillcrest, 'Fax', '5035550505');
    await t.call(ADMIN, 'POST', `${base}/activate/${fax.id}`);
    const changed = await t.call(ADMIN, 'PUT', base, { id: fax.id, type: 'Fax', fullAddress: '503-555-0506' });
    expect(changed.json()).toMatchObject({ fullAddress: '5035550506', status: 2, statusName: 'Pending Update' });
    expect((await t.call(HILLCREST_ADMIN, 'GET', '/api/documentsources')).json().map((s: { address: { fullAddress: string } }) => s.address.fullAddress)).toContain('5035550506');
    expect((await t.call(ADMIN, 'PUT', base, { id: fax.id, type: 'Fax', fullAddress: '5035550101' })).json().message).toBe(text.addressTaken);
    expect((await t.call(ADMIN, 'PUT', base, { id: fax.id, type: 'DirectMessaging', fullAddress: 'a@hillcrest.direct.example.org' })).statusCode).toBe(404);

    expect((await t.call(ADMIN, 'PUT', `${base}/${fax.id}/faxstatus`, { status: 5 })).json()).toMatchObject({ status: 5, statusName: 'Failed' });
    expect((await t.call(HILLCREST_ADMIN, 'GET', '/api/documentsources')).json().map((s: { id: string }) => s.id)).not.toContain(fax.id);
    expect((await t.call(ADMIN, 'PUT', `${base}/${fax.id}/faxstatus`, { status: 6 })).statusCode).toBe(400);
    const direct = await add(hillcrest, 'DirectMessaging', 'records@hillcrest.direct.example.org');
    expect((await t.call(ADMIN, 'PUT', `${base}/${direct.id}/faxstatus`, { status: 1 })).json()).toEqual({ message: text.faxOnly, modelState: { status: [text.faxOnly] } });
    expect((await t.call(ADMIN, 'GET', `${base}/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', `${base}?id=00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
  });

  it('lists addresses by type (any case), organization and search, sorted by address and paged', async () => {
    const lakeside = await idOf('lakeside');
    const faxes = (await t.call(ADMIN, `GET`, `${base}?type=fax&sortDir=desc&pageNumber=1&pageSize=1`)).json();
    expect(faxes.totalCount).toBeGreaterThanOrEqual(2);
    expect(faxes.items).toHaveLength(1);
    expect(faxes.items[0].type).toBe('Fax');
    const own = (await t.call(ADMIN, 'GET', `${base}?organizationId=${lakeside}`)).json();
    expect(own.items.map((s: { fullAddress: string }) => s.fullAddress)).toEqual(['5035550101', 'intake@lakeside.direct.example.org']);
    expect((await t.call(ADMIN, 'GET', `${base}?type=DirectMessaging&search=riverview`)).json().items.map((s: { fullAddress: string }) => s.fullAddress)).toEqual(['referrals@riverview.direct.example.org']);
    expect((await t.call(ADMIN, 'GET', `${base}?type=email`)).statusCode).toBe(400);
  });

  it('lists the providers of a type', async () => {
    expect((await t.call(ADMIN, 'GET', `${base}/documentsourceproviders?pageNumber=1&pageSize=20&type=DirectMessaging`)).json()).toEqual({ items: [{ id: 1, name: 'ClinicRelay HISP', type: 'DirectMessaging' }], totalCount: 1 });
    expect((await t.call(ADMIN, 'GET', `${base}/documentsourceproviders`)).json().totalCount).toBe(2);
  });

  // Issue 13 §3 opens list, read, request and removal to an organization's Administrator (administrator.test.ts).
  it('answers system administrators only', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const calls: [string, string, object?][] = [
      ['GET', base],
      ['GET', `${base}/${id}`],
      ['GET', `${base}/exists?val=x`],
      ['GET', `${base}/documentsourceproviders`],
      ['POST', base, {}],
      ['PUT', base, {}],
      ['DELETE', `${base}?id=${id}`],
      ['POST', `${base}/activate/${id}`],
      ['PUT', `${base}/${id}/faxstatus`, { status: 1 }],
    ];
    for (const user of ['reporting@example.org', 'user@lakeside.example.org']) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
  });
});
