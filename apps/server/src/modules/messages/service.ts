import { deliveryStatusDetail, isSimulatedDelivery } from '@clinicrelay/contracts/delivery.ts';
import { randomUUID } from 'node:crypto';
import type { DraftSave, Message, Patient } from '@clinicrelay/contracts/messages.ts';
import { DEFAULT_BRAND_NAME, isNonPatientOrigin, nonPatientOrigin, releaseMessages, splitAddresses } from '@clinicrelay/contracts/messages.ts';
import { intakePatientMessages } from '@clinicrelay/contracts/intake.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedBy, auditListViewed, auditRow, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { messageVisibleTo, viewerOf } from '../intake/queries.ts';
import { organizationWithSettings } from '../organization-settings/service.ts';
import * as q from './queries.ts';

export interface MessagesDeps {
  db: Database;
  now: () => Date;
}

export type Caller = OrgCaller;

// A message the caller may see (Intake assignments apply to received messages); anything else is not found.
async function visibleMessage(db: DbOrTx, caller: Caller, id: string) {
  const row = await q.findById(db, caller.organizationId, id, messageVisibleTo(viewerOf(caller)));
  if (!row) throw notFound();
  return row;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

// "Last, First": how lists show a patient.
const patientNameOf = (p: Patient | null | undefined) =>
  p && (p.lastName || p.firstName) ? [p.lastName, p.firstName].filter(Boolean).join(', ') : null;

// end-user §3: identifier pairs lacking root or id are dropped before saving.
const cleanIdentifiers = (p: Patient) => (p.patientIds ?? []).filter((x) => x.root && x.id).map((x) => ({ root: x.root!, id: x.id! }));

function toPatient(row: q.PatientRow | undefined): Patient | null {
  if (!row) return null;
  const { id: _id, messageId: _m, organizationId: _o, ...rest } = row;
  return { ...rest, patientIds: rest.patientIds };
}

function toDelivery(d: Awaited<ReturnType<typeof q.findDeliveries>>[number]) {
  return {
    recipient: d.recipient,
    channel: d.channel,
    status: d.status,
    reason: d.reason,
    updatedAt: d.updatedAt.toISOString(),
    deliveredAt: iso(d.deliveredAt),
    statusDetail: deliveryStatusDetail(d.status, d.reason),
    isSimulated: isSimulatedDelivery(d.reason),
    timeline: d.timeline.map((e) => ({ stage: e.stage, at: e.at.toISOString(), detail: e.detail })),
  };
}

// The Attachment of end-user §3 as messages and the attachments calls return it.
export function toAttachmentSummary(a: q.AttachmentRow): Message['attachments'][number] {
  return {
    id: a.id,
    fileName: a.fileName,
    mimeType: a.mimeType,
    sizeInBytes: a.sizeInBytes,
    isPreviewAvailable: a.previewStatus === 'Available',
    previewAvailable: a.previewStatus,
    transformStatus: a.transformStatus,
    isSelected: a.isSelected,
    isRestorable: a.currentBlobId !== a.originalBlobId,
    uploadProcessId: a.uploadProcessId,
    attachmentMeta: a.meta,
    integrationMeta: a.integrationMeta,
  };
}

// GET /api/messages/{id}: opening a message is a read of its PHI (DESIGN.md "Audit"); details stay
// empty of PHI. Saves answer with loadMessage and are audited as the changes they are.
export async function getMessage(deps: MessagesDeps, caller: Caller, id: string): Promise<Message> {
  const message = await loadMessage(deps, caller, id);
  await writeAudit(deps.db, { eventType: 'MessageViewed', ...auditedBy(caller), correlationId: id }, deps.now());
  return message;
}

// Who an audit row names: the user, their organization and where the request came from.

// What a save already holds of the message it answers with: nothing of it is read again.
interface KnownParts {
  row?: Awaited<ReturnType<typeof q.insert>>;
  patient?: q.PatientRow | null;
  attachments?: q.AttachmentRow[];
  deliveries?: Awaited<ReturnType<typeof q.findDeliveries>>;
}

async function loadMessage(deps: MessagesDeps, caller: Caller, id: string, known: KnownParts = {}): Promise<Message> {
  const row = known.row ?? (await visibleMessage(deps.db, caller, id));
  const [patientRow, attachmentRows, deliveryRows, conversation] = await Promise.all([
    known.patient === undefined ? q.findPatient(deps.db, id) : (known.patient ?? undefined),
    known.attachments ?? q.findAttachments(deps.db, [id]),
    known.deliveries ?? q.findDeliveries(deps.db, [id]),
    row.conversationId ? q.findConversation(deps.db, row.conversationId) : undefined,
  ]);
  return {
    id: row.id,
    subject: row.subject,
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
    body: row.body,
    comments: row.comments,
    messageDate: iso(row.messageDate),
    systemReceivedDate: iso(row.systemReceivedDate),
    createdDate: row.createdDate.toISOString(),
    updatedDate: row.updatedDate.toISOString(),
    isDraft: row.isDraft,
    isProcessed: row.isProcessed,
    isUrgent: row.isUrgent,
    origin: row.origin,
    status: row.status,
    processedType: row.processedType,
    sourceType: row.sourceType,
    patient: toPatient(patientRow),
    patientName: row.patientName,
    attachments: attachmentRows.map(toAttachmentSummary),
    conversation: conversation ? { conversationId: conversation.id, type: conversation.type, conversationStatus: conversation.conversationStatus } : null,
    classification: row.classificationCode ? { code: row.classificationCode } : null,
    reasonForDisclosure: row.reasonForDisclosure,
    originalObjectId: row.originalObjectId,
    releaseTypeId: row.releaseTypeId,
    conversion: row.conversion,
    attachments2PDF: row.attachments2PDF,
    attachments2CDA: row.attachments2CDA,
    isReadyForDeliverySummary: row.isReadyForDeliverySummary,
    properties: row.properties,
    trackFaxResponses: row.trackFaxResponses,
    deliveries: deliveryRows.map(toDelivery),
  };
}

export async function listMessages(
  deps: MessagesDeps,
  caller: Caller,
  query: {
    pageStart: number;
    pageSize: number;
    isDraft?: boolean | undefined;
    search?: string | undefined;
    startDate?: string | undefined;
    endDate?: string | undefined;
    userId?: string | undefined;
  },
) {
  const page = await q.findPage(
    deps.db,
    { organizationId: caller.organizationId, isDraft: query.isDraft, search: query.search, startDate: query.startDate, endDate: query.endDate, createdBy: query.userId },
    { offset: (query.pageStart - 1) * query.pageSize, limit: query.pageSize },
  );
  const ids = page.items.map((m) => m.id);
  const [deliveryRows, counts] = await Promise.all([q.findDeliveries(deps.db, ids), q.countAttachments(deps.db, ids)]);
  await auditListViewed(
    deps.db,
    caller,
    'Release',
    {
      count: page.items.length,
      totalCount: page.totalCount,
      pageStart: query.pageStart,
      isDraft: query.isDraft ?? null,
      searched: !!query.search,
      startDate: query.startDate ?? null,
      endDate: query.endDate ?? null,
      userId: query.userId ?? null,
    },
    deps.now(),
  );
  return {
    totalCount: page.totalCount,
    items: page.items.map((m) => ({
      id: m.id,
      subject: m.subject,
      fromAddress: m.fromAddress,
      toAddress: m.toAddress,
      toAddresses: splitAddresses(m.toAddress),
      createdDate: m.createdDate.toISOString(),
      updatedDate: m.updatedDate.toISOString(),
      messageDate: iso(m.messageDate),
      isDraft: m.isDraft,
      isUrgent: m.isUrgent,
      status: m.status,
      patientName: m.patientName,
      attachmentCount: counts.get(m.id) ?? 0,
      deliveries: deliveryRows.filter((d) => d.messageId === m.id).map(toDelivery),
    })),
  };
}

// The caller's draft, locked until the transaction ends: a save waits for a send in progress and then
// finds no draft (409) instead of changing what the send validated.
async function ownDraft(tx: DbOrTx, caller: Caller, id: string) {
  const row = await q.findByIdForUpdate(tx, caller.organizationId, id);
  if (!row || row.direction !== 'Outbound') throw notFound();
  if (!row.isDraft) throw new AppError(409, releaseMessages.notADraft);
  return row;
}

// The columns a draft save may set, from the request body (undefined leaves a column as it is).
async function draftValues(deps: MessagesDeps, caller: Caller, body: DraftSave) {
  const lookup = { fromAddress: body.fromAddress?.toLowerCase() || null, releaseTypeId: body.releaseTypeId ?? null };
  const refs = lookup.fromAddress || lookup.releaseTypeId ? await q.findDraftReferences(deps.db, caller.organizationId, lookup) : { fromDocumentSourceId: null, releaseTypeFound: false };
  if (body.releaseTypeId && !refs.releaseTypeFound) throw notFound();
  return {
    subject: body.subject,
    fromAddress: body.fromAddress === undefined ? undefined : (body.fromAddress || null),
    fromDocumentSourceId: body.fromAddress === undefined ? undefined : refs.fromDocumentSourceId,
    toAddress: body.toAddress === undefined ? undefined : splitAddresses(body.toAddress).join(';'),
    body: body.body,
    comments: body.comments,
    isUrgent: body.isUrgent,
    releaseTypeId: body.releaseTypeId,
    classificationCode: body.classification === undefined ? undefined : (body.classification?.code ?? null),
    reasonForDisclosure: body.reasonForDisclosure,
    conversion: body.conversion,
    properties:
      body.properties === undefined
        ? undefined
        : body.properties && {
            includeCoverPage: body.properties.includeCoverPage ?? true,
            includeMessageBody: body.properties.includeMessageBody ?? true,
            includeAttachmentDescriptions: body.properties.includeAttachmentDescriptions ?? true,
            faxPageCount: body.properties.faxPageCount ?? null,
          },
    trackFaxResponses: body.trackFaxResponses,
    patientName: body.patient === undefined ? undefined : patientNameOf(body.patient),
  };
}

const patientRowOf = (caller: Caller, messageId: string, p: Patient) => ({
  ...p,
  patientIds: cleanIdentifiers(p),
  birthDate: p.birthDate || null,
  visitDate: p.visitDate || null,
  messageId,
  organizationId: caller.organizationId,
});

async function savePatientRow(db: DbOrTx, caller: Caller, messageId: string, p: Patient) {
  return q.upsertPatient(db, patientRowOf(caller, messageId, p));
}

// A change of a message's patient is a change of PHI (DESIGN.md "Audit"), recorded with it; no PHI in details.
const patientChanged = (caller: Caller, messageId: string) => ({ eventType: 'PatientChanged', ...auditedBy(caller), correlationId: messageId });
const auditPatientChanged = (tx: DbOrTx, caller: Caller, messageId: string, at: Date) => writeAudit(tx, patientChanged(caller, messageId), at);

// A new draft's row and its DraftCreated event.
type DraftValues = Awaited<ReturnType<typeof draftValues>>;
const newDraftRow = (caller: Caller, values: DraftValues, body: DraftSave, now: Date) => ({
  ...values,
  ...(body.isNonPatient ? { origin: nonPatientOrigin(DEFAULT_BRAND_NAME), patientName: null } : {}),
  organizationId: caller.organizationId,
  direction: 'Outbound' as const,
  createdBy: caller.session.userId,
  originalObjectId: body.originalObjectId ?? null,
  createdDate: now,
  updatedDate: now,
});
const draftCreated = (caller: Caller, messageId: string, body: DraftSave, now: Date) => ({
  messageId,
  organizationId: caller.organizationId,
  userId: caller.session.userId,
  eventType: 'DraftCreated',
  // Made by the save a send starts with: a refused send discards it (delivery/service.ts).
  ...(body.beforeSend ? { details: { [q.BEFORE_SEND]: true } } : {}),
  createdAt: now,
});

// A new draft that copies no attachments: one statement writes it, its event, its patient and the audit row,
// and the answer is built from what it wrote.
async function createDraft(deps: MessagesDeps, caller: Caller, values: DraftValues, body: DraftSave, now: Date): Promise<Message> {
  const message = { id: randomUUID(), ...newDraftRow(caller, values, body, now) };
  // A non-PHI fax never carries a patient, whatever the client sends.
  const patient = body.patient && !isNonPatientOrigin(message.origin ?? null) ? body.patient : null;
  const created = await q.insertDraft(deps.db, {
    message,
    event: draftCreated(caller, message.id, body, now),
    patient: patient && { row: patientRowOf(caller, message.id, patient), audit: auditRow(patientChanged(caller, message.id), now) },
  });
  return loadMessage(deps, caller, created.row.id, { row: created.row, patient: created.patient, attachments: [], deliveries: [] });
}

// PUT /api/messages (id null: a new draft) and PUT /api/messages/{id}.
export async function saveDraft(deps: MessagesDeps, caller: Caller, id: string | null, body: DraftSave): Promise<Message> {
  const values = await draftValues(deps, caller, body);
  if (body.originalObjectId) await visibleMessage(deps.db, caller, body.originalObjectId);
  const now = deps.now();
  const copiesAttachments = !!body.originalObjectId && !!body.attachments?.length;
  if (!id && !copiesAttachments) return createDraft(deps, caller, values, body, now);
  const saved = await deps.db.transaction(async (tx) => {
    // The answer is built from what the save wrote: a new draft has no deliveries, and no attachments unless a forward copied some.
    const known: KnownParts = id ? {} : { deliveries: [], attachments: [] };
    let row;
    if (id) {
      const draft = await ownDraft(tx, caller, id);
      // A non-PHI fax never carries a patient, whatever the client sends.
      const patientName = isNonPatientOrigin(draft.origin) ? undefined : values.patientName;
      row = await q.update(tx, id, { ...values, patientName, updatedDate: now });
      // Saved as such (not as the first step of a send): from now on a refused send keeps it.
      if (!body.beforeSend) await q.keepDraft(tx, id);
    } else {
      row = await q.insert(tx, newDraftRow(caller, values, body, now));
      await q.insertEvent(tx, draftCreated(caller, row.id, body, now));
      // A forward carries the original's attachments it names; ids of any other message are ignored.
      if (body.originalObjectId && body.attachments?.length) {
        await q.copyAttachments(tx, body.originalObjectId, row.id, body.attachments.map((a) => a.id));
        delete known.attachments;
      }
      known.patient = null;
    }
    if (body.patient && !isNonPatientOrigin(row.origin)) {
      known.patient = await savePatientRow(tx, caller, row.id, body.patient);
      await auditPatientChanged(tx, caller, row.id, now);
    }
    return { ...known, row };
  });
  return loadMessage(deps, caller, saved.row.id, saved);
}

// end-user §5 "Patient and document rules on save" for Intake (§4 page strategy "intake"): birth date and
// gender are never required there; first and last name are when the organization exports patients; the
// birth date is not after today (UTC, as the send checks it). Print-only organizations cannot change it.
// Keys name the fields of the PUT .../patient body, like the format checks of its schema.
async function checkIntakePatient(tx: DbOrTx, caller: Caller, p: Patient, now: Date) {
  const { settings } = await organizationWithSettings(tx, caller.organizationId);
  if (settings.exportMode === 'Print') throw new AppError(409, intakePatientMessages.printOnly);
  const problems: Record<string, string[]> = {};
  // Not worded in the spec: "patient export" is exporting with patients (not the non-patient export).
  if (!settings.nonPatientExport) {
    if (!p.firstName) problems.firstName = [releaseMessages.patientFirstNameRequired];
    if (!p.lastName) problems.lastName = [releaseMessages.patientLastNameRequired];
  }
  if (p.birthDate && p.birthDate > now.toISOString().slice(0, 10)) problems.birthDate = [releaseMessages.patientBirthDateFuture];
  const texts = Object.values(problems).flat();
  // The message lists every problem, one a line (end-user §8: exception messages are split by line).
  if (texts.length) throw badRequest(texts.join('\n'), problems);
}

// PUT /api/messages/{id}/patient: a draft of the caller's organization (Release), or a received message the
// caller may see (Intake, with the same visibility as opening it). Locked like a draft save.
export async function savePatient(deps: MessagesDeps, caller: Caller, id: string, p: Patient): Promise<Message> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const row = await q.findByIdForUpdate(tx, caller.organizationId, id, messageVisibleTo(viewerOf(caller)));
    if (!row) throw notFound();
    if (row.direction === 'Inbound') await checkIntakePatient(tx, caller, p, now);
    else if (!row.isDraft) throw new AppError(409, releaseMessages.notADraft);
    await savePatientRow(tx, caller, id, p);
    await q.update(tx, id, { patientName: patientNameOf(p), updatedDate: now });
    // Intake's Activity lists who changed a received message's patient.
    if (row.direction === 'Inbound') {
      await q.insertEvent(tx, { messageId: id, organizationId: caller.organizationId, userId: caller.session.userId, eventType: 'PatientChanged', createdAt: now });
    }
    await auditPatientChanged(tx, caller, id, now);
  });
  return loadMessage(deps, caller, id);
}

