import { and, eq, isNull, sql } from 'drizzle-orm';
import { parseRecipient, type RecipientAddress } from '@clinicrelay/contracts/delivery.ts';
import type { Database, DbOrTx } from '../client.ts';
import { documentSources } from '../schema/document-sources.ts';
import { attachments, documentTypes, messages, releaseTypes, type AttachmentMeta, type FaxProperties } from '../schema/messages.ts';
import { organizations } from '../schema/organizations.ts';
import { users } from '../schema/users.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { commitSend } from '../../modules/delivery/service.ts';
import * as messagesQ from '../../modules/messages/queries.ts';
import { consultNoteCda, consultNotePdf, demoPatients, isoDay, labReportPdf, referralLetterPdf, type DemoPatient } from './demo-documents.ts';

export interface DemoMessagesDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
}

type Org = 'lakeside' | 'riverview';

interface DemoFile {
  fileName: string;
  mimeType: 'application/pdf' | 'application/xml';
  bytes: Uint8Array;
  meta: AttachmentMeta;
}

interface DemoMessage {
  org: Org;
  userName: string;
  subject: string;
  fromAddress: string;
  toAddress: string;
  body: string;
  releaseType: string | null;
  conversion: 'Pdf' | 'Cda' | null;
  patient: DemoPatient;
  patientIdRoot: string;
  properties: FaxProperties | null;
  files: DemoFile[];
  // Sent at `at`; false: left as a draft last saved at `at`.
  send: boolean;
  at: Date;
}

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const LAKESIDE_DIRECT = 'intake@lakeside.direct.example.org';
const LAKESIDE_FAX = '5035550101';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const RIVERVIEW_FAX = '5035550202';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const meta = (documentType: string, documentDate: string, documentDescription: string): AttachmentMeta => ({
  documentType,
  documentDate,
  documentDateType: 'selected',
  confidentiality: 'Normal',
  documentDescription,
  patient: null,
});

// A name → id lookup that fails loudly when the demo world lacks what a demo message needs.
function lookup(rows: { key: string; id: string }[], what: string): (key: string) => string {
  const ids = new Map(rows.map((r) => [r.key, r.id]));
  return (key) => {
    const id = ids.get(key);
    if (!id) throw new Error(`The demo world has no ${what} ${key}: seed it first (seedDemo).`);
    return id;
  };
}

