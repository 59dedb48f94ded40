import path from 'node:path';
import {
  attachmentMessages,
  attachmentToasts,
  EMPTY_DOCUMENT_DATE,
  MAX_FILE_NAME_LENGTH,
  previewMessages,
  type AttachmentMetaInput,
  type TransformsBody,
} from '@clinicrelay/contracts/attachments.ts';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import type { AttachmentMeta } from '../../db/schema/messages.ts';
import { writeAudit } from '../../platform/audit.ts';
import type { Scanner } from '../../platform/antivirus/scanner.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { buildXdsSdDocument, cdaOrganization } from '../../platform/cda/cda-document.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { detectFileType } from '../../platform/files/file-types.ts';
import { inspectUpload, transformPdfInWorker } from '../../platform/files/file-jobs.ts';
import type { WorkerPool } from '../../platform/workers/worker-pool.ts';
import { messageVisibleTo, viewerOf } from '../intake/queries.ts';
import * as messagesQ from '../messages/queries.ts';
import { toAttachmentSummary, type Caller } from '../messages/service.ts';
import { enqueueRendition, RENDITION_WORKFLOW } from './rendition-workflow.ts';
import { assertPlanIncludesSending } from '../subscriptions/plan-guard.ts';
import * as q from './queries.ts';

export type { Caller };

export interface AttachmentsDeps {
  db: Database;
  now: () => Date;
  blobs: BlobStore;
  scanner: Scanner;
  // Threads that parse and decode files, off the API's event loop.
  files: WorkerPool;
}

export interface UploadedFile {
  fileName: string;
  bytes: Uint8Array;
  meta: AttachmentMetaInput | null;
}

export type AttachmentContent =
  | { kind: 'processing' }
  | { kind: 'pdf'; bytes: Uint8Array; fileName: string }
  | { kind: 'text'; bytes: Uint8Array; fileName: string }
  | { kind: 'file'; bytes: Uint8Array; fileName: string; mimeType: string };

const withExtension = (fileName: string, extension: string) => `${path.parse(fileName).name || 'document'}.${extension}`;

// end-user §3: a documentDate of 1753-01-01 means empty.
function toMeta(input: AttachmentMetaInput | null | undefined): AttachmentMeta | null {
  if (!input) return null;
  return {
    documentType: input.documentType ?? null,
    documentDate: !input.documentDate || input.documentDate === EMPTY_DOCUMENT_DATE ? null : input.documentDate,
    documentDateType: input.documentDateType ?? null,
    confidentiality: input.confidentiality ?? null,
    documentDescription: input.documentDescription ?? null,
    patient: input.patient ?? null,
  };
}

// Inside a transaction that changes attachments, `lock` holds the message row until commit, so a change
// waits for a send in progress and then finds the message sent (the send locks the same row).
async function messageOf(db: DbOrTx, caller: Caller, messageId: string, lock = false) {
  const find = lock ? messagesQ.findByIdForUpdate : messagesQ.findById;
  const message = await find(db, caller.organizationId, messageId, messageVisibleTo(viewerOf(caller)));
  if (!message) throw notFound();
  return message;
}

async function ownDraft(db: DbOrTx, caller: Caller, messageId: string, lock = false) {
  const message = await messageOf(db, caller, messageId, lock);
  if (message.direction !== 'Outbound') throw notFound();
  if (!message.isDraft) throw new AppError(409, releaseMessages.notADraft);
  return message;
}

async function attachmentOf(db: DbOrTx, caller: Caller, messageId: string, attachmentId: string, lock = false) {
  const message = await messageOf(db, caller, messageId, lock);
  const row = await q.findById(db, caller.organizationId, messageId, attachmentId);
  if (!row) throw notFound();
  return { message, row };
}

// end-user §4 page strategies: a draft's attachments and received ones (Intake) can be changed; a sent
// message's (Release view) are read-only.
async function editableAttachment(db: DbOrTx, caller: Caller, messageId: string, attachmentId: string, lock = false) {
  const found = await attachmentOf(db, caller, messageId, attachmentId, lock);
  if (found.message.direction === 'Outbound' && !found.message.isDraft) throw new AppError(409, releaseMessages.notADraft);
  return found;
}

