import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { routingRuleMessages as text, type RoutingRule } from '@clinicrelay/contracts/routing-rules.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const BASE = '/api/admin/routingrules';

const hospital = {
  address: 'results@mercy-hospital.direct.example.net',
  stepType: 3,
  securityType: 'Certificate',
  customCertificateName: '',
  convertToFormat: 'ORU',
  locationCode: 'rrh',
  facilityOid: '2.16.840.1.113883.3.1234',
  keyHieAddress: 'hie-gateway@statehie.example.org',
  displayUrl: 'https://mercy.example.net/results',
};

// back-office-b §2-§9 "Routing rules" (issue 29 §3): a system administrator keeps the rules, their endpoints and their
// sending organizations; nobody else sees them.
describe('Routing rules administration', () => {
  const t = useTestApp();
  let lakesideId: string;
  let riverviewId: string;

  beforeAll(async () => {
    const orgs = await t.handle.db.select({ id: organizations.id, name: organizations.name }).from(organizations);
    lakesideId = orgs.find((o) => o.name.startsWith('Lakeside'))!.id;
    riverviewId = orgs.find((o) => o.name.startsWith('Riverview'))!.id;
  });

  const create = async (body: object = hospital) => {
    const res = await t.call(ADMIN, 'POST', BASE, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<RoutingRule>();
  };

  it('creates a rule (POST /{id} as the catalog writes it, and POST without one), reads, lists and searches it by address', async () => {
    const rule = await create();
    expect(rule).toMatchObject({ ...hospital, customCertificateName: null, endpoints: [], senders: [] });
    const other = await t.call(ADMIN, 'POST', `${BASE}/00000000-0000-0000-0000-000000000000`, { ...hospital, address: 'mdm@saint-mary.example.org', convertToFormat: 'MDM', locationCode: 'smh' });
    expect(other.statusCode, other.body).toBe(200);
    expect((await t.call(ADMIN, 'GET', `${BASE}/${rule.id}`)).json()).toEqual(rule);

    const page = await t.call(ADMIN, 'GET', `${BASE}?search=MERCY&pageNumber=1&pageSize=10&sortDir=asc`);
    expect(page.json()).toEqual({ items: [rule], totalCount: 1 });
    const all = await t.call(ADMIN, 'GET', `${BASE}?pageNumber=1&pageSize=1&sortDir=desc`);
    expect(all.json().totalCount).toBeGreaterThanOrEqual(2);
    expect(all.json().items).toHaveLength(1);
    expect(all.json().items[0].address).toBe('results@mercy-hospital.direct.example.net');
    const none = await t.call(ADMIN, 'GET', `${BASE}?search=nobody-here`);
    expect(none.json()).toEqual({ items: [], totalCount: 0 });
  });

  it('answers §5’s rules with model-state messages: address required and at most 255, step and security type required, keyHieAddress at most 255', async () => {
    const res = await t.call(ADMIN, 'POST', BASE, { address: '', keyHieAddress: 'k'.repeat(256) });
    expect(res.statusCode).toBe(400);
    expect(res.json().modelState).toEqual({
      address: ['Address is required.'],
      stepType: [text.stepTypeRequired],
      securityType: [text.securityTypeRequired],
      keyHieAddress: ['Key HIE address must be at most 255 characters.'],
    });
    const long = await t.call(ADMIN, 'POST', BASE, { ...hospital, address: `${'a'.repeat(250)}@x.org` });
    expect(long.json()).toMatchObject({ message: 'Address must be at most 255 characters.', modelState: { address: ['Address must be at most 255 characters.'] } });
    for (const stepType of [-1, 13, 2.5, 'x']) {
      const bad = await t.call(ADMIN, 'POST', BASE, { ...hospital, address: 'step@x.org', stepType });
      expect(bad.json().modelState, String(stepType)).toEqual({ stepType: [text.stepTypeRequired] });
    }
    const security = await t.call(ADMIN, 'POST', BASE, { ...hospital, address: 'sec@x.org', securityType: 'Password' });
    expect(security.json().modelState).toEqual({ securityType: [text.securityTypeRequired] });
    const format = await t.call(ADMIN, 'POST', BASE, { ...hospital, address: 'fmt@x.org', convertToFormat: 'PDF', locationCode: 'abc' });
    expect(Object.keys(format.json().modelState)).toEqual(['convertToFormat', 'locationCode']);
    // Every step type 0-12 is accepted.
    for (const stepType of [0, 12]) expect((await t.call(ADMIN, 'POST', BASE, { ...hospital, address: `step${stepType}@x.org`, stepType })).statusCode).toBe(200);
  });

  it('keeps one rule per address (case ignored), on create and update', async () => {
    const first = await create({ ...hospital, address: 'once@unique.example.org' });
    const again = await t.call(ADMIN, 'POST', BASE, { ...hospital, address: 'ONCE@unique.example.org' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: text.addressTaken, modelState: { address: [text.addressTaken] } });
    const second = await create({ ...hospital, address: 'twice@unique.example.org' });
    const moved = await t.call(ADMIN, 'PUT', `${BASE}/${second.id}`, { ...hospital, address: 'once@unique.example.org' });
    expect(moved.json().modelState).toEqual({ address: [text.addressTaken] });
    // Saving a rule under its own address is no clash.
    const same = await t.call(ADMIN, 'PUT', `${BASE}/${first.id}`, { ...hospital, address: 'Once@unique.example.org', convertToFormat: '', locationCode: null });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ address: 'Once@unique.example.org', convertToFormat: null, locationCode: null });
  });

  it('updates and deletes a rule, answering 404 with a model-state message for one that is gone', async () => {
    const rule = await create({ ...hospital, address: 'short-lived@x.org' });
    const updated = await t.call(ADMIN, 'PUT', `${BASE}/${rule.id}`, { ...hospital, address: 'short-lived@x.org', stepType: 7, securityType: 'SAML', customCertificateName: 'mercy-2026' });
    expect(updated.json()).toMatchObject({ stepType: 7, securityType: 'SAML', customCertificateName: 'mercy-2026' });
    expect((await t.call(ADMIN, 'DELETE', `${BASE}/${rule.id}`)).json()).toEqual({ ok: true });
    for (const [method, body] of [['GET', undefined], ['PUT', hospital], ['DELETE', undefined]] as const) {
      const gone = await t.call(ADMIN, method, `${BASE}/${rule.id}`, body);
      expect(gone.statusCode, method).toBe(404);
      expect(gone.json()).toEqual({ message: text.ruleNotFound, modelState: { id: [text.ruleNotFound] } });
    }
    const audits = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(eq(auditEvents.userName, ADMIN));
    expect(audits.map((a) => a.eventType)).toEqual(expect.arrayContaining(['RoutingRuleCreated', 'RoutingRuleUpdated', 'RoutingRuleDeleted']));
  });

  it('adds, updates and deletes endpoints (the body names the rule; DELETE takes ?id=), with §5’s limits', async () => {
    const rule = await create({ ...hospital, address: 'endpoints@x.org' });
    const added = await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: '10.20.30.40', port: '2575', oid: '1.2.3' });
    expect(added.statusCode, added.body).toBe(200);
    const endpoint = added.json<RoutingRule>().endpoints[0]!;
    expect(endpoint).toMatchObject({ routingRuleId: rule.id, ipAddress: '10.20.30.40', port: 2575, oid: '1.2.3' });
    const byHost = await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: 'mllp.mercy.example.net', port: 6661 });
    expect(byHost.json().endpoints.map((e: { ipAddress: string }) => e.ipAddress)).toEqual(['10.20.30.40', 'mllp.mercy.example.net']);

    const updated = await t.call(ADMIN, 'PUT', `${BASE}/endpoints`, { id: endpoint.id, routingRuleId: rule.id, ipAddress: '10.20.30.41', port: 2576, oid: '' });
    expect(updated.json().endpoints[0]).toEqual({ id: endpoint.id, routingRuleId: rule.id, ipAddress: '10.20.30.41', port: 2576, oid: null });

    const invalid = await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: '', port: '123456', oid: 'o'.repeat(256) });
    expect(invalid.json().modelState).toEqual({
      ipAddress: ['IP address is required.'],
      port: ['Port must be at most 5 characters.'],
      oid: ['OID must be at most 255 characters.'],
    });
    const longHost = await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: `${'h'.repeat(60)}.`.repeat(5), port: 1 });
    expect(longHost.json().modelState.ipAddress).toEqual(['IP address must be at most 255 characters.']);
    for (const port of ['0', '70000', 'abc', '']) {
      const bad = await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: 'host.example.org', port });
      expect(bad.json().modelState, port).toEqual({ port: [port === '' ? 'Port is required.' : text.portInvalid] });
    }
    const notHost = await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: 'not a host/!', port: 1 });
    expect(notHost.json().modelState).toEqual({ ipAddress: [text.hostInvalid] });
    const noRule = await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: '00000000-0000-4000-8000-000000000000', ipAddress: 'h.example.org', port: 1 });
    expect(noRule.statusCode).toBe(404);
    expect(noRule.json().modelState).toEqual({ routingRuleId: [text.ruleNotFound] });
    // An endpoint stays with its rule: another rule's id does not move it.
    const other = await create({ ...hospital, address: 'other-endpoints@x.org' });
    const moved = await t.call(ADMIN, 'PUT', `${BASE}/endpoints`, { id: endpoint.id, routingRuleId: other.id, ipAddress: '1.1.1.1', port: 1 });
    expect(moved.statusCode).toBe(404);

    expect((await t.call(ADMIN, 'DELETE', `${BASE}/endpoints?id=${endpoint.id}`)).json()).toEqual({ ok: true });
    const again = await t.call(ADMIN, 'DELETE', `${BASE}/endpoints?id=${endpoint.id}`);
    expect(again.json()).toEqual({ message: text.endpointNotFound, modelState: { id: [text.endpointNotFound] } });
    expect((await t.call(ADMIN, 'GET', `${BASE}/${rule.id}`)).json().endpoints).toHaveLength(1);
  });

  it('adds, updates and deletes sending organizations: an organization chosen from the list, its OID required, once per rule', async () => {
    const rule = await create({ ...hospital, address: 'senders@x.org' });
    const sender = { routingRuleId: rule.id, organizationId: lakesideId, organizationOid: '2.16.840.1.113883.3.99', facilityType: 'Clinic', facilityTypeCodeId: '261QP2300X', facilityTypeCodeScheme: 'NUCC' };
    const added = await t.call(ADMIN, 'POST', `${BASE}/senders`, sender);
    expect(added.statusCode, added.body).toBe(200);
    const stored = added.json<RoutingRule>().senders[0]!;
    expect(stored).toMatchObject({ ...sender, organizationName: expect.stringMatching(/^Lakeside/) });

    const twice = await t.call(ADMIN, 'POST', `${BASE}/senders`, sender);
    expect(twice.json()).toEqual({ message: text.senderTaken, modelState: { organizationId: [text.senderTaken] } });
    const invalid = await t.call(ADMIN, 'POST', `${BASE}/senders`, { routingRuleId: rule.id, organizationId: 'Lakeside', organizationOid: '' });
    expect(invalid.json().modelState).toEqual({ organizationId: [text.organizationRequired], organizationOid: ['Organization OID is required.'] });
    const unknown = await t.call(ADMIN, 'POST', `${BASE}/senders`, { ...sender, organizationId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json().modelState).toEqual({ organizationId: [text.organizationUnknown] });

    const updated = await t.call(ADMIN, 'PUT', `${BASE}/senders`, { ...sender, id: stored.id, organizationId: riverviewId, facilityType: '' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().senders[0]).toMatchObject({ id: stored.id, organizationId: riverviewId, facilityType: null, organizationName: expect.stringMatching(/^Riverview/) });

    expect((await t.call(ADMIN, 'DELETE', `${BASE}/senders?id=${stored.id}`)).json()).toEqual({ ok: true });
    const gone = await t.call(ADMIN, 'DELETE', `${BASE}/senders?id=${stored.id}`);
    expect(gone.json()).toEqual({ message: text.senderNotFound, modelState: { id: [text.senderNotFound] } });
    const noId = await t.call(ADMIN, 'DELETE', `${BASE}/senders`);
    expect(noId.statusCode).toBe(400);
  });

  it('deleting a rule takes its endpoints and senders with it', async () => {
    const rule = await create({ ...hospital, address: 'cascade@x.org' });
    await t.call(ADMIN, 'POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: '127.0.0.1', port: 2575 });
    await t.call(ADMIN, 'POST', `${BASE}/senders`, { routingRuleId: rule.id, organizationId: lakesideId, organizationOid: '1.2' });
    expect((await t.call(ADMIN, 'DELETE', `${BASE}/${rule.id}`)).statusCode).toBe(200);
    expect((await t.call(ADMIN, 'GET', `${BASE}?search=cascade`)).json()).toEqual({ items: [], totalCount: 0 });
  });

  it('refuses every call to anyone but a system administrator (403), and to nobody signed in (401)', async () => {
    const rule = await create({ ...hospital, address: 'roles@x.org' });
    const calls: [string, string, object?][] = [
      ['GET', BASE],
      ['POST', BASE, hospital],
      ['POST', `${BASE}/${rule.id}`, hospital],
      ['GET', `${BASE}/${rule.id}`],
      ['PUT', `${BASE}/${rule.id}`, hospital],
      ['DELETE', `${BASE}/${rule.id}`],
      ['POST', `${BASE}/endpoints`, { routingRuleId: rule.id, ipAddress: 'h.example.org', port: 1 }],
      ['PUT', `${BASE}/endpoints`, { id: rule.id, routingRuleId: rule.id, ipAddress: 'h.example.org', port: 1 }],
      ['DELETE', `${BASE}/endpoints?id=${rule.id}`],
      ['POST', `${BASE}/senders`, { routingRuleId: rule.id, organizationId: lakesideId, organizationOid: '1' }],
      ['PUT', `${BASE}/senders`, { id: rule.id, routingRuleId: rule.id, organizationId: lakesideId, organizationOid: '1' }],
      ['DELETE', `${BASE}/senders?id=${rule.id}`],
    ];
    for (const user of [LAKESIDE_ADMIN, LAKESIDE_USER, REPORTING]) {
      for (const [method, url, body] of calls) {
        const res = await t.call(user, method, url, body);
        expect(res.statusCode, `${user} ${method} ${url}`).toBe(403);
        expect(res.json().message).toBe(messages.notAuthorized);
      }
    }
    for (const [method, url, body] of calls) expect((await t.call(null, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
    expect((await t.call(ADMIN, 'GET', `${BASE}/${rule.id}`)).statusCode).toBe(200);
  });
});
