import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { identityMessages as text, MAX_ID_DOCUMENT_BYTES, type IdentityProofingResult } from '@clinicrelay/contracts/identity-proofing.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { eulaAcceptances, eulas, identityProofingAttempts } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { blobRoot, createBlobStore } from '../../platform/blobs/blob-store.ts';
import { sharedWorkerPool } from '../../platform/workers/worker-pool.ts';
import { sandboxIdentityProofing } from './provider.ts';
import { submitDocument, type IdentityProofingDeps } from './service.ts';
import { simplePdf } from '../../platform/files/sample-files.ts';
import { useTestApp } from '../../test/app.ts';

const HILLCREST = 'admin@hillcrest.example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const SYSADMIN = 'sysadmin@example.org';

const identity = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Hannah',
  lastName: 'Hill',
  dateOfBirth: '1980-04-12',
  ssn: '123-45-6789',
  phoneNumber: '(541) 555-0300',
  currentAddress: { addressLine: '300 Hillcrest Avenue', addressUnit: '', city: 'Eugene', state: 'OR', zip: '97401' },
  formerAddress: null,
  ...overrides,
});

// The sandbox's true answers for the identity above (provider.ts).
const TRUTH: Record<string, string> = { q1: 'Hillcrest Avenue', q2: '1980', q3: 'Eugene', q4: '97401', q5: 'OR' };
const answersFor = (quiz: IdentityProofingResult, right = true) => ({
  quizId: quiz.quizId,
  answers: quiz.questions.map((q) => ({
    questionId: q.id,
    choiceId: (right ? q.choices.find((c) => c.text === TRUTH[q.id]) : q.choices.find((c) => c.text === 'None of the above'))!.id,
  })),
});