// Drafts go for good; a sent or received message is hidden (its deliveries and audit stay).
export async function deleteMessage(deps: MessagesDeps, caller: Caller, id: string): Promise<{ message: string }> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    // Locked: a draft that a send in progress commits is not deleted behind it.
    const found = await q.findByIdForUpdate(tx, caller.organizationId, id, messageVisibleTo(viewerOf(caller)));
    if (!found) throw notFound();
    if (found.isDraft) {
      await q.remove(tx, id);
      return found;
    }
    await q.update(tx, id, { deletedAt: now });
    await q.insertEvent(tx, { messageId: id, organizationId: caller.organizationId, userId: caller.session.userId, eventType: 'Deleted', createdAt: now });
    await writeAudit(tx, { eventType: 'MessageDeleted', ...auditedBy(caller), correlationId: id }, now);
    return found;
  });
  if (row.isDraft) return { message: releaseMessages.draftDeleted };
  // Intake's wording for a received message (end-user §8 "delete").
  return { message: row.direction === 'Inbound' ? releaseMessages.messageDeleting : releaseMessages.messageDeleted };
}

// POST /api/messages/{id}/copy: a new draft with the same content and attachments.
export async function copyMessage(deps: MessagesDeps, caller: Caller, id: string): Promise<Message> {
  const source = await visibleMessage(deps.db, caller, id);
  const patientRow = await q.findPatient(deps.db, id);
  const now = deps.now();
  const copyId = await deps.db.transaction(async (tx) => {
    const row = await q.insert(tx, {
      organizationId: caller.organizationId,
      direction: 'Outbound',
      createdBy: caller.session.userId,
      subject: source.subject,
      fromAddress: source.direction === 'Outbound' ? source.fromAddress : null,
      fromDocumentSourceId: source.direction === 'Outbound' ? source.fromDocumentSourceId : null,
      toAddress: source.direction === 'Outbound' ? source.toAddress : '',
      body: source.body,
      isUrgent: source.isUrgent,
      releaseTypeId: source.releaseTypeId,
      classificationCode: source.classificationCode,
      conversion: source.conversion,
      properties: source.properties,
      patientName: source.patientName,
      originalObjectId: source.id,
      createdDate: now,
      updatedDate: now,
    });
    const copied = toPatient(patientRow);
    if (copied) await savePatientRow(tx, caller, row.id, copied);
    await q.copyAttachments(tx, id, row.id);
    await q.insertEvent(tx, { messageId: row.id, organizationId: caller.organizationId, userId: caller.session.userId, eventType: 'DraftCopied', details: { fromMessageId: id }, createdAt: now });
    return row.id;
  });
  return loadMessage(deps, caller, copyId);
}

