import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { intakePatientMessages } from '@clinicrelay/contracts/intake.ts';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { attachments, messageEvents } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { DEMO, insertInbound, userIdOf } from '../intake/test-inbound.ts';

// Issue 9: Save patient on a received message failed for everyone ("not found"). Intake's patient is
// edited with PUT /api/messages/{id}/patient by whoever may open the message, with the Intake rules of
// end-user §5: no birth date or gender needed, nothing after today.
describe('the patient of a received (Intake) message', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-intake-patient-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const config = testConfig({ DATA_DIR: dataDir });
  const db = () => t.handle.db;
  const today = () => t.clock.now.toISOString().slice(0, 10);
  let referral: string;
  const savePatient = (user: string, id: string, patient: object) => t.call(user, 'PUT', `/api/messages/${id}/patient`, patient);

  beforeAll(async () => {
    // To Riverview's Direct address, which Ray (user@riverview) is assigned in the demo world.
    referral = (await insertInbound(db(), { subject: 'intake-patient referral', to: DEMO.riverviewDirect })).id;
  });

  it('Riverview’s user saves the patient Extract patient filled in, reads it back, and the change is audited', async () => {
    const extracted = { firstName: 'Maria', middleName: 'E', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' };
    const saved = await savePatient(DEMO.riverviewUser, referral, { ...extracted, patientIds: [{ root: '2.16.840.1.113883.19', id: 'MRN-1' }, { root: '', id: 'x' }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ id: referral, patientName: 'Alvarez, Maria', patient: { ...extracted, patientIds: [{ root: '2.16.840.1.113883.19', id: 'MRN-1' }] } });

    const opened = await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${referral}`);
    expect(opened.json()).toMatchObject({ patient: extracted, patientName: 'Alvarez, Maria' });
    const listed = await t.call(DEMO.riverviewUser, 'POST', '/api/messages', { filter: 'intake-patient referral' });
    expect(listed.json().items).toEqual([expect.objectContaining({ id: referral, patientName: 'Alvarez, Maria' })]);

    const ray = await userIdOf(db(), DEMO.riverviewUser);
    const audit = await db().select().from(auditEvents).where(and(eq(auditEvents.correlationId, referral), eq(auditEvents.eventType, 'PatientChanged')));
    expect(audit).toEqual([expect.objectContaining({ userId: ray, userName: DEMO.riverviewUser, details: null })]);
    const events = await db().select().from(messageEvents).where(and(eq(messageEvents.messageId, referral), eq(messageEvents.eventType, 'PatientChanged')));
    expect(events).toEqual([expect.objectContaining({ userId: ray })]);
  });

  it('needs neither birth date nor gender in Intake; with patient export, first and last name', async () => {
    const namesOnly = await savePatient(DEMO.riverviewUser, referral, { firstName: 'Maria', lastName: 'Alvarez', birthDate: null, gender: null });
    expect(namesOnly.statusCode, namesOnly.body).toBe(200);
    expect(namesOnly.json().patient).toMatchObject({ firstName: 'Maria', lastName: 'Alvarez', birthDate: null, gender: null });

    // Riverview exports patients (exportMode Export, not the non-patient export).
    const noNames = await savePatient(DEMO.riverviewUser, referral, { birthDate: '1958-04-12' });
    expect(noNames.statusCode).toBe(400);
    expect(noNames.json()).toEqual({
      message: `${releaseMessages.patientFirstNameRequired}\n${releaseMessages.patientLastNameRequired}`,
      modelState: { firstName: [releaseMessages.patientFirstNameRequired], lastName: [releaseMessages.patientLastNameRequired] },
    });
  });

  it('refuses a birth date after today with the spec’s words, and accepts today', async () => {
    const future = await savePatient(DEMO.riverviewUser, referral, { firstName: 'Maria', lastName: 'Alvarez', birthDate: '2099-01-01' });
    expect(future.statusCode).toBe(400);
    expect(future.json()).toEqual({
      message: '"Patient Birth Date" must be equal or less than today.',
      modelState: { birthDate: ['"Patient Birth Date" must be equal or less than today.'] },
    });
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${referral}`)).json().patient.birthDate).not.toBe('2099-01-01');
    expect((await savePatient(DEMO.riverviewUser, referral, { firstName: 'Maria', lastName: 'Alvarez', birthDate: today() })).statusCode).toBe(200);
  });

  it('refuses a telephone that is not one ("12", letters, 9 digits) with a clear message, and keeps the typed one it accepts', async () => {
    for (const telephone of ['12', 'call me', '503-555-014', '2503-555-0143']) {
      const refused = await savePatient(DEMO.riverviewUser, referral, { firstName: 'Maria', lastName: 'Alvarez', telephone });
      expect(refused.statusCode, telephone).toBe(400);
      expect(refused.json().modelState).toEqual({ telephone: [releaseMessages.patientTelephoneInvalid] });
    }
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${referral}`)).json().patient.telephone).not.toBe('12');
    for (const telephone of ['(503) 555-0143', '1-503-555-0143', '5035550143']) {
      const saved = await savePatient(DEMO.riverviewUser, referral, { firstName: 'Maria', lastName: 'Alvarez', telephone });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().patient.telephone).toBe(telephone);
    }
  });

  it('answers 404 to another organization and to a Riverview user who cannot see the message; Riverview’s administrator may', async () => {
    for (const user of [DEMO.lakesideUser, DEMO.lakesideAdmin]) {
      const res = await savePatient(user, referral, { firstName: 'Mallory', lastName: 'Intruder' });
      expect(res.statusCode, user).toBe(404);
      expect(res.json()).toEqual({ message: 'The resource you are looking for was not found.' });
    }
    // Riverview's fax number is not assigned to Ray.
    const fax = (await insertInbound(db(), { subject: 'intake-patient fax', to: DEMO.riverviewFax, sourceType: 'Fax' })).id;
    expect((await savePatient(DEMO.riverviewUser, fax, { firstName: 'Maria', lastName: 'Alvarez' })).statusCode).toBe(404);
    expect((await savePatient(DEMO.riverviewAdmin, fax, { firstName: 'Maria', lastName: 'Alvarez' })).statusCode).toBe(200);
    expect((await t.call(DEMO.riverviewUser, 'GET', `/api/messages/${referral}`)).json().patient.firstName).toBe('Maria');
  });

  it('refuses a change while the organization only prints Intake documents (its patient fields are read-only)', async () => {
    const riverview = eq(organizations.subdomain, 'riverview');
    const [org] = await db().select().from(organizations).where(riverview);
    await db().update(organizations).set({ settings: { ...org!.settings, exportMode: 'Print' } }).where(riverview);
    try {
      const res = await savePatient(DEMO.riverviewUser, referral, { firstName: 'Maria', lastName: 'Alvarez' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: intakePatientMessages.printOnly });
    } finally {
      await db().update(organizations).set({ settings: org!.settings }).where(riverview);
    }
  });

  it('refuses a document date after today on a received message’s attachment, and keeps a date of today', async () => {
    const blobs = createBlobStore({ db: db(), dataDir, key: config.blobEncryptionKey });
    const [message] = await db().select({ organizationId: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'riverview'));
    const blob = await blobs.put(new TextEncoder().encode('%PDF-1.4 placeholder'), { organizationId: message!.organizationId });
    const [file] = await db()
      .insert(attachments)
      .values({ messageId: referral, organizationId: message!.organizationId, fileName: 'lab.pdf', mimeType: 'application/pdf', sizeInBytes: 20, originalBlobId: blob.id, currentBlobId: blob.id, previewBlobId: blob.id, previewStatus: 'Available' })
      .returning();
    const update = (documentDate: string) =>
      t.call(DEMO.riverviewUser, 'PUT', `/api/messages/${referral}/attachments`, [{ id: file!.id, attachmentMeta: { documentDate, documentDateType: 'selected', confidentiality: 'Normal' } }]);

    const future = await update('2099-01-01');
    expect(future.statusCode).toBe(400);
    expect(future.json()).toEqual({
      message: 'Document Date must be equal or less than today.',
      modelState: { '0.attachmentMeta.documentDate': ['Document Date must be equal or less than today.'] },
    });
    const [unchanged] = await db().select().from(attachments).where(eq(attachments.id, file!.id));
    expect(unchanged!.meta).toBeNull();

    const ok = await update(today());
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()[0].attachmentMeta).toMatchObject({ documentDate: today() });
  });
});