// The demo messages of the demo world: four sends between Lakeside and Riverview (a referral letter,
// lab results converted to C-CDA, a consult note by fax, a C-CDA continuity of care document) and a
// Lakeside draft. Each send is committed as a real send is (draft, patient, attachments, then the
// delivery module's commitSend: Pending message and deliveries and the 'send-message' workflow, in one
// transaction); the workers then deliver them. Idempotent: a message whose subject the organization
// already has (even deleted) is not made again. Returns how many messages it made.
export async function seedDemoMessages(deps: DemoMessagesDeps): Promise<number> {
  const { db } = deps;
  const org = lookup(await db.select({ key: organizations.subdomain, id: organizations.id }).from(organizations), 'organization');
  const user = lookup(await db.select({ key: users.userName, id: users.id }).from(users), 'user');
  const source = lookup(await db.select({ key: documentSources.fullAddress, id: documentSources.id }).from(documentSources), 'document source');
  const releaseType = lookup(
    await db.select({ key: releaseTypes.name, id: releaseTypes.id }).from(releaseTypes).where(isNull(releaseTypes.organizationId)),
    'release type',
  );
  const [consultType] = await db
    .select({ loincCode: documentTypes.loincCode })
    .from(documentTypes)
    .where(and(isNull(documentTypes.organizationId), eq(documentTypes.name, 'Consultation Note')));

  // Spread over the last week, oldest first, so they fall in Intake's and Release's default windows.
  const now = deps.now().getTime();
  const at = (days: number, hours = 0) => new Date(now - days * DAY - hours * HOUR);
  const referralSent = at(6, 3);
  const labSent = at(4, 5);
  const faxSent = at(2, 4);
  const cdaSent = at(1, 2);
  const visitDate = isoDay(at(3));

  const consultPdf = await consultNotePdf({ visitDate });
  const cda = consultNoteCda({
    pdf: consultPdf,
    visitDate,
    effectiveTime: cdaSent,
    organizationId: org('riverview'),
    author: { fullName: 'Ray Banks', userId: user(RIVERVIEW_USER) },
    loincCode: consultType?.loincCode ?? null,
  });
  const lakesideMrn = 'Lakeside Family Medicine MRN';
  const riverviewMrn = 'Riverview Cardiology MRN';

  const demo: DemoMessage[] = [
    {
      org: 'lakeside',
      userName: LAKESIDE_USER,
      subject: 'Cardiology referral: palpitations',
      fromAddress: LAKESIDE_DIRECT,
      toAddress: RIVERVIEW_DIRECT,
      body: 'Please see Maria Alvarez for palpitations and intermittent chest tightness. Referral letter attached; she can be reached at (503) 555-0143.',
      releaseType: 'Referral',
      conversion: null,
      patient: demoPatients.maria,
      patientIdRoot: lakesideMrn,
      properties: null,
      files: [
        {
          fileName: 'Referral letter - Alvarez, Maria.pdf',
          mimeType: 'application/pdf',
          bytes: await referralLetterPdf({ date: isoDay(referralSent) }),
          meta: meta('Referral Letter', isoDay(referralSent), 'Cardiology referral letter'),
        },
      ],
      send: true,
      at: referralSent,
    },
    {
      org: 'lakeside',
      userName: LAKESIDE_USER,
      subject: 'Lab results for Thomas Nguyen',
      fromAddress: LAKESIDE_DIRECT,
      toAddress: RIVERVIEW_DIRECT,
      body: 'Fasting CBC and basic metabolic panel for Thomas Nguyen ahead of his cardiology appointment.',
      releaseType: 'Lab results',
      conversion: 'Cda',
      patient: demoPatients.thomas,
      patientIdRoot: lakesideMrn,
      properties: null,
      files: [
        {
          fileName: 'Lab report - Nguyen, Thomas.pdf',
          mimeType: 'application/pdf',
          bytes: await labReportPdf({ collected: isoDay(at(5)), reported: isoDay(labSent) }),
          meta: meta('Laboratory Report', isoDay(labSent), 'CBC with differential and basic metabolic panel'),
        },
      ],
      send: true,
      at: labSent,
    },
    {
      org: 'riverview',
      userName: RIVERVIEW_USER,
      subject: 'Consult note: Evelyn Brooks',
      fromAddress: RIVERVIEW_FAX,
      toAddress: LAKESIDE_FAX,
      body: 'Consult note for Evelyn Brooks, seen today for newly diagnosed atrial fibrillation. Please call with questions.',
      releaseType: 'Consultation report',
      conversion: null,
      patient: demoPatients.evelyn,
      patientIdRoot: riverviewMrn,
      // Riverview suppresses the cover page by default; this fax asks for one.
      properties: { includeCoverPage: true, includeMessageBody: true, includeAttachmentDescriptions: true, faxPageCount: null },
      files: [
        {
          fileName: 'Consult note - Brooks, Evelyn.pdf',
          mimeType: 'application/pdf',
          bytes: consultPdf,
          meta: meta('Consultation Note', visitDate, 'Cardiology consultation note'),
        },
      ],
      send: true,
      at: faxSent,
    },
    {
      org: 'riverview',
      userName: RIVERVIEW_USER,
      subject: 'Continuity of care document for Evelyn Brooks',
      fromAddress: RIVERVIEW_DIRECT,
      toAddress: LAKESIDE_DIRECT,
      body: 'The consult note for Evelyn Brooks as a C-CDA document, for your EHR.',
      releaseType: 'Transition of care',
      conversion: null,
      patient: demoPatients.evelyn,
      patientIdRoot: riverviewMrn,
      properties: null,
      files: [
        {
          fileName: 'Consult note - Brooks, Evelyn.xml',
          mimeType: 'application/xml',
          bytes: new TextEncoder().encode(cda),
          meta: meta('Consultation Note', visitDate, 'Cardiology consultation note (C-CDA)'),
        },
      ],
      send: true,
      at: cdaSent,
    },
    {
      org: 'lakeside',
      userName: LAKESIDE_USER,
      subject: 'Draft: records request for Maria Alvarez',
      fromAddress: LAKESIDE_DIRECT,
      toAddress: RIVERVIEW_DIRECT,
      body: 'Could you send us the results of Maria Alvarez\'s ambulatory ECG monitor and stress test once they are read?',
      releaseType: null,
      conversion: null,
      patient: demoPatients.maria,
      patientIdRoot: lakesideMrn,
      properties: null,
      files: [],
      send: false,
      at: at(0, 3),
    },
  ];

  let created = 0;
  for (const m of demo) {
    const organizationId = org(m.org);
    const userId = user(m.userName);
    const fromSourceId = source(m.fromAddress);
    const releaseTypeId = m.releaseType ? releaseType(m.releaseType) : null;
    const made = await db.transaction(async (tx) => {
      // Two seeders at once (two processes on one PostgreSQL) make each message once.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`demo-message:${organizationId}:${m.subject}`}))`);
      if (await hasOutbound(tx, organizationId, m.subject)) return false;
      const createdAt = m.send ? new Date(m.at.getTime() - 25 * 60_000) : m.at;
      const draft = await messagesQ.insert(tx, {
        organizationId,
        direction: 'Outbound',
        createdBy: userId,
        subject: m.subject,
        fromAddress: m.fromAddress,
        fromDocumentSourceId: fromSourceId,
        toAddress: m.toAddress,
        body: m.body,
        releaseTypeId,
        conversion: m.conversion,
        properties: m.properties,
        patientName: `${m.patient.lastName}, ${m.patient.firstName}`,
        createdDate: createdAt,
        updatedDate: createdAt,
      });
      const { mrn, ...patient } = m.patient;
      await messagesQ.upsertPatient(tx, { ...patient, country: 'US', patientIds: [{ root: m.patientIdRoot, id: mrn }], messageId: draft.id, organizationId });
      for (const [position, file] of m.files.entries()) {
        const blob = await deps.blobs.put(file.bytes, { organizationId }, tx);
        const isPdf = file.mimeType === 'application/pdf';
        await tx.insert(attachments).values({
          messageId: draft.id,
          organizationId,
          position,
          fileName: file.fileName,
          mimeType: file.mimeType,
          sizeInBytes: file.bytes.length,
          originalBlobId: blob.id,
          currentBlobId: blob.id,
          // A PDF is its own preview; a structured file (the C-CDA) has none.
          previewBlobId: isPdf ? blob.id : null,
          previewStatus: isPdf ? 'Available' : 'NotApplicable',
          meta: file.meta,
          createdAt,
        });
      }
      await messagesQ.insertEvent(tx, { messageId: draft.id, organizationId, userId, eventType: 'DraftCreated', createdAt });
      if (m.send) {
        const recipients = [parseRecipient(m.toAddress)].filter((r): r is RecipientAddress => r !== null);
        await commitSend(tx, {
          organizationId,
          userId,
          ip: null,
          messageId: draft.id,
          kind: 'send',
          recipients,
          fromSourceId,
          tracked: false,
          now: m.at,
        });
      }
      return true;
    });
    if (made) created++;
  }
  return created;
}

async function hasOutbound(tx: DbOrTx, organizationId: string, subject: string): Promise<boolean> {
  const rows = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.organizationId, organizationId), eq(messages.direction, 'Outbound'), eq(messages.subject, subject)))
    .limit(1);
  return rows.length > 0;
}
