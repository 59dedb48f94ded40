import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { serviceAccountMessages as text } from '@clinicrelay/contracts/service-accounts.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { serviceAccounts } from '../../db/schema/back-office.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';
import { isIpAddressOrRange } from './service.ts';

const ADMIN = 'sysadmin@example.org';
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('service accounts and their IP addresses (back-office-a §2 serviceaccount and ipaddresses tabs, §5)', () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const account = async (organizationId: string, clientId: string, clientIpAddresses: string[] = [], allowedAddressCount = 2) =>
    (await t.handle.db.insert(serviceAccounts).values({ organizationId, clientId, clientIpAddresses, allowedAddressCount }).returning())[0]!;

  it('lists an organization’s service accounts (none: an empty list) and keeps its limit above their number', async () => {
    const lakeside = await idOf('lakeside');
    const url = `/api/organizations/${lakeside}/serviceaccount`;
    expect((await t.call(ADMIN, 'GET', url)).json()).toEqual([]);
    const a = await account(lakeside, 'lakeside-emr', ['203.0.113.10'], 3);
    expect((await t.call(ADMIN, 'GET', url)).json()).toEqual([{ id: a.id, clientId: 'lakeside-emr', serviceAccountEnabled: true, clientIpAddresses: ['203.0.113.10'], allowedAddressCount: 3 }]);

    expect((await t.call(ADMIN, 'GET', `${url}/limit`)).json()).toEqual({ count: 1 });
    expect((await t.call(ADMIN, 'PUT', `${url}/limit`, { count: 4 })).json()).toEqual({ count: 4 });
    expect((await t.call(ADMIN, 'GET', `${url}/limit`)).json()).toEqual({ count: 4 });
    await account(lakeside, 'lakeside-portal');
    expect((await t.call(ADMIN, 'PUT', `${url}/limit`, { count: 1 })).json()).toEqual({ message: text.limitTooLow(2), modelState: { count: [text.limitTooLow(2)] } });
    expect((await t.call(ADMIN, 'PUT', `${url}/limit`, { count: -1 })).statusCode).toBe(400);
    expect((await t.call(ADMIN, 'PUT', `${url}/limit`, { count: 'many' })).json().modelState).toEqual({ count: ['Count must be a number.'] });
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${NOBODY}/serviceaccount`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', `/api/organizations/${NOBODY}/serviceaccount/limit`)).statusCode).toBe(404);
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'organizationId' = ${lakeside}`);
    expect(audit.map((r) => r.eventType)).toEqual(['ServiceAccountLimitChanged']);
  });

  it('never lets the allowed address count drop below the addresses listed', async () => {
    const riverview = await idOf('riverview');
    const a = await account(riverview, 'riverview-emr', ['203.0.113.10', '2001:db8::/32'], 2);
    const url = `/api/organizations/${riverview}/serviceaccounts/${a.id}/ipaddresses/limit`;
    expect((await t.call(ADMIN, 'PUT', url, { count: 1 })).json()).toEqual({
      message: 'The number of Allowed Addresses cannot be lower than 2',
      modelState: { count: ['The number of Allowed Addresses cannot be lower than 2'] },
    });
    expect((await t.call(ADMIN, 'PUT', url, { count: 5 })).json()).toMatchObject({ id: a.id, allowedAddressCount: 5 });
    // Another organization's account: 404.
    expect((await t.call(ADMIN, 'PUT', `/api/organizations/${await idOf('lakeside')}/serviceaccounts/${a.id}/ipaddresses/limit`, { count: 5 })).statusCode).toBe(404);
  });

  it('replaces an account’s client IP addresses: IPv4, IPv6 or CIDR ranges, none twice, within the allowed count', async () => {
    const oakwood = await idOf('oakwood');
    const a = await account(oakwood, 'oakwood-emr', [], 3);
    const url = `/api/organizations/${oakwood}/serviceaccounts/${a.id}/ipaddresses`;
    expect((await t.call(ADMIN, 'PUT', url, { clientIpAddresses: ['198.51.100.7', '10.0.0.0/8', 'fe80::1'] })).json()).toMatchObject({ clientIpAddresses: ['198.51.100.7', '10.0.0.0/8', 'fe80::1'] });
    expect((await t.call(ADMIN, 'PUT', url, { clientIpAddresses: ['198.51.100.7', '300.1.1.1'] })).json()).toEqual({ message: text.addressInvalid('300.1.1.1'), modelState: { 'clientIpAddresses.1': [text.addressInvalid('300.1.1.1')] } });
    expect((await t.call(ADMIN, 'PUT', url, { clientIpAddresses: ['198.51.100.7', '198.51.100.7'] })).json().modelState).toEqual({ 'clientIpAddresses.1': [text.duplicateAddress('198.51.100.7')] });
    expect((await t.call(ADMIN, 'PUT', url, { clientIpAddresses: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] })).json()).toEqual({ message: text.tooManyAddresses(3), modelState: { clientIpAddresses: [text.tooManyAddresses(3)] } });
    expect((await t.call(ADMIN, 'PUT', url, { clientIpAddresses: [] })).json().clientIpAddresses).toEqual([]);
  });

  it('recognizes addresses and ranges with node:net', () => {
    for (const ok of ['192.168.0.1', '192.168.0.0/24', '0.0.0.0/0', '::1', '2001:db8::/128']) expect(isIpAddressOrRange(ok), ok).toBe(true);
    for (const bad of ['192.168.0', '192.168.0.1/33', '2001:db8::/129', '1.2.3.4/24/1', 'host.example.org', '1.2.3.4/x', '']) expect(isIpAddressOrRange(bad), bad).toBe(false);
  });

  it('answers system administrators only', async () => {
    const calls: [string, string, object?][] = [
      ['GET', `/api/organizations/${NOBODY}/serviceaccount`],
      ['GET', `/api/organizations/${NOBODY}/serviceaccount/limit`],
      ['PUT', `/api/organizations/${NOBODY}/serviceaccount/limit`, { count: 1 }],
      ['PUT', `/api/organizations/${NOBODY}/serviceaccounts/${NOBODY}/ipaddresses/limit`, { count: 1 }],
      ['PUT', `/api/organizations/${NOBODY}/serviceaccounts/${NOBODY}/ipaddresses`, { clientIpAddresses: [] }],
    ];
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
  });
});