const event = (caller: Caller, messageId: string, eventType: string, attachmentId: string, at: Date) => ({
  messageId,
  organizationId: caller.organizationId,
  userId: caller.session.userId,
  eventType,
  details: { attachmentId },
  createdAt: at,
});

// The preview columns for a version of a given kind: PDFs are their own rendition, structured files
// are shown as text, images and text wait for the rendition workflow.
function previewFor(kind: 'pdf' | 'image' | 'text' | 'structured', blobId: string) {
  if (kind === 'pdf') return { previewBlobId: blobId, previewStatus: 'Available' as const };
  if (kind === 'structured') return { previewBlobId: null, previewStatus: 'NotApplicable' as const };
  return { previewBlobId: null, previewStatus: 'Processing' as const };
}

// An infected upload leaves an audit row (the signature's name, never the file's name or bytes) and nothing else.
async function refuseInfected(deps: AttachmentsDeps, caller: Caller, messageId: string, signature: string, sizeInBytes: number): Promise<never> {
  await writeAudit(deps.db, {
    eventType: 'UploadRefusedInfected',
    userId: caller.session.userId,
    userName: caller.session.userName,
    organizationId: caller.organizationId,
    ip: caller.ip ?? null,
    correlationId: messageId,
    details: { signature, sizeInBytes },
  }, deps.now());
  throw badRequest(attachmentMessages.infected(signature));
}

// POST /api/messages/{id}/attachments. The draft is checked before the body is read, so a stranger's
// upload is refused without storing anything. The client saves a draft first when it has none.
export async function upload(deps: AttachmentsDeps, caller: Caller, messageId: string, read: () => Promise<UploadedFile>) {
  await ownDraft(deps.db, caller, messageId);
  const file = await read();
  // Scanned before anything parses or stores it; an unavailable scanner throws, so nothing is stored unscanned.
  const verdict = await deps.scanner.scan(file.bytes);
  if (!verdict.clean) await refuseInfected(deps, caller, messageId, verdict.signature, file.bytes.length);
  const detected = detectFileType(file.bytes, file.fileName);
  if (!detected.ok) throw badRequest(detected.message);
  await inspectUpload(deps.files, file.bytes, detected, caller.organizationId);
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    await ownDraft(tx, caller, messageId, true);
    const stored = await deps.blobs.put(file.bytes, { organizationId: caller.organizationId }, tx);
    const created = await q.insert(tx, {
      messageId,
      organizationId: caller.organizationId,
      position: await q.nextPosition(tx, messageId),
      fileName: file.fileName,
      mimeType: detected.mimeType,
      sizeInBytes: file.bytes.length,
      originalBlobId: stored.id,
      currentBlobId: stored.id,
      ...previewFor(detected.kind, stored.id),
      meta: toMeta(file.meta),
      createdAt: now,
    });
    if (created.previewStatus === 'Processing') await enqueueRendition(tx, created);
    await messagesQ.insertEvent(tx, event(caller, messageId, 'AttachmentAdded', created.id, now));
    await messagesQ.update(tx, messageId, { updatedDate: now });
    return created;
  });
  return toAttachmentSummary(row);
}

// GET /api/messages/{id}/attachments/{attachmentId}: the PDF rendition, or a structured file as text.
export async function content(
  deps: AttachmentsDeps,
  caller: Caller,
  messageId: string,
  attachmentId: string,
  ip: string,
  native = false,
): Promise<AttachmentContent> {
  const { row } = await attachmentOf(deps.db, caller, messageId, attachmentId);
  if (!native && row.previewStatus === 'Processing') return { kind: 'processing' };
  if (!native && row.previewStatus === 'Failed') throw new AppError(422, previewMessages.failed);
  const blobId = native || row.previewStatus === 'NotApplicable' ? row.currentBlobId : row.previewBlobId;
  if (!blobId) throw new AppError(422, previewMessages.failed);
  const bytes = await deps.blobs.get(blobId);
  await writeAudit(deps.db, {
    eventType: 'AttachmentViewed',
    userId: caller.session.userId,
    userName: caller.session.userName,
    organizationId: caller.organizationId,
    ip,
    // The message's id, so the read shows in that message's Activity.
    correlationId: messageId,
    details: { attachmentId, ...(native ? { native: true } : {}) },
  }, deps.now());
  if (native) return { kind: 'file', bytes, fileName: row.fileName, mimeType: row.mimeType };
  if (row.previewStatus === 'NotApplicable') return { kind: 'text', bytes, fileName: row.fileName };
  return { kind: 'pdf', bytes, fileName: withExtension(row.fileName, 'pdf') };
}