export async function documentSourcesOf(deps: MessagesDeps, caller: Caller) {
  const rows = await q.findDocumentSources(deps.db, caller.organizationId, q.senderOf(caller));
  return rows.map((s) => ({ id: s.id, address: { fullAddress: s.fullAddress, type: s.type }, status: s.status, canSend: s.canSend }));
}

export async function releaseTypesOf(deps: MessagesDeps, caller: Caller) {
  const rows = await q.findReleaseTypes(deps.db, caller.organizationId);
  return rows.map(({ createdAt: _c, ...r }) => r);
}

export async function documentTypesOf(deps: MessagesDeps, caller: Caller) {
  const rows = await q.findDocumentTypes(deps.db, caller.organizationId);
  return rows.map((d) => ({ id: d.id, name: d.name, source: d.source }));
}

export async function cachedAddresses(deps: MessagesDeps, caller: Caller) {
  const rows = await q.findCachedAddresses(deps.db, caller.session.userId);
  return rows.map((r) => ({ address: r.address, useCount: r.useCount, lastUsedAt: r.lastUsedAt.toISOString() }));
}

// The manage-cache modal saves the addresses it kept (Clear All saves none).
export async function saveCachedAddresses(deps: MessagesDeps, caller: Caller, keep: string[]) {
  await q.keepCachedAddresses(deps.db, caller.session.userId, keep);
  return cachedAddresses(deps, caller);
}
