import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
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

  it('starts from the demo world: Ray receives Riverview’s Direct address, Leo Lakeside’s, not its fax number', async () => {
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${ray}/documentsources`)).json()).toEqual([{ organizationId: riverviewId, documentSourceId: riverviewDirect }]);
    expect((await t.call(DEMO.lakesideUser, 'GET', `/api/users/${leo}/documentsources`)).json()).toEqual([{ organizationId: lakesideId, documentSourceId: lakesideDirect }]);
  });

  it('lets an administrator replace a member’s addresses, which changes what the member sees at once', async () => {
    const fax = await insertInbound(db(), { subject: 'users-story fax', to: DEMO.riverviewFax, sourceType: 'Fax' });
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${fax.id}`)).statusCode).toBe(404);

    const both = [
      { organizationId: riverviewId, documentSourceId: riverviewFax },
      { organizationId: riverviewId, documentSourceId: riverviewDirect },
    ];
    const res = await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/documentsources`, both);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveLength(2);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${fax.id}`)).statusCode).toBe(200);

    await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${ray}/documentsources`, [{ organizationId: riverviewId, documentSourceId: riverviewDirect }]);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${fax.id}`)).statusCode).toBe(404);
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
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${ray}/rules`)).json()).toEqual([]);
  });

  it('keeps the organization’s intake rules: administrators create and delete them, users read them and their own', async () => {
    const created = await t.call(DEMO.riverviewAdmin, 'POST', '/api/intakerules', { name: 'Fax from Lakeside', fromAddress: '(503) 555-0101', sourceType: 'Fax' });
    expect(created.statusCode, created.body).toBe(200);
    const rule = created.json();
    expect(rule).toEqual({ id: expect.any(String), name: 'Fax from Lakeside', toAddress: null, fromAddress: '5035550101', sourceType: 'Fax' });
    expect((await t.call(DEMO.riverviewAdmin, 'POST', '/api/intakerules', { name: 'Everything' })).json().message).toBe('The request is invalid.');
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