// DELETE: drafts only. Blobs stay: copies of a draft share them (messages copyAttachments).
export async function remove(deps: AttachmentsDeps, caller: Caller, messageId: string, attachmentId: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await ownDraft(tx, caller, messageId, true);
    const row = await q.findById(tx, caller.organizationId, messageId, attachmentId);
    if (!row) throw notFound();
    await q.remove(tx, attachmentId);
    await messagesQ.insertEvent(tx, event(caller, messageId, 'AttachmentDeleted', attachmentId, now));
    await messagesQ.update(tx, messageId, { updatedDate: now });
  });
  return { message: attachmentToasts.deleted };
}

// PUT /api/messages/{id}/attachments: selection, names, dates and meta of the listed attachments.
export async function updateList(
  deps: AttachmentsDeps,
  caller: Caller,
  messageId: string,
  items: { id: string; isSelected?: boolean | undefined; fileName?: string | undefined; attachmentMeta?: AttachmentMetaInput | null | undefined }[],
) {
  const today = deps.now().toISOString().slice(0, 10);
  await deps.db.transaction(async (tx) => {
    // Problems are keyed by the item's place in the body, as the body's own format checks are.
    for (const [index, item] of items.entries()) {
      const { message, row } = await editableAttachment(tx, caller, messageId, item.id, true);
      // end-user §5 on save, for Intake (a received message): no document date after today (UTC, as the send
      // checks it). A Release draft is checked at send, with every other send rule.
      const documentDate = item.attachmentMeta?.documentDate;
      if (message.direction === 'Inbound' && documentDate && documentDate !== EMPTY_DOCUMENT_DATE && documentDate > today) {
        throw badRequest(releaseMessages.documentDateFuture, { [`${index}.attachmentMeta.documentDate`]: [releaseMessages.documentDateFuture] });
      }
      // A new name keeps the file's extension: it says what the bytes are.
      const extension = path.extname(row.fileName);
      const fileName = item.fileName && (path.extname(item.fileName).toLowerCase() === extension.toLowerCase() ? item.fileName : `${item.fileName}${extension}`);
      // The kept extension counts toward the limit too (end-user §5: names at most 255 characters).
      if (fileName && fileName.length > MAX_FILE_NAME_LENGTH) {
        throw badRequest(attachmentMessages.fileNameTooLong, { [`${index}.fileName`]: [attachmentMessages.fileNameTooLong] });
      }
      await q.update(tx, row.id, {
        ...(item.isSelected === undefined ? {} : { isSelected: item.isSelected }),
        ...(fileName ? { fileName } : {}),
        ...(item.attachmentMeta === undefined ? {} : { meta: toMeta(item.attachmentMeta) }),
      });
    }
  });
  const rows = await messagesQ.findAttachments(deps.db, [messageId]);
  return rows.map(toAttachmentSummary);
}

// What an original's bytes are, for restore after a conversion changed the name and type.
function originalType(bytes: Uint8Array, fileName: string) {
  const asNamed = detectFileType(bytes, fileName);
  if (asNamed.ok) return { fileName, mimeType: asNamed.mimeType, kind: asNamed.kind };
  for (const extension of ['pdf', 'png', 'jpg', 'gif', 'tif', 'xml', 'txt']) {
    const candidate = withExtension(fileName, extension);
    const detected = detectFileType(bytes, candidate);
    if (detected.ok) return { fileName: candidate, mimeType: detected.mimeType, kind: detected.kind };
  }
  throw new AppError(500, attachmentToasts.restoreFailed);
}

