import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { intakeMessages, SAMPLE_INTAKE_RULE_NAME } from '@clinicrelay/contracts/intake.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { useTestApp } from '../../test/app.ts';
import { DEMO, insertInbound, sourceIdOf, userIdOf } from '../intake/test-inbound.ts';

describe('Assigning addresses and intake rules to users', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  let ray: string;
  let rachel: string;
  let leo: string;
  let riverviewId: string;
  let lakesideId: string;
  let riverviewDirect: string;
  let riverviewFax: string;
  let lakesideDirect: string;

  beforeAll(async () => {
    ray = await userIdOf(db(), DEMO.riverviewUser);
    rachel = await userIdOf(db(), DEMO.riverviewAdmin);
    leo = await userIdOf(db(), DEMO.lakesideUser);
    ({ id: riverviewDirect, organizationId: riverviewId } = await sourceIdOf(db(), DEMO.riverviewDirect));
    riverviewFax = (await sourceIdOf(db(), DEMO.riverviewFax)).id;
    ({ id: lakesideDirect, organizationId: lakesideId } = await sourceIdOf(db(), DEMO.lakesideDirect));
  });

  it('starts from the demo world: Ray sends from Riverview’s Direct address, Leo from Lakeside’s, not its fax number', async () => {
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${ray}/documentsources`)).json()).toEqual([{ organizationId: riverviewId, documentSourceId: riverviewDirect }]);
    expect((await t.call(DEMO.lakesideUser, 'GET', `/api/users/${leo}/documentsources`)).json()).toEqual([{ organizationId: lakesideId, documentSourceId: lakesideDirect }]);
  });

  it('lets an administrator replace a member’s send permissions; what the member receives stays the rules’', async () => {
    const fax = await insertInbound(db(), { subject: 'users-story fax', to: DEMO.riverviewFax, sourceType: 'Fax' });
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${fax.id}`)).statusCode).toBe(404);

    const both = [
      { organizationId: riverviewId, documentSourceId: riverviewFax },
      { organizationId: riverviewId, documentSourceId: riverviewDirect },
    ];
    const res = await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/documentsources`, both);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveLength(2);
    const fromList = async () => (await t.call(DEMO.riverviewUser, 'GET', '/api/documentsources')).json().map((s: { canSend: boolean }) => s.canSend);
    expect(await fromList()).toEqual([true, true]);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${fax.id}`)).statusCode).toBe(404);

    await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/documentsources`, [{ organizationId: riverviewId, documentSourceId: riverviewDirect }]);
    expect(await fromList()).toEqual([true, false]);
    const audited = await db().select().from(auditEvents).where(eq(auditEvents.eventType, 'UserDocumentSourcesChanged'));
    expect(audited.map((a) => a.correlationId)).toEqual([ray, ray]);
  });

  it('refuses with 400 an address or rule of another organization, or an assignment in another organization', async () => {
    const foreignSource = await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/documentsources`, [{ organizationId: riverviewId, documentSourceId: lakesideDirect }]);
    expect(foreignSource.statusCode).toBe(400);
    expect(foreignSource.json()).toEqual({ message: intakeMessages.documentSourceNotInOrganization, modelState: { documentSourceId: [intakeMessages.documentSourceNotInOrganization] } });
    const otherOrg = await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/documentsources`, [{ organizationId: lakesideId, documentSourceId: lakesideDirect }]);
    expect(otherOrg.json().message).toBe(intakeMessages.assignmentOrganization);

    const lakesideRule = (await t.call(DEMO.lakesideAdmin, 'POST', '/api/intakerules', { name: 'Lakeside faxes', sourceType: 'Fax' })).json();
    const foreignRule = await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/intakerules`, [{ organizationId: riverviewId, intakeRuleId: lakesideRule.id }]);
    expect(foreignRule.statusCode).toBe(400);
    expect(foreignRule.json().message).toBe(intakeMessages.intakeRuleNotInOrganization);
    // Nothing changed.
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${ray}/documentsources`)).json()).toEqual([{ organizationId: riverviewId, documentSourceId: riverviewDirect }]);
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${ray}/rules`)).json().map((r: { name: string }) => r.name)).toEqual([SAMPLE_INTAKE_RULE_NAME]);
  });

  it('keeps the organization’s intake rules: administrators create and delete them, users read them and their own', async () => {
    const created = await t.call(DEMO.riverviewAdmin, 'POST', '/api/intakerules', { name: 'Fax from Lakeside', fromAddress: '(503) 555-0101', sourceType: 'Fax' });
    expect(created.statusCode, created.body).toBe(200);
    const rule = created.json();
    expect(rule).toEqual({ id: expect.any(String), name: 'Fax from Lakeside', toAddresses: [], fromAddress: '5035550101', sourceType: 'Fax', isGlobal: false });
    expect((await t.call(DEMO.riverviewAdmin, 'POST', '/api/intakerules', { name: 'Everything' })).json().message).toBe('A rule needs a To address, a From address or a source type.');
    expect((await t.call(DEMO.riverviewUser, 'POST', '/api/intakerules', { name: 'Mine', sourceType: 'Fax' })).statusCode).toBe(403);

    expect((await t.call(DEMO.riverviewUser, 'GET', '/api/intakerules')).json()).toContainEqual(rule);
    expect((await t.call(DEMO.lakesideAdmin, 'GET', '/api/intakerules')).json()).not.toContainEqual(rule);

    const saved = await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/intakerules`, [{ organizationId: riverviewId, intakeRuleId: rule.id }]);
    expect(saved.json()).toEqual([{ organizationId: riverviewId, intakeRuleId: rule.id }]);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/users/${ray}/rules`)).json()).toEqual([rule]);

    expect((await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/intakerules/${rule.id}`)).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'DELETE', `/api/intakerules/${rule.id}`)).statusCode).toBe(403);
    expect((await t.call(DEMO.riverviewAdmin, 'DELETE', `/api/intakerules/${rule.id}`)).json()).toEqual({ message: intakeMessages.intakeRuleDeleted });
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/users/${ray}/rules`)).json()).toEqual([]);
  });

  it('shows a User only their own assignments, and nobody anything of a user outside the organization', async () => {
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/users/${rachel}/documentsources`)).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/users/${rachel}/rules`)).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/users/${ray}/documentsources`, [])).statusCode).toBe(403);
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/users/${ray}/intakerules`, [])).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/api/users/${leo}/documentsources`],
      ['PUT', `/api/users/${leo}/documentsources`, []],
      ['PUT', `/api/users/${leo}/intakerules`, []],
      ['GET', `/api/users/${leo}/rules`],
    ] as [string, string, unknown?][]) {
      expect((await t.call(DEMO.riverviewAdmin, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    // Leo keeps his address.
    expect((await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${leo}/documentsources`)).json()).toHaveLength(1);
  });
});

