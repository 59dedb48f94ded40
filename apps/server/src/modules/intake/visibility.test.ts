import { beforeAll, describe, expect, it } from 'vitest';
import { INTAKE_COUNT_CAP, intakeMessages, SAMPLE_INTAKE_RULE_NAME } from '@clinicrelay/contracts/intake.ts';
import { useTestApp } from '../../test/app.ts';
import { DEMO, insertInbound, sourceIdOf, userIdOf } from './test-inbound.ts';

// Every subject carries the tag, so messages other stories seed never change these lists.
const TAG = 'visibility-story';

describe('Who sees what in Intake', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const ids: Record<string, string> = {};
  let rayId: string;
  let rachelId: string;

  const list = (user: string, body: object = {}, url = '/api/messages') => t.call(user, 'POST', url, { filter: TAG, ...body });
  const subjects = async (user: string, body: object = {}) => {
    const res = await list(user, body);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as { subject: string }[]).map((i) => i.subject.slice(TAG.length + 1)).sort();
  };

  beforeAll(async () => {
    rayId = await userIdOf(db(), DEMO.riverviewUser);
    rachelId = await userIdOf(db(), DEMO.riverviewAdmin);
    const add = async (key: string, m: Omit<Parameters<typeof insertInbound>[1], 'subject'>) => {
      ids[key] = (await insertInbound(db(), { subject: `${TAG} ${key}`, ...m })).id;
    };
    // Ray (user@riverview) is given referrals@riverview in the demo world, and a rule bringing what comes to it; not the fax number.
    await add('referral', { to: DEMO.riverviewDirect });
    await add('copied', { to: `someone@else.example.org;${DEMO.riverviewDirect.toUpperCase()}`, owner: DEMO.riverviewDirect });
    await add('fax', { to: DEMO.riverviewFax, sourceType: 'Fax', from: DEMO.lakesideFax });
    await add('faxForRay', { to: DEMO.riverviewFax, sourceType: 'Fax', assignedUserId: rayId });
    await add('faxForRachel', { to: DEMO.riverviewFax, sourceType: 'Fax', assignedUserId: rachelId });
    await add('labUpload', { to: DEMO.riverviewFax, sourceType: 'Upload', from: 'lab@quest.direct.example.com' });
    await add('failed', { to: DEMO.riverviewDirect, status: 'Failed' });
  });

  it('shows a User the messages to their assigned addresses and those assigned to them; an administrator sees all', async () => {
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'faxForRay', 'referral']);
    expect(await subjects(DEMO.riverviewAdmin)).toEqual(['copied', 'failed', 'fax', 'faxForRachel', 'faxForRay', 'labUpload', 'referral']);
  });

  it('answers 404 when a User opens, reads or changes a message they cannot see; the administrator opens it', async () => {
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${ids.fax}`)).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${ids.fax}/read`)).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${ids.fax}/process`, { isProcessed: true })).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'POST', `/api/messages/${ids.fax}/copy`)).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${ids.faxForRay}`)).statusCode).toBe(200);
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/messages/${ids.fax}`)).statusCode).toBe(200);
  });

  it('gives a User the messages their intake rules route to them: fields of a rule together, any rule', async () => {
    const rule = async (body: object) => (await t.call(DEMO.riverviewAdmin, 'POST', '/api/intakerules', body)).json().id as string;
    const faxFromLakeside = await rule({ name: `${TAG} fax from Lakeside`, fromAddress: '(503) 555-0101', sourceType: 'Fax' });
    const uploads = await rule({ name: `${TAG} uploads to the fax number`, toAddresses: [DEMO.riverviewFax], sourceType: 'Upload' });
    const organizationId = (await sourceIdOf(db(), DEMO.riverviewFax)).organizationId;
    // Ray keeps the demo's rule for referrals@riverview throughout; these come on top.
    const own = (await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${rayId}/rules`)).json().map((r: { id: string }) => r.id) as string[];
    expect(own).toHaveLength(1);
    const assign = (ruleIds: string[]) =>
      t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${rayId}/intakerules`, [...own, ...ruleIds].map((intakeRuleId) => ({ organizationId, intakeRuleId })));

    expect((await assign([faxFromLakeside])).statusCode).toBe(200);
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'fax', 'faxForRay', 'referral']);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${ids.fax}`)).statusCode).toBe(200);
    await assign([faxFromLakeside, uploads]);
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'fax', 'faxForRay', 'labUpload', 'referral']);
    await assign([]);
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'faxForRay', 'referral']);
  });

  it('gives every User a global rule and a global address, present and future, and names the rules of an empty Intake (issue 13 §2, §4)', async () => {
    const created = await t.call(DEMO.riverviewAdmin, 'POST', '/api/intakerules', { name: `${TAG} every upload`, sourceType: 'Upload', isGlobal: true });
    expect(created.json()).toMatchObject({ isGlobal: true, toAddresses: [] });
    // Ray is on no rule: the global one brings the upload all the same, and his rules list says which rules bring his.
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'faxForRay', 'labUpload', 'referral']);
    const none = (await list(DEMO.riverviewUser, { filter: `${TAG} nothing matches this` })).json();
    expect(none).toMatchObject({ items: [], nothingAssigned: false });
    expect(none.ruleNames).toEqual([SAMPLE_INTAKE_RULE_NAME, `${TAG} every upload`].sort());
    expect((await t.call(DEMO.riverviewAdmin, 'PUT', `/api/intakerules/${created.json().id}`, { name: `${TAG} every upload`, sourceType: 'Upload', isGlobal: false })).statusCode).toBe(200);
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'faxForRay', 'referral']);

    // The fax number made global: every user may send from it; it brings nothing to their Intake (rules do).
    const fax = await sourceIdOf(db(), DEMO.riverviewFax);
    expect((await t.call(DEMO.riverviewAdmin, 'PUT', `/api/admin/documentsources/${fax.id}/global`, { isGlobal: true })).json()).toMatchObject({ isGlobal: true });
    expect((await t.call(DEMO.riverviewUser, 'GET', '/api/documentsources')).json()).toContainEqual(expect.objectContaining({ id: fax.id, canSend: true }));
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'faxForRay', 'referral']);
    // Another organization's Administrator cannot touch it; a User cannot either.
    expect((await t.call(DEMO.lakesideAdmin, 'PUT', `/api/admin/documentsources/${fax.id}/global`, { isGlobal: false })).statusCode).toBe(404);
    expect((await t.call(DEMO.riverviewUser, 'PUT', `/api/admin/documentsources/${fax.id}/global`, { isGlobal: false })).statusCode).toBe(403);
    await t.call(DEMO.riverviewAdmin, 'PUT', `/api/admin/documentsources/${fax.id}/global`, { isGlobal: false });
    expect((await t.call(DEMO.riverviewUser, 'GET', '/api/documentsources')).json()).toContainEqual(expect.objectContaining({ id: fax.id, canSend: false }));
  });

  it('brings a User what their rules bring, not what they may send from (issue 13 §2, §4)', async () => {
    const organizationId = (await sourceIdOf(db(), DEMO.riverviewFax)).organizationId;
    const fax = await sourceIdOf(db(), DEMO.riverviewFax);
    const direct = await sourceIdOf(db(), DEMO.riverviewDirect);
    // Ray may now send from the fax number as well: his Intake does not change.
    const both = [direct.id, fax.id].map((documentSourceId) => ({ organizationId, documentSourceId }));
    expect((await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${rayId}/documentsources`, both)).statusCode).toBe(200);
    expect(await subjects(DEMO.riverviewUser)).toEqual(['copied', 'failed', 'faxForRay', 'referral']);
    await t.call(DEMO.riverviewAdmin, 'PUT', `/api/users/${rayId}/documentsources`, [{ organizationId, documentSourceId: direct.id }]);
  });

  it('starts every organization with the sample rule: its first Direct address to its Administrators', async () => {
    const rules = (await t.call(DEMO.riverviewAdmin, 'GET', '/api/intakerules')).json();
    const sample = rules.find((r: { name: string }) => r.name === SAMPLE_INTAKE_RULE_NAME);
    expect(sample).toMatchObject({ toAddresses: [DEMO.riverviewDirect], fromAddress: null, sourceType: null, isGlobal: false });
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${rachelId}/rules`)).json()).toContainEqual(sample);
    // The demo puts Riverview's User on it too: what comes to referrals@riverview reaches Ray that way.
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${rayId}/rules`)).json()).toEqual([sample]);
  });

  it('narrows to unassigned or to the caller’s own messages; isAll does not widen what a User sees', async () => {
    expect(await subjects(DEMO.riverviewUser, { isAll: true })).toEqual(['copied', 'failed', 'faxForRay', 'referral']);
    expect(await subjects(DEMO.riverviewUser, { isAssignedToSelf: true })).toEqual(['faxForRay']);
    expect(await subjects(DEMO.riverviewUser, { isUnassigned: true })).toEqual(['copied', 'failed', 'referral']);
    expect(await subjects(DEMO.riverviewAdmin, { isAll: true, isAssignedToSelf: true })).toEqual(['faxForRachel']);
    expect(await subjects(DEMO.riverviewAdmin, { isAll: true, isUnassigned: true })).toEqual(['copied', 'failed', 'fax', 'labUpload', 'referral']);
  });

  it('counts all, unassigned, assigned to the caller, unread and failed within the date range and what the caller sees', async () => {
    // Counts ignore the text filter: they are the tabs of the whole (visible) Intake in the date range.
    const countsOf = async (user: string) => (await list(user, { filter: null })).json().counts;
    const admin = await countsOf(DEMO.riverviewAdmin);
    const ray = await countsOf(DEMO.riverviewUser);
    expect(ray.assignedToSelf).toBe(1);
    expect(admin.assignedToSelf).toBe(1);
    expect(admin.all - admin.unassigned).toBe(2);
    expect(admin.all).toBeGreaterThan(ray.all);
    expect(ray.failed).toBe(1);
    expect(admin.failed).toBe(1);
    await t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${ids.referral}/read`);
    expect((await countsOf(DEMO.riverviewUser)).unread).toBe(ray.unread - 1);
    // Outside the date range nothing counts.
    const future = (await list(DEMO.riverviewUser, { filter: null, startDate: '2099-01-01' })).json().counts;
    expect(future).toEqual({ all: 0, unassigned: 0, assignedToSelf: 0, unread: 0, failed: 0 });
  });

  it('stops counting one above the cap, so the UI shows "99+"', async () => {
    const organizationTag = `${TAG}-many`;
    for (let i = 0; i < INTAKE_COUNT_CAP + 5; i++) await insertInbound(db(), { subject: `${organizationTag} ${i}`, to: DEMO.lakesideDirect });
    const res = (await t.call(DEMO.lakesideAdmin, 'POST', '/api/messages', { filter: organizationTag })).json();
    expect(res.totalCount).toBe(INTAKE_COUNT_CAP + 5);
    expect(res.counts.all).toBe(INTAKE_COUNT_CAP + 1);
    expect(res.counts.unread).toBe(INTAKE_COUNT_CAP + 1);
  });

  it('answers POST /api/intake exactly as POST /api/messages, and accepts rules given by id', async () => {
    for (const body of [{}, { isAssignedToSelf: true }, { sourceTypes: ['Fax'] }]) {
      const a = await list(DEMO.riverviewAdmin, body, '/api/messages');
      const b = await list(DEMO.riverviewAdmin, body, '/api/intake');
      expect(b.statusCode).toBe(200);
      expect(b.json()).toEqual(a.json());
    }
    const created = (await t.call(DEMO.riverviewAdmin, 'POST', '/api/intakerules', { name: `${TAG} uploads`, sourceType: 'Upload' })).json();
    const byId = await list(DEMO.riverviewAdmin, { rules: JSON.stringify([{ id: created.id }]) }, '/api/intake');
    expect(byId.json().items.map((i: { id: string }) => i.id)).toEqual([ids.labUpload]);
    // Another organization's rule id, or one that does not exist, matches nothing rather than everything.
    const lakesideRule = (await t.call(DEMO.lakesideAdmin, 'POST', '/api/intakerules', { name: 'Lakeside uploads', sourceType: 'Upload' })).json();
    expect((await list(DEMO.riverviewAdmin, { rules: JSON.stringify([{ id: lakesideRule.id }]) }, '/api/intake')).json().totalCount).toBe(0);
  });

  it('tells a User with nothing assigned why the Intake is empty and who can fix it', async () => {
    // multi@example.org has nothing in Riverview (the session starts in Lakeside, their first organization).
    const { accessToken } = await t.login(DEMO.multi);
    const switched = await t.call(accessToken, 'POST', '/api/account/change', { orgId: (await sourceIdOf(db(), DEMO.riverviewDirect)).organizationId });
    expect(switched.statusCode, switched.body).toBe(200);
    const token = switched.json().accessToken ?? accessToken;
    const empty = (await t.call(token, 'POST', '/api/messages', {})).json();
    expect(empty).toMatchObject({ totalCount: 0, items: [], nothingAssigned: true, administrators: ['Rachel Rivers'] });
    // The empty Intake names rules an administrator could add them to (every organization starts with the sample one).
    const organizationRules = (await t.call(DEMO.riverviewAdmin, 'GET', '/api/intakerules')).json().map((r: { name: string }) => r.name);
    expect(organizationRules).toContain(SAMPLE_INTAKE_RULE_NAME);
    expect(empty.ruleNames).toEqual(organizationRules.slice(0, 3));
    expect(intakeMessages.nothingAssigned(empty.administrators.join(', '))).toContain('Rachel Rivers');

    expect((await list(DEMO.riverviewUser)).json()).toMatchObject({ nothingAssigned: false, administrators: [] });
    expect((await list(DEMO.riverviewAdmin)).json()).toMatchObject({ nothingAssigned: false, administrators: [] });
  });
});