// PUT .../restore: back to the file as uploaded, keeping its meta data; a new rendition when needed.
export async function restore(deps: AttachmentsDeps, caller: Caller, messageId: string, attachmentId: string) {
  const { row } = await editableAttachment(deps.db, caller, messageId, attachmentId);
  const bytes = await deps.blobs.get(row.originalBlobId);
  const type = originalType(bytes, row.fileName);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await editableAttachment(tx, caller, messageId, attachmentId, true);
    const restored = await q.update(tx, row.id, {
      currentBlobId: row.originalBlobId,
      fileName: type.fileName,
      mimeType: type.mimeType,
      sizeInBytes: bytes.length,
      transformStatus: 'None',
      ...previewFor(type.kind, row.originalBlobId),
    });
    if (restored.previewStatus === 'Processing') await enqueueRendition(tx, restored);
    await messagesQ.insertEvent(tx, event(caller, messageId, 'AttachmentRestored', row.id, now));
  });
  return { message: attachmentToasts.restored };
}

// The PDF an attachment is shown as: the file itself for PDFs, the rendition for images and text.
async function currentPdf(deps: AttachmentsDeps, row: q.AttachmentRow) {
  if (row.previewStatus !== 'Available' || !row.previewBlobId) throw badRequest(previewMessages.noPdf);
  return { blobId: row.previewBlobId, bytes: await deps.blobs.get(row.previewBlobId) };
}

// Stores a PDF as the attachment's new current version, which is also its preview.
async function replaceWithPdf(deps: AttachmentsDeps, caller: Caller, row: q.AttachmentRow, pdf: { blobId?: string; bytes: Uint8Array }, eventType: string) {
  const now = deps.now();
  const updated = await deps.db.transaction(async (tx) => {
    await editableAttachment(tx, caller, row.messageId, row.id, true);
    const blobId = pdf.blobId ?? (await deps.blobs.put(pdf.bytes, { organizationId: caller.organizationId }, tx)).id;
    const saved = await q.update(tx, row.id, {
      currentBlobId: blobId,
      previewBlobId: blobId,
      previewStatus: 'Available',
      transformStatus: 'None',
      mimeType: 'application/pdf',
      fileName: withExtension(row.fileName, 'pdf'),
      sizeInBytes: pdf.bytes.length,
    });
    await messagesQ.insertEvent(tx, event(caller, row.messageId, eventType, row.id, now));
    return saved;
  });
  return toAttachmentSummary(updated);
}

// PUT .../transforms: rotate and remove pages (1-based in the API) of the PDF the user sees.
export async function transform(deps: AttachmentsDeps, caller: Caller, messageId: string, attachmentId: string, body: TransformsBody) {
  const { row } = await editableAttachment(deps.db, caller, messageId, attachmentId);
  const source = await currentPdf(deps, row);
  const bytes = await transformPdfInWorker(deps.files, source.bytes, {
    rotations: body.rotations.map((r) => ({ page: r.page - 1, degrees: r.degrees })),
    deletions: body.deletions.map((page) => page - 1),
  }, caller.organizationId);
  return replaceWithPdf(deps, caller, row, { bytes }, 'AttachmentTransformed');
}

function cdaPatientOf(p: messagesQ.PatientRow | undefined) {
  const missing: string[] = [];
  if (!p?.firstName) missing.push(releaseMessages.patientFirstNameRequired);
  if (!p?.lastName) missing.push(releaseMessages.patientLastNameRequired);
  // A birth date or gender nobody recorded is written as unknown (nullFlavor UNK), as C-CDA R2.1 allows: real referrals miss them.
  if (!p || !p.firstName || !p.lastName) throw badRequest(missing.join('\n'), { patient: missing });
  return { ...p, ids: p.patientIds.map((x) => ({ root: x.root, id: x.id })), firstName: p.firstName, lastName: p.lastName };
}

