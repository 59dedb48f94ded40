import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { documentSourceMessages as text } from '@clinicrelay/contracts/document-sources.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const SYSADMIN = 'sysadmin@example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_ADMIN = 'admin@riverview.example.org';
const base = '/api/admin/documentsources';

type Listed = { id: string; organizationId: string; fullAddress: string; status: number; statusName: string; senders: { userId: string; fullName: string }[] };

describe("an organization's Administrator and its addresses and fax numbers (issue 13 §3)", () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const list = async (user: string, query = '') => {
    const res = await t.call(user, 'GET', `${base}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: Listed[]; totalCount: number }>();
  };

  it("lists only the Administrator's own organization, whatever organization is asked for, with who may send from each", async () => {
    const riverview = await idOf('riverview');
    const own = await list(LAKESIDE_ADMIN);
    expect(own.items.map((s) => s.fullAddress)).toEqual(['5035550101', 'intake@lakeside.direct.example.org']);
    expect(own.totalCount).toBe(2);
    expect(own.items.find((s) => s.fullAddress === 'intake@lakeside.direct.example.org')!.senders.map((s) => s.fullName)).toEqual(['Leo Shore']);
    expect(own.items.find((s) => s.fullAddress === '5035550101')!.senders.map((s) => s.fullName)).toEqual(['Morgan Multi']);
    // Asking for Riverview's addresses still answers Lakeside's.
    expect((await list(LAKESIDE_ADMIN, `?organizationId=${riverview}`)).items.map((s) => s.fullAddress)).toEqual(['5035550101', 'intake@lakeside.direct.example.org']);
    expect((await list(LAKESIDE_ADMIN, '?type=fax')).items.map((s) => s.fullAddress)).toEqual(['5035550101']);
    // A system administrator keeps every organization.
    expect((await list(SYSADMIN)).totalCount).toBeGreaterThanOrEqual(4);
    expect((await list(SYSADMIN, `?organizationId=${riverview}`)).items.map((s) => s.fullAddress)).toEqual(['5035550202', 'referrals@riverview.direct.example.org']);
  });

  it("answers 404 for another organization's address, to read, request or remove", async () => {
    const riverview = await idOf('riverview');
    const theirs = (await list(RIVERVIEW_ADMIN)).items[0]!;
    const ours = (await list(LAKESIDE_ADMIN)).items[0]!;
    expect((await t.call(LAKESIDE_ADMIN, 'GET', `${base}/${ours.id}`)).json()).toMatchObject({ id: ours.id, fullAddress: ours.fullAddress });
    expect((await t.call(LAKESIDE_ADMIN, 'GET', `${base}/${theirs.id}`)).statusCode).toBe(404);
    expect((await t.call(LAKESIDE_ADMIN, 'DELETE', `${base}?id=${theirs.id}`)).statusCode).toBe(404);
    expect((await t.call(LAKESIDE_ADMIN, 'POST', base, { organizationId: riverview, type: 'DirectMessaging', fullAddress: 'x@riverview.direct.example.org' })).statusCode).toBe(404);
    expect((await t.call(LAKESIDE_ADMIN, 'POST', `${base}/faxnumber`, { organizationId: riverview })).statusCode).toBe(404);
    // Nothing of Riverview's changed.
    expect((await list(RIVERVIEW_ADMIN)).items.map((s) => [s.fullAddress, s.status])).toEqual([
      ['5035550202', 1],
      ['referrals@riverview.direct.example.org', 1],
    ]);
  });

  it('requests a Direct address on the organization’s domain: Provisioning until a system administrator activates it', async () => {
    const lakeside = await idOf('lakeside');
    const requested = await t.call(LAKESIDE_ADMIN, 'POST', base, { organizationId: lakeside, type: 'DirectMessaging', fullAddress: 'Records@lakeside.direct.example.org' });
    expect(requested.statusCode, requested.body).toBe(200);
    const source = requested.json<Listed>();
    expect(source).toMatchObject({ organizationId: lakeside, fullAddress: 'records@lakeside.direct.example.org', status: 0, statusName: 'Provisioning' });
    // Another domain is refused as for the back office.
    expect((await t.call(LAKESIDE_ADMIN, 'POST', base, { organizationId: lakeside, type: 'DirectMessaging', fullAddress: 'x@riverview.direct.example.org' })).json().message).toBe(
      'A Direct address of this organization must end in @lakeside.…',
    );
    // Not offered as From while provisioning; the Administrator cannot activate it.
    expect((await t.call(LAKESIDE_ADMIN, 'GET', '/api/documentsources')).json().map((s: { id: string }) => s.id)).not.toContain(source.id);
    expect((await t.call(LAKESIDE_ADMIN, 'POST', `${base}/activate/${source.id}`)).statusCode).toBe(403);
    expect((await t.call(SYSADMIN, 'POST', `${base}/activate/${source.id}`)).json()).toMatchObject({ status: 1 });
    expect((await t.call(LAKESIDE_ADMIN, 'GET', '/api/documentsources')).json().map((s: { id: string }) => s.id)).toContain(source.id);
    // The Administrator removes it.
    expect((await t.call(LAKESIDE_ADMIN, 'DELETE', `${base}?id=${source.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(LAKESIDE_ADMIN, 'GET', `${base}/${source.id}`)).json()).toMatchObject({ status: 4 });
  });

  it('orders a fax number from the sandbox fax provider: a free number of the test range, in service at once, and says sandbox', async () => {
    const lakeside = await idOf('lakeside');
    const first = await t.call(LAKESIDE_ADMIN, 'POST', `${base}/faxnumber`, { organizationId: lakeside });
    expect(first.statusCode, first.body).toBe(200);
    // 503-555-0100 is the first number of the range; 0101 is Lakeside's own already.
    expect(first.json()).toMatchObject({ organizationId: lakeside, type: 'Fax', fullAddress: '5035550100', status: 1, provider: 'sandbox', notice: text.sandboxFaxAssigned('503-555-0100') });
    expect(first.json().notice).toContain('Sandbox');
    const second = (await t.call(LAKESIDE_ADMIN, 'POST', `${base}/faxnumber`, { organizationId: lakeside })).json();
    expect(second.fullAddress).toBe('5035550102');
    expect((await t.call(LAKESIDE_ADMIN, 'GET', '/api/documentsources')).json().map((s: { address: { fullAddress: string } }) => s.address.fullAddress)).toContain('5035550100');
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType, details: auditEvents.details }).from(auditEvents).where(sql`${auditEvents.details}->>'documentSourceId' = ${first.json().id}`);
    expect(audit).toEqual([{ eventType: 'DocumentSourceFaxNumberOrdered', details: expect.objectContaining({ organizationId: lakeside, fullAddress: '5035550100', provider: 'sandbox' }) }]);
  });

  it('refuses Users every call, and Administrators the calls that stay with system administrators', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const lakeside = await idOf('lakeside');
    const everyCall: [string, string, object?][] = [
      ['GET', base],
      ['GET', `${base}/${id}`],
      ['GET', `${base}/exists?val=x`],
      ['POST', base, { organizationId: lakeside, type: 'Fax', fullAddress: '5035550999' }],
      ['POST', `${base}/faxnumber`, { organizationId: lakeside }],
      ['DELETE', `${base}?id=${id}`],
    ];
    const systemOnly: [string, string, object?][] = [
      ['GET', `${base}/documentsourceproviders`],
      ['PUT', base, { id, type: 'Fax', fullAddress: '5035550999' }],
      ['POST', `${base}/activate/${id}`],
      ['PUT', `${base}/${id}/faxstatus`, { status: 1 }],
    ];
    for (const [method, url, body] of [...everyCall, ...systemOnly]) expect((await t.call(LAKESIDE_USER, method, url, body)).statusCode, `User ${method} ${url}`).toBe(403);
    for (const [method, url, body] of systemOnly) expect((await t.call(LAKESIDE_ADMIN, method, url, body)).statusCode, `Administrator ${method} ${url}`).toBe(403);
    expect((await t.call(LAKESIDE_ADMIN, 'GET', `${base}/exists?val=5035550202`)).json()).toBe(true);
  });
});