describe('Listing the members of the organization (GET /api/users)', () => {
  const t = useTestApp();
  const names = (res: { json: () => { items: { fullName: string }[] } }) => res.json().items.map((u) => u.fullName);

  it('gives an administrator the members of their current organization only, sorted by last name', async () => {
    const res = await t.call(DEMO.riverviewAdmin, 'GET', '/api/users');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      items: [
        expect.objectContaining({ id: await userIdOf(t.handle.db, DEMO.riverviewUser), userName: DEMO.riverviewUser, firstName: 'Ray', lastName: 'Banks', fullName: 'Ray Banks', roles: ['User'] }),
        expect.objectContaining({ userName: 'multi@example.org', fullName: 'Morgan Multi', roles: ['User'] }),
        expect.objectContaining({ userName: DEMO.riverviewAdmin, fullName: 'Rachel Rivers', roles: ['Administrator'] }),
      ],
      totalCount: 3,
    });
    // Lakeside's list has none of Riverview's own people.
    const lakeside = names(await t.call(DEMO.lakesideAdmin, 'GET', '/api/users'));
    expect(lakeside).toEqual(['Laura Lake', 'Morgan Multi', 'Nina Network', 'Leo Shore']);
  });

  it('searches, sorts by a named column, and pages from 1', async () => {
    const search = await t.call(DEMO.lakesideAdmin, 'GET', '/api/users?search=SHORE');
    expect(search.json()).toMatchObject({ totalCount: 1, items: [{ userName: DEMO.lakesideUser }] });
    // A LIKE wildcard is a plain character.
    expect((await t.call(DEMO.lakesideAdmin, 'GET', '/api/users?search=%25')).json().totalCount).toBe(0);

    const sort = encodeURIComponent(JSON.stringify({ col: 'firstName', dir: 'desc' }));
    expect(names(await t.call(DEMO.lakesideAdmin, 'GET', `/api/users?sort=${sort}`))).toEqual(['Nina Network', 'Morgan Multi', 'Leo Shore', 'Laura Lake']);

    const page2 = await t.call(DEMO.lakesideAdmin, 'GET', '/api/users?page=2&pageSize=3');
    expect(page2.json()).toMatchObject({ totalCount: 4, items: [{ fullName: 'Leo Shore' }] });
  });

  it('refuses a sort column that is not listed, a page below 1 and a page size above 100', async () => {
    const sort = encodeURIComponent(JSON.stringify({ col: 'passwordHash', dir: 'asc' }));
    for (const query of [`sort=${sort}`, 'sort=not-json', 'page=0', 'pageSize=101']) {
      expect((await t.call(DEMO.lakesideAdmin, 'GET', `/api/users?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('refuses a User with 403', async () => {
    const res = await t.call(DEMO.lakesideUser, 'GET', '/api/users');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'You are not authorized to view this resource.' });
  });
});
