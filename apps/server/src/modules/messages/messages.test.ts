import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { addressCache, attachments, messages, patients } from '../../db/schema/messages.ts';
import { users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const SYSADMIN = 'sysadmin@example.org';

const referral = {
  subject: 'Referral: cardiology consult',
  fromAddress: 'intake@lakeside.direct.example.org',
  toAddress: 'referrals@riverview.direct.example.org; ',
  body: 'Please see this patient for palpitations.',
  isUrgent: true,
  patient: {
    firstName: 'Maria',
    lastName: 'Alvarez',
    birthDate: '1958-04-12',
    gender: 'F',
    patientIds: [{ root: '2.16.840.1.113883.3.1', id: 'MRN-1001' }, { root: '', id: 'lost' }, { root: '1.2.3' }],
  },
};

describe('Release drafts', () => {
  const t = useTestApp();
  const newDraft = async (user = LAKESIDE_USER, body: object = referral) => {
    const res = await t.call(user, 'PUT', '/api/messages', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('Lakeside saves a new draft with its patient, dropping incomplete patient ids', async () => {
    const draft = await newDraft();
    expect(draft).toMatchObject({
      subject: 'Referral: cardiology consult',
      fromAddress: 'intake@lakeside.direct.example.org',
      toAddress: 'referrals@riverview.direct.example.org',
      isDraft: true,
      isUrgent: true,
      status: 'Draft',
      patientName: 'Alvarez, Maria',
      attachments: [],
      deliveries: [],
    });
    expect(draft.patient).toMatchObject({ firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
    expect(draft.patient.patientIds).toEqual([{ root: '2.16.840.1.113883.3.1', id: 'MRN-1001' }]);
  });

  it('updates a draft and its patient, and reads it back', async () => {
    const draft = await newDraft();
    const saved = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draft.id}`, { subject: 'Updated subject', classification: { code: 'REFERRAL' } });
    expect(saved.json()).toMatchObject({ subject: 'Updated subject', classification: { code: 'REFERRAL' }, patientName: 'Alvarez, Maria' });
    const patient = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draft.id}/patient`, { firstName: 'María José', lastName: 'Alvarez-Ruiz', gender: 'F' });
    expect(patient.json().patientName).toBe('Alvarez-Ruiz, María José');
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draft.id}`)).json().patient.firstName).toBe('María José');
  });

  it('refuses an invalid or too long patient field with the spec wording', async () => {
    const res = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { patient: { firstName: 'x'.repeat(36), birthDate: '2001-02-30' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().modelState).toMatchObject({
      'patient.firstName': ['Patient fields may be at most 35 characters.'],
      'patient.birthDate': ['"Patient Birth Date" is invalid.'],
    });
  });

  it('lists sent messages and drafts with paging, search and the draft filter', async () => {
    for (let i = 0; i < 3; i++) await newDraft(LAKESIDE_USER, { ...referral, subject: `Lab results ${i}` });
    const all = (await t.call(LAKESIDE_USER, 'GET', '/api/messages?pageSize=2')).json();
    expect(all.items).toHaveLength(2);
    expect(all.totalCount).toBeGreaterThanOrEqual(5);
    expect(all.items[0]).toMatchObject({ isDraft: true, toAddresses: ['referrals@riverview.direct.example.org'], attachmentCount: 0 });
    const found = (await t.call(LAKESIDE_USER, 'GET', '/api/messages?search=lab%20results&isDraft=true')).json();
    expect(found.totalCount).toBe(3);
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/messages?isDraft=false')).json().totalCount).toBe(0);
    expect((await t.call(RIVERVIEW_USER, 'GET', '/api/messages')).json().totalCount).toBe(0);
  });

  it("filters by the user who created the message: a User to themselves or a colleague, an Administrator alike, another organization's user lists nothing", async () => {
    const idOf = async (userName: string) => (await t.handle.db.select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0]!.id;
    const [user, admin, stranger] = await Promise.all([idOf(LAKESIDE_USER), idOf(LAKESIDE_ADMIN), idOf(RIVERVIEW_USER)]);
    const mine = await newDraft(LAKESIDE_USER, { ...referral, subject: 'Written by the user' });
    const theirs = await newDraft(LAKESIDE_ADMIN, { ...referral, subject: 'Written by the administrator' });
    await newDraft(RIVERVIEW_USER, { ...referral, fromAddress: 'referrals@riverview.direct.example.org', toAddress: 'intake@lakeside.direct.example.org' });
    const list = async (caller: string, userId: string) => {
      const res = await t.call(caller, 'GET', `/api/messages?pageSize=100&userId=${userId}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: { id: string }[]; totalCount: number }>();
    };

    const own = await list(LAKESIDE_USER, user);
    expect(own.items.map((m) => m.id)).toContain(mine.id);
    expect(own.items.map((m) => m.id)).not.toContain(theirs.id);
    expect((await list(LAKESIDE_USER, admin)).items.map((m) => m.id)).toEqual([theirs.id]);
    expect((await list(LAKESIDE_ADMIN, user)).totalCount).toBe(own.totalCount);
    // Riverview's user has messages, but in Riverview: the filter never reaches outside the caller's organization.
    expect(await list(LAKESIDE_USER, stranger)).toEqual({ items: [], totalCount: 0 });
    expect(await list(LAKESIDE_ADMIN, stranger)).toEqual({ items: [], totalCount: 0 });
    expect((await list(RIVERVIEW_USER, user)).totalCount).toBe(0);
    // Empty is no filter (the web app drops empty values); anything else that is not an id is refused.
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/messages?userId=')).json().totalCount).toBeGreaterThan(own.totalCount);
    const bad = await t.call(LAKESIDE_USER, 'GET', '/api/messages?userId=someone');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().modelState).toEqual({ userId: [releaseMessages.userIdInvalid] });
    // Without a session, or as a system administrator outside any organization, the list is refused.
    expect((await t.app.inject({ method: 'GET', url: `/api/messages?userId=${user}` })).statusCode).toBe(401);
    expect((await t.call(SYSADMIN, 'GET', `/api/messages?userId=${user}`)).statusCode).toBe(403);
  });

  it('filters by date range on the last change', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages?startDate=${today}&endDate=${today}`)).json().totalCount).toBeGreaterThan(0);
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/messages?startDate=2001-01-01&endDate=2001-01-31')).json().totalCount).toBe(0);
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/messages?startDate=2001-02-30')).statusCode).toBe(400);
  });

  it('copies a draft into a new draft with the same patient', async () => {
    const draft = await newDraft();
    const copy = (await t.call(LAKESIDE_USER, 'POST', `/api/messages/${draft.id}/copy`)).json();
    expect(copy.id).not.toBe(draft.id);
    expect(copy).toMatchObject({ subject: draft.subject, isDraft: true, originalObjectId: draft.id, patientName: 'Alvarez, Maria' });
  });

  it('carries the attachments a forward names from the original, and no one else\'s', async () => {
    const original = await newDraft();
    const riverviewDraft = await newDraft(RIVERVIEW_USER, { subject: 'Riverview only' });
    const [blob] = await t.handle.db.insert(blobs).values({ sizeInBytes: 4, sha256: 'x', iv: 'x', authTag: 'x' }).returning();
    const attach = async (messageId: string, fileName: string, organizationId: string) =>
      (await t.handle.db.insert(attachments).values({ messageId, organizationId, fileName, mimeType: 'application/pdf', sizeInBytes: 4, originalBlobId: blob!.id, currentBlobId: blob!.id }).returning())[0]!;
    const [lakesideMessage] = await t.handle.db.select().from(messages).where(eq(messages.id, original.id));
    const [riverviewMessage] = await t.handle.db.select().from(messages).where(eq(messages.id, riverviewDraft.id));
    const kept = await attach(original.id, 'referral.pdf', lakesideMessage!.organizationId);
    await attach(original.id, 'not-forwarded.pdf', lakesideMessage!.organizationId);
    const foreign = await attach(riverviewDraft.id, 'riverview.pdf', riverviewMessage!.organizationId);
    const forward = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', {
      subject: `FW: ${original.subject}`,
      originalObjectId: original.id,
      attachments: [{ id: kept.id }, { id: foreign.id }],
    });
    expect(forward.json().attachments.map((a: { fileName: string }) => a.fileName)).toEqual(['referral.pdf']);
  });

  it('deletes a draft for good', async () => {
    const draft = await newDraft();
    const res = await t.call(LAKESIDE_USER, 'DELETE', `/api/messages/${draft.id}`);
    expect(res.json()).toEqual({ message: releaseMessages.draftDeleted });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draft.id}`)).statusCode).toBe(404);
    expect(await t.handle.db.select().from(patients).where(eq(patients.messageId, draft.id))).toHaveLength(0);
  });

  it('does not let a sent message be edited as a draft', async () => {
    const draft = await newDraft();
    await t.handle.db.update(messages).set({ isDraft: false, status: 'Pending' }).where(eq(messages.id, draft.id));
    const res = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draft.id}`, { subject: 'Changed after sending' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: releaseMessages.notADraft });
    expect((await t.call(LAKESIDE_USER, 'DELETE', `/api/messages/${draft.id}`)).json()).toEqual({ message: releaseMessages.messageDeleted });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draft.id}`)).statusCode).toBe(404);
  });

  it("keeps Lakeside's draft invisible to Riverview: 404 for read, change, delete and copy, and nothing changes", async () => {
    const draft = await newDraft();
    const before = await t.handle.db.select().from(messages).where(eq(messages.id, draft.id));
    const attempts = [
      ['GET', `/api/messages/${draft.id}`, undefined],
      ['PUT', `/api/messages/${draft.id}`, { subject: 'Stolen' }],
      ['PUT', `/api/messages/${draft.id}/patient`, { firstName: 'Stolen' }],
      ['DELETE', `/api/messages/${draft.id}`, undefined],
      ['POST', `/api/messages/${draft.id}/copy`, undefined],
    ] as const;
    for (const [method, url, body] of attempts) {
      const res = await t.call(RIVERVIEW_USER, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: 'The resource you are looking for was not found.' });
    }
    expect(await t.handle.db.select().from(messages).where(eq(messages.id, draft.id))).toEqual(before);
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${draft.id}`)).json().patient.firstName).toBe('Maria');
  });

  it('saves a non-PHI fax draft with the brand’s non-patient origin and never a patient', async () => {
    const draft = await newDraft(LAKESIDE_USER, { ...referral, toAddress: '5035550202', isNonPatient: true });
    expect(draft).toMatchObject({ origin: 'ClinicRelay_non-patient', patient: null, patientName: null, isDraft: true });
    const saved = await t.call(LAKESIDE_USER, 'PUT', `/api/messages/${draft.id}`, { subject: 'Office hours', patient: referral.patient });
    expect(saved.json()).toMatchObject({ subject: 'Office hours', origin: 'ClinicRelay_non-patient', patient: null, patientName: null });
    expect(await t.handle.db.select().from(patients).where(eq(patients.messageId, draft.id))).toEqual([]);
    // An ordinary draft has no origin.
    expect((await newDraft()).origin).toBeNull();
  });

  it('refuses a release type of another organization or none at all', async () => {
    const res = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { releaseTypeId: '00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode).toBe(404);
  });
});

describe('Release lookups', () => {
  const t = useTestApp();

  it("lists the organization's addresses, saying which the caller may send from (issue 13 §2)", async () => {
    const res = await t.call(LAKESIDE_USER, 'GET', '/api/documentsources');
    // The demo gives Lakeside's User its Direct address only; an Administrator may send from every one.
    expect(res.json()).toEqual([
      { id: expect.any(String), address: { fullAddress: 'intake@lakeside.direct.example.org', type: 'Direct' }, status: 1, canSend: true },
      { id: expect.any(String), address: { fullAddress: '5035550101', type: 'Fax' }, status: 1, canSend: false },
    ]);
    expect((await t.call('admin@lakeside.example.org', 'GET', '/api/documentsources')).json().map((s: { canSend: boolean }) => s.canSend)).toEqual([true, true]);
    const riverview = (await t.call(RIVERVIEW_USER, 'GET', '/api/documentsources')).json();
    expect(riverview.map((s: { address: { fullAddress: string } }) => s.address.fullAddress)).toEqual(['referrals@riverview.direct.example.org', '5035550202']);
  });

  it('lists system release types, document types and classifications', async () => {
    const releaseTypes = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json();
    expect(releaseTypes.map((r: { name: string }) => r.name)).toContain('Referral');
    expect(releaseTypes[0]).toMatchObject({ organizationId: null, trackFaxResponses: false });
    const documentTypes = (await t.call(LAKESIDE_USER, 'GET', '/api/documenttypes')).json();
    expect(documentTypes.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['Referral Letter', 'Laboratory Report']));
    const classes = (await t.call(LAKESIDE_USER, 'GET', '/api/messages/classifications')).json();
    expect(classes[0]).toEqual({ code: 'REFERRAL', name: 'Referral' });
  });

  it("keeps each user's cache of Direct addresses, and saves what the modal kept", async () => {
    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, LAKESIDE_USER));
    await t.handle.db.insert(addressCache).values([
      { userId: user!.id, address: 'referrals@riverview.direct.example.org' },
      { userId: user!.id, address: 'records@elsewhere.direct.example.com' },
    ]);
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/addresscache')).json()).toHaveLength(2);
    expect((await t.call(RIVERVIEW_USER, 'GET', '/api/addresscache')).json()).toEqual([]);
    const kept = await t.call(LAKESIDE_USER, 'PUT', '/api/addresscache', { addresses: ['referrals@riverview.direct.example.org'] });
    expect(kept.json().map((a: { address: string }) => a.address)).toEqual(['referrals@riverview.direct.example.org']);
    const cleared = await t.call(LAKESIDE_USER, 'PUT', '/api/addresscache', { addresses: [] });
    expect(cleared.json()).toEqual([]);
  });
});