// PUT .../convert?type=Pdf|Cda: the PDF rendition, or an XDS-SD C-CDA document embedding it.
export async function convert(deps: AttachmentsDeps, caller: Caller, messageId: string, attachmentId: string, type: 'Pdf' | 'Cda') {
  const { row } = await editableAttachment(deps.db, caller, messageId, attachmentId);
  // end-user §6: the Stay Connected plan does not include XDS-SD/CDA documents.
  if (type === 'Cda') await assertPlanIncludesSending(deps.db, caller.organizationId);
  const pdf = await currentPdf(deps, row);
  if (type === 'Pdf') {
    if (row.currentBlobId === pdf.blobId) return toAttachmentSummary(row);
    return replaceWithPdf(deps, caller, row, pdf, 'AttachmentConverted');
  }
  const [patientRow, organization, user, loincCode] = await Promise.all([
    messagesQ.findPatient(deps.db, messageId),
    q.findOrganization(deps.db, caller.organizationId),
    q.findUser(deps.db, caller.session.userId),
    messagesQ.findDocumentTypeLoinc(deps.db, caller.organizationId, row.meta?.documentType),
  ]);
  const patient = cdaPatientOf(patientRow);
  // An encrypted or damaged PDF is never wrapped (uploads refuse them; an older one may remain): the upload's messages.
  await inspectUpload(deps.files, pdf.bytes, { extension: 'pdf', kind: 'pdf' }, caller.organizationId);
  const now = deps.now();
  const author = { fullName: user ? `${user.firstName} ${user.lastName}` : caller.session.userName, userId: caller.session.userId };
  const xml = buildXdsSdDocument({
    title: row.meta?.documentType || path.parse(row.fileName).name || 'Document',
    documentTypeName: row.meta?.documentType ?? null,
    loincCode,
    confidentiality: row.meta?.confidentiality ?? 'Normal',
    effectiveTime: now,
    documentDate: row.meta?.documentDate ?? null,
    serviceDate: patientRow?.visitDate ?? null,
    patient,
    author,
    // The signed-in user converting the document is its sender and takes responsibility for it.
    legalAuthenticator: author,
    organization: organization ? cdaOrganization(organization) : { id: caller.organizationId, name: '' },
    pdf: pdf.bytes,
  });
  const bytes = new TextEncoder().encode(xml);
  const updated = await deps.db.transaction(async (tx) => {
    await editableAttachment(tx, caller, messageId, attachmentId, true);
    const stored = await deps.blobs.put(bytes, { organizationId: caller.organizationId }, tx);
    const saved = await q.update(tx, row.id, {
      currentBlobId: stored.id,
      // The PDF stays as the rendition, but a structured file is previewed as text.
      previewStatus: 'NotApplicable',
      transformStatus: 'None',
      mimeType: 'application/xml',
      fileName: withExtension(row.fileName, 'xml'),
      sizeInBytes: bytes.length,
    });
    await messagesQ.insertEvent(tx, event(caller, messageId, 'AttachmentConverted', row.id, now));
    return saved;
  });
  return toAttachmentSummary(updated);
}

// PUT .../generatePreview: asks for a rendition when there is none (failed, or none on its way).
export async function generatePreview(deps: AttachmentsDeps, caller: Caller, messageId: string, attachmentId: string) {
  const { row } = await attachmentOf(deps.db, caller, messageId, attachmentId);
  const needsOne = row.previewStatus === 'Failed' || (row.previewStatus === 'Processing' && !(await q.hasOpenRendition(deps.db, row.id, RENDITION_WORKFLOW)));
  if (!needsOne) return toAttachmentSummary(row);
  const updated = await deps.db.transaction(async (tx) => {
    const saved = await q.update(tx, row.id, { previewStatus: 'Processing', previewBlobId: null });
    await enqueueRendition(tx, saved);
    return saved;
  });
  return toAttachmentSummary(updated);
}

// PUT .../read.
export async function markRead(deps: AttachmentsDeps, caller: Caller, messageId: string, attachmentId: string) {
  const { row } = await attachmentOf(deps.db, caller, messageId, attachmentId);
  const updated = row.isRead ? row : await q.update(deps.db, row.id, { isRead: true });
  return toAttachmentSummary(updated);
}
