import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { IdentityProofingResult } from '@clinicrelay/contracts/identity-proofing.ts';
import { sendingTexts } from '@clinicrelay/contracts/organizations.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, userSystemRoles, users } from '../../db/schema/users.ts';
import { simplePdf } from '../../platform/files/sample-files.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { newOrganizationForm } from '../../test/organization-form.ts';

const HILLCREST = 'admin@hillcrest.example.org';
const SYSADMIN = 'sysadmin@example.org';
const RECORDS = 'records@hillcrest.direct.example.org';
const LAKESIDE_INTAKE = 'intake@lakeside.direct.example.org';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const identity = (lastName = 'Hill') => ({
  firstName: 'Hannah',
  lastName,
  dateOfBirth: '1980-04-12',
  ssn: '',
  phoneNumber: '(541) 555-0300',
  currentAddress: { addressLine: '300 Hillcrest Avenue', addressUnit: '', city: 'Eugene', state: 'OR', zip: '97401' },
  formerAddress: null,
});
// The sandbox's true answers for the identity above (identity-proofing/provider.ts).
const TRUTH: Record<string, string> = { q1: 'Hillcrest Avenue', q2: '1980', q3: 'Eugene', q4: '97401', q5: 'OR' };

// Issue 26 §3b: a clinic that completes onboarding is announced to the operators, waits in their queue, and once
// activated sends at once from the address activation gave it.
describe('onboarding to a first send (issue 26 §3b)', () => {
  const t = useTestApp();
  const config = testConfig();
  const db = () => t.handle.db;
  const runWorkers = () => runOnce({ db: db(), handlers: workflowHandlers({ config, db: db(), now: () => t.clock.now }), logger: quiet });
  const hillcrestId = async () => (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'hillcrest')))[0]!.id;
  const operatorEmails = async () =>
    (await db().select({ email: users.email }).from(users).innerJoin(userSystemRoles, and(eq(userSystemRoles.userId, users.id), eq(userSystemRoles.role, 'SysAdmin'))).where(eq(users.isDisabled, false)))
      .map((u) => u.email)
      .sort();
  const mailsOf = (kind: string) => db().select().from(mailOutbox).where(eq(mailOutbox.kind, kind));
  const queues = async () => (await t.call(SYSADMIN, 'GET', '/api/admin/organizations/queues')).json();
  const queue = async (status: string) => (await t.call(SYSADMIN, 'GET', `/api/organizations?status=${status}&pageNumber=1&pageSize=10`)).json().items.map((o: { subdomain: string }) => o.subdomain);

  it('Hillcrest accepts the terms and passes identity proofing: every system administrator is mailed and the queue counts it', async () => {
    expect(await queues()).toEqual({ awaitingActivation: 0, awaitingReview: 0 });
    const terms = (await t.call(HILLCREST, 'GET', '/api/eulas/current')).json();
    expect((await t.call(HILLCREST, 'POST', `/api/eulas/${terms.id}/accept`, { accepted: true })).statusCode).toBe(200);
    const quiz = (await t.call(HILLCREST, 'POST', '/api/identityproofing/identity', identity())).json<IdentityProofingResult>();
    const answers = quiz.questions.map((q) => ({ questionId: q.id, choiceId: q.choices.find((c) => c.text === TRUTH[q.id])!.id }));
    expect((await t.call(HILLCREST, 'POST', '/api/identityproofing/answers', { quizId: quiz.quizId, answers })).json().decision).toBe('Y');

    const notices = await mailsOf('OrganizationAwaitingActivation');
    expect(notices.map((m) => m.toAddress).sort()).toEqual(await operatorEmails());
    expect(notices.length).toBeGreaterThan(0);
    expect(notices[0]).toMatchObject({ subject: 'Hillcrest Pediatrics is waiting for activation' });
    expect(notices[0]!.textBody).toContain('/admin/organizations?status=awaitingActivation');
    expect(await queues()).toEqual({ awaitingActivation: 1, awaitingReview: 0 });
    expect(await queue('awaitingActivation')).toEqual(['hillcrest']);
    expect(await queue('awaitingReview')).toEqual([]);
  });

  it('the operator activates it: the records address is in service, the mail says what is pending, and Hillcrest sends at once', async () => {
    const id = await hillcrestId();
    const res = await t.call(SYSADMIN, 'PUT', `/api/organizations/${id}/activate`, { id, activated: true, sendEmail: true, seedRecords: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(await queues()).toEqual({ awaitingActivation: 0, awaitingReview: 0 });
    expect(await db().select({ status: documentSources.status, isGlobal: documentSources.isGlobal }).from(documentSources).where(eq(documentSources.fullAddress, RECORDS))).toEqual([{ status: 1, isGlobal: true }]);
    const [mail] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'OrganizationActivated'), eq(mailOutbox.toAddress, HILLCREST)));
    expect(mail!.textBody).toContain('Hillcrest Pediatrics has been activated on ClinicRelay: you and your users can now send and receive documents in Release and Intake.');
    expect(mail!.textBody).toContain(`Your Direct address: ${RECORDS}.`);
    // No certificate signs for the new address yet: the mail names what is still pending and who does it.
    expect(mail!.textBody).toContain(`Still pending: ${sendingTexts.needsCertificate([RECORDS], 'ClinicRelay')}`);
    // The Administrator's dashboard reads the same.
    expect((await t.call(HILLCREST, 'GET', '/api/organization/sendingstatus')).json()).toEqual({
      addresses: [{ fullAddress: RECORDS, hasCertificate: false }],
      pending: [sendingTexts.needsCertificate([RECORDS], 'ClinicRelay')],
    });

    // Release offers the address as From, and a send to another organization of the installation is delivered.
    const from = (await t.call(HILLCREST, 'GET', '/api/documentsources')).json();
    expect(from).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.objectContaining({ fullAddress: RECORDS }) })]));
    const releaseTypeId = (await t.call(HILLCREST, 'GET', '/api/releasetypes')).json()[0].id;
    const draft = await t.call(HILLCREST, 'PUT', '/api/messages', {
      subject: 'First referral from Hillcrest',
      fromAddress: RECORDS,
      toAddress: LAKESIDE_INTAKE,
      body: 'Our first message.',
      releaseTypeId,
      patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const sent = await t.call(HILLCREST, 'POST', `/api/messages/${draft.json().id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    await runWorkers();
    const copies = await db().select({ subject: messages.subject }).from(messages).where(and(eq(messages.originalObjectId, draft.json().id), eq(messages.direction, 'Inbound')));
    expect(copies).toEqual([{ subject: 'First referral from Hillcrest' }]);
  });

  it('an activation from the edit form puts a records address left Provisioning in service', async () => {
    const id = await hillcrestId();
    await db().update(organizations).set({ isActivated: false }).where(eq(organizations.id, id));
    await db().update(documentSources).set({ status: 0 }).where(eq(documentSources.fullAddress, RECORDS));
    const { id: _id, orgId: _o, networkDbId: _n, networkName: _nn, plan: _p, reseller: _r, resellerName: _rn, numberOfUsers: _u, createdBy: _c, createDate: _cd, modifiedBy: _m, modifiedDate: _md, cancelledAt: _ca, isEnabled: _e, loginType: _l, apiCapture: _a, isPendingCancellation: _pc, ...input } = (
      await t.call(SYSADMIN, 'GET', `/api/organizations/${id}`)
    ).json();
    const saved = await t.call(SYSADMIN, 'PUT', `/api/organizations/${id}`, { ...input, isActivated: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await db().select({ status: documentSources.status }).from(documentSources).where(eq(documentSources.fullAddress, RECORDS))).toEqual([{ status: 1 }]);
  });

  it('activated without the records address and with no other, the mail says no Direct address is in service yet', async () => {
    const created = await t.call(SYSADMIN, 'POST', '/api/organizations', newOrganizationForm());
    expect(created.statusCode, created.body).toBe(200);
    const summit = created.json().id as string;
    const [hannah] = await db().select({ id: users.id }).from(users).where(eq(users.userName, HILLCREST));
    await db().insert(memberships).values({ userId: hannah!.id, organizationId: summit, role: 'Administrator' });
    expect((await t.call(SYSADMIN, 'PUT', `/api/organizations/${summit}/activate`, { id: summit, activated: true, sendEmail: true, seedRecords: false })).statusCode).toBe(200);
    const [mail] = await db().select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'OrganizationActivated'), eq(mailOutbox.organizationId, summit)));
    expect(mail!.textBody).toContain(`Still pending: ${sendingTexts.noAddress}`);
    expect(mail!.textBody).not.toContain('can now send');
    await db().delete(memberships).where(eq(memberships.organizationId, summit));
  });

  it('a failed check with an uploaded identification mails the operators and joins the review queue', async () => {
    const id = await hillcrestId();
    await db().update(organizations).set({ isIdProofed: false, isActivated: false }).where(eq(organizations.id, id));
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    expect((await t.call(HILLCREST, 'POST', '/api/identityproofing/identity', identity('Fail'))).json().decision).toBe('N');
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(simplePdf())]), 'license.pdf');
    const request = new Response(form);
    const { accessToken } = await t.login(HILLCREST);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/identityproofing/document',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const notices = await mailsOf('OrganizationAwaitingReview');
    expect(notices.map((m) => m.toAddress).sort()).toEqual(await operatorEmails());
    expect(notices[0]!.subject).toBe('Hillcrest Pediatrics: an identification is waiting for review');
    expect(await queues()).toMatchObject({ awaitingReview: 1 });
    expect(await queue('awaitingReview')).toEqual(['hillcrest']);
  });

  it('the queue counts are for system administrators only; the sending status for an organization’s Administrators', async () => {
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      expect((await t.call(user, 'GET', '/api/admin/organizations/queues')).statusCode, user).toBe(403);
    }
    expect((await t.call('user@lakeside.example.org', 'GET', '/api/organization/sendingstatus')).statusCode).toBe(403);
    expect((await t.call(null, 'GET', '/api/organization/sendingstatus')).statusCode).toBe(401);
    // Each Administrator reads their own organization's addresses only.
    const lakeside = (await t.call('admin@lakeside.example.org', 'GET', '/api/organization/sendingstatus')).json<{ addresses: { fullAddress: string }[] }>();
    expect(lakeside.addresses.map((a) => a.fullAddress)).toContain(LAKESIDE_INTAKE);
    expect(lakeside.addresses.every((a) => a.fullAddress.endsWith('@lakeside.direct.example.org'))).toBe(true);
    expect((await t.call(null, 'GET', '/api/admin/organizations/queues')).statusCode).toBe(401);
    expect((await t.call(SYSADMIN, 'GET', '/api/organizations?status=nonsense&pageNumber=1&pageSize=10')).statusCode).toBe(400);
  });
});
