import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_ADMIN = 'admin@riverview.example.org';

describe('an Administrator changes an intake rule (PUT /api/intakerules/{id}, issue 13 §4)', () => {
  const t = useTestApp();

  it('renames a rule and changes its addresses, stored as messages carry them; the users keep it', async () => {
    const created = await t.call(LAKESIDE_ADMIN, 'POST', '/api/intakerules', { name: 'Labs', toAddresses: ['intake@lakeside.direct.example.org'] });
    expect(created.statusCode, created.body).toBe(200);
    const rule = created.json<{ id: string }>();
    const users = (await t.call(LAKESIDE_ADMIN, 'GET', '/api/users')).json<{ items: { id: string; userName: string }[] }>().items;
    const leo = users.find((u) => u.userName === LAKESIDE_USER)!;
    const [lakeside] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    const organizationId = lakeside!.id;
    expect((await t.call(LAKESIDE_ADMIN, 'PUT', `/api/users/${leo.id}/intakerules`, [{ organizationId, intakeRuleId: rule.id }])).statusCode).toBe(200);

    const changed = await t.call(LAKESIDE_ADMIN, 'PUT', `/api/intakerules/${rule.id}`, {
      name: 'Lab results',
      toAddresses: ['(503) 555-0101', 'Intake@Lakeside.Direct.Example.org', '503-555-0101'],
      fromAddress: ' Lab@Riverview.Direct.Example.org ',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ id: rule.id, name: 'Lab results', toAddresses: ['5035550101', 'intake@lakeside.direct.example.org'], fromAddress: 'lab@riverview.direct.example.org', sourceType: null, isGlobal: false });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/users/${leo.id}/rules`)).json()).toEqual([changed.json()]);
    expect((await t.call(LAKESIDE_ADMIN, 'GET', '/api/intakerules')).json()).toContainEqual(changed.json());
  });

  it('checks the rule as at creation, answers 404 for another organization’s rule and 403 for a User', async () => {
    const rule = (await t.call(LAKESIDE_ADMIN, 'POST', '/api/intakerules', { name: 'Faxes', sourceType: 'Fax' })).json<{ id: string }>();
    const empty = await t.call(LAKESIDE_ADMIN, 'PUT', `/api/intakerules/${rule.id}`, { name: 'Faxes' });
    expect(empty.statusCode).toBe(400);
    expect((await t.call(LAKESIDE_ADMIN, 'PUT', `/api/intakerules/${rule.id}`, { name: ' ', sourceType: 'Fax' })).json().modelState.name).toEqual(['Name is required.']);
    // A rule routes what the organization receives: its To addresses are the organization's own.
    const foreign = await t.call(LAKESIDE_ADMIN, 'PUT', `/api/intakerules/${rule.id}`, { name: 'Faxes', toAddresses: ['referrals@riverview.direct.example.org'] });
    expect(foreign.json()).toEqual({ message: intakeMessages.ruleAddressNotOwn, modelState: { toAddresses: [intakeMessages.ruleAddressNotOwn] } });
    expect((await t.call(RIVERVIEW_ADMIN, 'PUT', `/api/intakerules/${rule.id}`, { name: 'Mine now', sourceType: 'Fax' })).statusCode).toBe(404);
    expect((await t.call(LAKESIDE_USER, 'PUT', `/api/intakerules/${rule.id}`, { name: 'Mine now', sourceType: 'Fax' })).statusCode).toBe(403);
    expect((await t.call(LAKESIDE_ADMIN, 'GET', '/api/intakerules')).json().find((r: { id: string }) => r.id === rule.id).name).toBe('Faxes');
  });
});