describe('identity proofing (end-user §3 Identity, §4 Onboarding, §5 Identity form)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-idproof-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const db = () => t.handle.db;
  const hillcrest = async () => (await db().select().from(organizations).where(eq(organizations.subdomain, 'hillcrest')))[0]!;
  const hannah = async () => (await db().select().from(users).where(eq(users.userName, HILLCREST)))[0]!;
  // Each story starts a minute later, so "the latest attempt" is the story's own.
  const startOver = async () => {
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    await db().update(organizations).set({ isIdProofed: false, idProofedAttemptDate: null, isAcceptedEula: true }).where(eq(organizations.subdomain, 'hillcrest'));
    await db().update(users).set({ idProofed: false, idProofStatus: null }).where(eq(users.userName, HILLCREST));
    // Terms accepted means the organization's flag and Hannah's own acceptance (the API gates on both).
    const userId = (await hannah()).id;
    for (const { id } of await db().select({ id: eulas.id }).from(eulas).where(eq(eulas.isActive, true))) {
      await db().insert(eulaAcceptances).values({ eulaId: id, userId, ip: '127.0.0.1' }).onConflictDoNothing();
    }
  };
  const submit = async (body: unknown, who = HILLCREST) => t.call(who, 'POST', '/api/identityproofing/identity', body);
  const answer = async (body: unknown, who = HILLCREST) => t.call(who, 'POST', '/api/identityproofing/answers', body);
  const audits = async (eventType: string) => db().select().from(auditEvents).where(eq(auditEvents.eventType, eventType));
  const upload = async (fileName: string, bytes: Uint8Array, who = HILLCREST) => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(bytes)]), fileName);
    const request = new Response(form);
    const { accessToken } = await t.login(who);
    return t.app.inject({
      method: 'POST',
      url: '/api/identityproofing/document',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  };

  it('the identity form: every rule and message of §5', async () => {
    const everyFieldRequired = {
      firstName: [text.firstNameRequired],
      lastName: [text.lastNameRequired],
      dateOfBirth: [text.dateOfBirthRequired],
      'currentAddress.addressLine': [text.addressRequired],
      'currentAddress.city': [text.cityRequired],
      'currentAddress.state': [text.stateRequired],
      'currentAddress.zip': [text.zipRequired],
    };
    const empty = await submit({ currentAddress: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().modelState).toMatchObject(everyFieldRequired);
    const blanks = await submit(identity({ firstName: ' ', lastName: '', dateOfBirth: '', currentAddress: { addressLine: '', city: '', state: '', zip: '' } }));
    expect(blanks.json().modelState).toMatchObject(everyFieldRequired);
    const noAddress = await submit({ ...identity(), currentAddress: undefined });
    expect(noAddress.json().modelState).toMatchObject({ currentAddress: [text.addressRequired] });

    const long = 'x'.repeat(256);
    const tooLong = await submit(identity({ firstName: long, lastName: long, currentAddress: { addressLine: long, city: 'Eugene', state: 'OR', zip: '97401-12345' } }));
    expect(tooLong.json().modelState).toMatchObject({
      firstName: ['First Name must be at most 255 characters.'],
      lastName: ['Last Name must be at most 255 characters.'],
      'currentAddress.addressLine': ['Address must be at most 255 characters.'],
      'currentAddress.zip': ['Zip must be at most 10 characters.'],
    });
    for (const ssn of ['123-456-789', '12345678', 'abc-de-fghi', '123 45 6789']) {
      expect((await submit(identity({ ssn }))).json().modelState, ssn).toEqual({ ssn: [text.ssnFormat] });
    }
    for (const phoneNumber of ['541-555-0300', '(541)555-0300', '55503']) {
      expect((await submit(identity({ phoneNumber }))).json().modelState, phoneNumber).toEqual({ phoneNumber: [text.phoneFormat] });
    }
    for (const dateOfBirth of ['1980-02-30', '04/12/1980', '2999-01-01']) {
      expect((await submit(identity({ dateOfBirth }))).json().modelState, dateOfBirth).toEqual({ dateOfBirth: [text.dateOfBirthInvalid] });
    }
    expect((await submit(identity({ currentAddress: { addressLine: '1 A St', city: 'Eugene', state: 'ZZ', zip: '97401' } }))).json().modelState).toEqual({ 'currentAddress.state': [text.stateInvalid] });
    // The former address is optional, and checked like the current one when given.
    expect((await submit(identity({ formerAddress: { addressLine: '', city: 'Bend', state: 'OR', zip: '97701' } }))).json().modelState).toEqual({ 'formerAddress.addressLine': [text.addressRequired] });
    // Nothing was attempted by the refused forms.
    expect(await db().$count(identityProofingAttempts)).toBe(0);
  });

  it('sandbox pass: SSN optional (nine digits accepted), a quiz from the identity, all right → Y; the organization joins the activation queue', async () => {
    await startOver();
    const status = await t.call(HILLCREST, 'GET', '/api/identityproofing');
    expect(status.json()).toEqual({ provider: 'sandbox', decision: null, documentSubmitted: false });
    const res = await submit(identity({ ssn: '', phoneNumber: '5415550300' }));
    expect(res.statusCode, res.body).toBe(200);
    const quiz = res.json<IdentityProofingResult>();
    expect(quiz).toMatchObject({ provider: 'sandbox', decision: null, quizId: expect.any(String) });
    expect(quiz.questions.map((q) => q.text)).toEqual(['Which of these streets have you lived on?', 'In which year were you born?', 'In which city is Hillcrest Avenue located?']);
    for (const q of quiz.questions) {
      expect(q.choices).toHaveLength(5);
      expect(q.choices.map((c) => c.text)).toContain(TRUTH[q.id]);
      expect(q.choices.at(-1)!.text).toBe('None of the above');
    }
    // Nothing of the SSN or date of birth is kept.
    const [attempt] = await db().select().from(identityProofingAttempts);
    // (Random ids are left out first: a uuid or choice id may contain "6789" by chance.)
    const stored = JSON.stringify(attempt).replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|"c[0-9a-f]{12}"/g, '""');
    expect(stored).not.toMatch(/1980|6789|04-12/);

    // Every question needs an answer.
    const partial = await answer({ quizId: quiz.quizId, answers: answersFor(quiz).answers.slice(0, 2) });
    expect(partial.json()).toEqual({ message: text.answersRequired, modelState: { answers: [text.answersRequired] } });
    expect((await answer({ quizId: quiz.quizId, answers: [] })).json().modelState).toEqual({ answers: [text.answersRequired] });

    const decided = await answer(answersFor(quiz));
    expect(decided.json()).toEqual({ provider: 'sandbox', quizId: null, questions: [], decision: 'Y' });
    expect(await hillcrest()).toMatchObject({ isIdProofed: true, idProofedAttemptDate: expect.any(Date), isActivated: false });
    expect(await hannah()).toMatchObject({ idProofed: true, idProofStatus: 'Passed' });
    expect((await t.call(HILLCREST, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsIdProofed: true, idProofedAttemptDate: expect.any(String) });
    // The quiz is closed: answering it again is refused.
    expect((await answer(answersFor(quiz))).json()).toEqual({ message: text.quizExpired });
    // Already proofed: no new attempt.
    expect((await submit(identity())).json()).toEqual({ message: text.alreadyProofed });

    // The back office's activation queue: ID-proofed, terms accepted, not activated.
    const queue = await t.call(SYSADMIN, 'GET', '/api/organizations?awaitingActivation=true&pageNumber=1&pageSize=10');
    expect(queue.json().items.map((o: { subdomain: string }) => o.subdomain)).toEqual(['hillcrest']);
    // Activation (back office) mails the organization's administrators and empties the queue.
    const org = await hillcrest();
    const activated = await t.call(SYSADMIN, 'PUT', `/api/organizations/${org.id}/activate`, { id: org.id, activated: true, sendEmail: true, seedRecords: false });
    expect(activated.statusCode, activated.body).toBe(200);
    expect((await t.call(SYSADMIN, 'GET', '/api/organizations?awaitingActivation=true&pageNumber=1&pageSize=10')).json().items).toEqual([]);
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, HILLCREST));
    expect(mails.map((m) => m.kind)).toContain('OrganizationActivated');
    await db().update(organizations).set({ isActivated: false }).where(eq(organizations.id, org.id));

    const started = (await audits('IdentityProofingStarted')).at(-1)!;
    expect(started).toMatchObject({ userName: HILLCREST, organizationId: org.id, details: { provider: 'sandbox' } });
    expect((await audits('IdentityProofingDecided')).at(-1)).toMatchObject({ details: { decision: 'Y' } });
    const all = JSON.stringify(await db().select().from(auditEvents).where(eq(auditEvents.userName, HILLCREST)));
    expect(all).not.toMatch(/1980|Hillcrest Avenue|5415550300/);
  });

  it('sandbox fail: SSN 000-00-0001 or last name "Fail" → N at once, no quiz; the attempt date stays for rule 5', async () => {
    for (const variant of [{ ssn: '000-00-0001' }, { ssn: '', lastName: 'fail' }]) {
      await startOver();
      const res = await submit(identity(variant));
      expect(res.json()).toEqual({ provider: 'sandbox', quizId: null, questions: [], decision: 'N' });
      expect(await hillcrest()).toMatchObject({ isIdProofed: false, idProofedAttemptDate: expect.any(Date) });
      expect(await hannah()).toMatchObject({ idProofed: false, idProofStatus: 'Failed' });
      expect((await t.call(HILLCREST, 'GET', '/api/identityproofing')).json()).toMatchObject({ decision: 'N' });
    }
  });

  it('sandbox review: SSN 000-00-0002 or last name "Review" → the quiz, then R', async () => {
    for (const variant of [{ ssn: '000000002' }, { lastName: 'Review' }]) {
      await startOver();
      const quiz = (await submit(identity(variant))).json<IdentityProofingResult>();
      expect(quiz.questions).toHaveLength(3);
      expect((await answer(answersFor(quiz))).json()).toMatchObject({ decision: 'R', quizId: null });
      expect(await hannah()).toMatchObject({ idProofStatus: 'Review', idProofed: false });
      expect((await t.call(HILLCREST, 'GET', '/api/identityproofing')).json()).toMatchObject({ decision: 'R' });
    }
  });

  it('the quiz repeats while the answer carries a quizId: "Twice" always gets a second round; a wrong answer gets one more chance, wrong again → N', async () => {
    await startOver();
    const first = (await submit(identity({ ssn: '000-00-0003', formerAddress: { addressLine: '12 Juniper Street', addressUnit: 'Apt 2', city: 'Bend', state: 'or', zip: '97701' } }))).json<IdentityProofingResult>();
    const second = (await answer(answersFor(first))).json<IdentityProofingResult>();
    expect(second).toMatchObject({ decision: null, quizId: expect.any(String) });
    expect(second.quizId).not.toBe(first.quizId);
    expect(second.questions.map((q) => q.text)).toEqual(['Which of these ZIP codes have you lived in?', 'Which of these streets have you also lived on?']);
    const right = { quizId: second.quizId, answers: second.questions.map((q) => ({ questionId: q.id, choiceId: q.choices.find((c) => c.text === (q.id === 'q5' ? 'Juniper Street' : TRUTH[q.id]))!.id })) };
    // The first round's quiz is no longer the open one.
    expect((await answer(answersFor(first))).statusCode).toBe(404);
    expect((await answer(right)).json()).toMatchObject({ decision: 'Y' });

    await startOver();
    const quiz = (await submit(identity())).json<IdentityProofingResult>();
    const retry = (await answer(answersFor(quiz, false))).json<IdentityProofingResult>();
    expect(retry.questions).toHaveLength(2);
    expect((await answer(answersFor(retry, false))).json()).toMatchObject({ decision: 'N' });
    expect(await hillcrest()).toMatchObject({ isIdProofed: false, idProofedAttemptDate: expect.any(Date) });

    await startOver();
    const again = (await submit(identity())).json<IdentityProofingResult>();
    const chance = (await answer(answersFor(again, false))).json<IdentityProofingResult>();
    expect((await answer(answersFor(chance))).json()).toMatchObject({ decision: 'Y' });
  });

  it('the manual ID upload after a failure: images and PDF only (by content), size-limited, stored encrypted, shown to and reset by the back office', async () => {
    await startOver();
    await submit(identity({ lastName: 'Fail' }));
    const hannahId = (await hannah()).id;
    const none = await t.call(HILLCREST, 'POST', '/api/identityproofing/document');
    expect(none.json()).toMatchObject({ message: text.documentRequired });
    // A text file, and an HTML page named .png, are refused by what they are.
    expect((await upload('license.txt', new TextEncoder().encode('my license'))).json()).toMatchObject({ message: text.documentType });
    expect((await upload('license.png', new TextEncoder().encode('<html><script>alert(1)</script></html>'))).json().message).toBeTruthy();
    expect((await upload('license.png', new TextEncoder().encode('<html><script>alert(1)</script></html>'))).statusCode).toBe(400);
    const big = await upload('license.pdf', new Uint8Array(MAX_ID_DOCUMENT_BYTES + 1));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: text.documentTooLarge });
    expect((await hannah()).idProofBlobId).toBeNull();

    const pdf = simplePdf();
    const res = await upload('Driver License.pdf', pdf);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: text.documentSubmitted });
    expect(await hannah()).toMatchObject({ idProofFileName: 'Driver License.pdf', idProofStatus: 'Document submitted' });
    expect((await t.call(HILLCREST, 'GET', '/api/identityproofing')).json()).toMatchObject({ documentSubmitted: true });
    expect((await audits('IdentityDocumentSubmitted')).at(-1)).toMatchObject({ userName: HILLCREST, details: { mimeType: 'application/pdf', sizeInBytes: pdf.length } });

    // At rest the file is ciphertext: no blob file holds the PDF's bytes.
    const files = (function walk(dir: string): string[] {
      return readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
    })(blobRoot(dataDir));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(file).includes(Buffer.from(pdf.slice(0, 64)))).toBe(false);

    // The back office's ID Proofing modal: Show Identification, then Reset Submission.
    const user = (await t.call(SYSADMIN, 'GET', `/api/admin/users/${hannahId}`)).json();
    expect(user).toMatchObject({ idProofFileName: 'Driver License.pdf', idProofStatus: 'Document submitted' });
    const shown = await t.call(SYSADMIN, 'GET', `/api/admin/users/${hannahId}/idproof`);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(shown.rawPayload).equals(Buffer.from(pdf))).toBe(true);
    expect((await t.call(SYSADMIN, 'POST', `/api/admin/users/${hannahId}/idproof/reset`)).statusCode).toBe(200);
    expect((await t.call(SYSADMIN, 'GET', `/api/admin/users/${hannahId}/idproof`)).statusCode).toBe(404);
    expect((await t.call(HILLCREST, 'GET', '/api/identityproofing')).json()).toMatchObject({ documentSubmitted: false });
    // And Passed from the modal proofs the organization.
    await t.call(SYSADMIN, 'POST', '/api/admin/users/idproof', { userId: hannahId, passed: true, sendEmail: false });
    expect(await hillcrest()).toMatchObject({ isIdProofed: true });
    // Once proofed, no further upload.
    expect((await upload('again.pdf', pdf)).json()).toEqual({ message: text.alreadyProofed });
  });

  it('roles: a User gets 403, a system administrator 403; another organization\'s quiz is 404', async () => {
    await startOver();
    const quiz = (await submit(identity())).json<IdentityProofingResult>();
    for (const caller of [LAKESIDE_USER, SYSADMIN]) {
      for (const [method, url, body] of [
        ['GET', '/api/identityproofing', undefined],
        ['POST', '/api/identityproofing/identity', identity()],
        ['POST', '/api/identityproofing/answers', answersFor(quiz)],
        ['POST', '/api/identityproofing/document', undefined],
      ] as const) {
        const res = await t.call(caller, method, url, body);
        expect(res.statusCode, `${caller} ${url}`).toBe(403);
        expect(res.json()).toEqual({ message: messages.notAuthorized });
      }
    }
    // Lakeside's administrator cannot answer Hillcrest's quiz, nor learn it exists.
    expect((await answer(answersFor(quiz), LAKESIDE_ADMIN)).statusCode).toBe(404);
    expect((await answer({ quizId: 'no-such-quiz', answers: [{ questionId: 'q1', choiceId: 'c1' }] })).statusCode).toBe(404);
    expect((await t.call(null, 'POST', '/api/identityproofing/identity', identity())).statusCode).toBe(401);
  });

  it('an infected identification is refused with the virus named, audited without the file, and nothing is stored', async () => {
    await startOver();
    const hannahRow = await hannah();
    const org = await hillcrest();
    const deps: IdentityProofingDeps = {
      db: db(),
      now: () => t.clock.now,
      provider: sandboxIdentityProofing(),
      blobs: createBlobStore({ db: db(), dataDir, key: t.config.blobEncryptionKey }),
      scanner: { configured: true, ping: async () => true, scan: async () => ({ clean: false, signature: 'Eicar-Test-Signature' }) },
      files: sharedWorkerPool(t.config.fileWorkers),
      mailFrom: t.config.mailFrom,
      publicUrl: t.config.appUrl,
    };
    const caller = { session: { userId: hannahRow.id, userName: HILLCREST, sessionId: 's', organizationId: org.id, roles: ['Administrator' as const], organizationCancelled: false }, organizationId: org.id };
    const before = (await hannah()).idProofBlobId;
    await expect(submitDocument(deps, caller, async () => ({ fileName: 'id.pdf', bytes: simplePdf() }))).rejects.toMatchObject({ message: 'This file contains a virus or malware (Eicar-Test-Signature) and was not attached.' });
    expect((await hannah()).idProofBlobId).toBe(before);
    expect((await audits('UploadRefusedInfected')).at(-1)).toMatchObject({ userName: HILLCREST, details: { signature: 'Eicar-Test-Signature', purpose: 'IdentityDocument' } });
  });
});
