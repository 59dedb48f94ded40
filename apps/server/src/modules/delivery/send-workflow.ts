import { and, eq } from 'drizzle-orm';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import type { Database } from '../../db/client.ts';
import { messages } from '../../db/schema/messages.ts';
import { InfectedMessageError, type Scanner } from '../../platform/antivirus/scanner.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { buildXdsSdDocument, cdaOrganization, pdfWrapRefusal } from '../../platform/cda/cda-document.ts';
import type { WorkflowContext, WorkflowHandler } from '../../platform/workflows/context.ts';
import type { MessagingTally, StepTally } from '../../platform/workflows/rollups.ts';
import { renderFaxDocument } from '../../transports/fax/fax-document.ts';
import type { FaxProvider } from '../../transports/fax/fax-provider.ts';
import type { DirectDeps } from '../../transports/direct/direct-deps.ts';
import { deliverOverDirect } from '../../transports/direct/outbound.ts';
import { markFailed, settleMessage } from '../../transports/direct/timeline.ts';
import { emitDeliveryOutcome } from '../webhooks/delivery-workflow.ts';
import { findHostedAddress, receiveHere, type InboundAttachment, type InboundPatient } from '../../transports/local.ts';
import * as messagesQ from '../messages/queries.ts';
import * as q from './queries.ts';

export interface SendWorkflowDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
  fax: FaxProvider;
  // Scans what an organization here receives (receiveHere); an infected file fails the recipient.
  scanner?: Scanner;
  // Direct over SMTP to addresses outside this installation; without it (tests of other areas) they fail with a reason.
  direct?: DirectDeps;
  // Tests only: runs after each recipient's step is recorded (the crash test dies here).
  afterRecipient?: (recipient: string) => Promise<void>;
  // Issue 29 §3: the routing rules (modules/routing-rules/delivery.ts); without it every Direct recipient goes as below.
  routing?: MessageRouter;
}

// What a routing rule decides for a Direct recipient: delivered its own way (HL7 v2 over MLLP), or over Direct in another conversion.
export type RouteDecision = { outcome: Record<string, unknown> } | { conversion: 'Pdf' | 'Cda' };
export interface RoutedContent {
  patient: InboundPatient | null;
  documents: Awaited<ReturnType<typeof attachmentBytes>>;
}
export type MessageRouter = (ctx: WorkflowContext, route: { message: SentMessage; delivery: q.DeliveryRow; load: () => Promise<RoutedContent> }) => Promise<RouteDecision | null>;

type SentMessage = typeof messages.$inferSelect;
type AttachmentRow = Awaited<ReturnType<typeof messagesQ.findAttachments>>[number];
type PatientRow = NonNullable<Awaited<ReturnType<typeof messagesQ.findPatient>>>;

const withExtension = (fileName: string, ext: string) => `${fileName.replace(/\.[^./\\]+$/, '')}.${ext}`;

// The blob of the PDF a viewer or fax machine shows for an attachment: its rendition, or the file when it is a PDF.
const pdfBlobOf = (a: AttachmentRow): string | null =>
  a.previewBlobId && a.previewStatus === 'Available' ? a.previewBlobId : a.mimeType === 'application/pdf' ? a.currentBlobId : null;

async function pdfRendition(blobs: BlobStore, a: AttachmentRow): Promise<Uint8Array | null> {
  const blobId = pdfBlobOf(a);
  return blobId ? blobs.get(blobId) : null;
}

const inboundPatient = (p: PatientRow | undefined): InboundPatient | null => {
  if (!p) return null;
  const { id: _id, messageId: _m, organizationId: _o, ...rest } = p;
  return rest;
};

// The receiving organization's copies of the selected attachments, in the message's conversion:
// the file as it is now, its PDF rendition, or a C-CDA XDS-SD wrapping that PDF. A file without a
// PDF rendition (structured files) travels as it is. Files and renditions are shared by reference
// (blobs never change); only an XDS-SD document is new bytes.
async function attachmentCopies(deps: SendWorkflowDeps, message: SentMessage, patient: PatientRow | undefined): Promise<InboundAttachment[]> {
  const selected = (await messagesQ.findAttachments(deps.db, [message.id])).filter((a) => a.isSelected);
  const copies: InboundAttachment[] = [];
  for (const a of selected) {
    const pdfBlobId = pdfBlobOf(a);
    if (message.conversion === 'Pdf' && pdfBlobId) {
      copies.push({ fileName: withExtension(a.fileName, 'pdf'), mimeType: 'application/pdf', blobId: pdfBlobId, previewBlobId: pdfBlobId, previewStatus: 'Available', meta: a.meta });
      continue;
    }
    const pdf = message.conversion === 'Cda' && pdfBlobId ? await deps.blobs.get(pdfBlobId) : null;
    // An encrypted or damaged PDF (refused at upload; an older one may remain) is never wrapped: it travels as it is.
    // A birth date or gender nobody recorded travels as unknown (nullFlavor UNK); a name is needed.
    if (pdf && !pdfWrapRefusal(pdf) && patient?.firstName && patient.lastName) {
      const [organization, author, loincCode] = await Promise.all([
        q.findOrganization(deps.db, message.organizationId),
        message.createdBy ? q.findUserName(deps.db, message.createdBy) : undefined,
        messagesQ.findDocumentTypeLoinc(deps.db, message.organizationId, a.meta?.documentType),
      ]);
      const sender = author && message.createdBy ? { fullName: author, userId: message.createdBy } : null;
      const xml = buildXdsSdDocument({
        title: a.meta?.documentType ?? a.fileName,
        documentTypeName: a.meta?.documentType ?? null,
        loincCode,
        confidentiality: a.meta?.confidentiality ?? 'Normal',
        effectiveTime: message.messageDate ?? deps.now(),
        documentDate: a.meta?.documentDate ?? null,
        serviceDate: patient.visitDate ?? null,
        patient: { ...patient, ids: patient.patientIds, firstName: patient.firstName, lastName: patient.lastName },
        author: sender ?? { fullName: 'ClinicRelay user', userId: message.createdBy ?? 'unknown' },
        // The sender takes responsibility for what they send; nobody signs for an unknown one.
        legalAuthenticator: sender,
        organization: organization ? cdaOrganization(organization) : { id: message.organizationId, name: 'Unknown organization' },
        pdf,
      });
      copies.push({ fileName: withExtension(a.fileName, 'xml'), mimeType: 'application/xml', bytes: new TextEncoder().encode(xml), preview: pdf, previewStatus: 'Available', meta: a.meta });
      continue;
    }
    copies.push({
      fileName: a.fileName,
      mimeType: a.mimeType,
      blobId: a.currentBlobId,
      previewBlobId: pdfBlobId,
      previewStatus: pdfBlobId ? 'Available' : a.previewStatus === 'NotApplicable' ? 'NotApplicable' : 'Failed',
      meta: a.meta,
    });
  }
  return copies;
}

// The bytes of each copy, for a recipient on another HISP, with its type's LOINC code for the XDM metadata.
async function attachmentBytes(deps: SendWorkflowDeps, message: SentMessage, copies: InboundAttachment[]) {
  return Promise.all(
    copies.map(async (a) => ({
      fileName: a.fileName,
      mimeType: a.mimeType,
      meta: a.meta,
      loincCode: await messagesQ.findDocumentTypeLoinc(deps.db, message.organizationId, a.meta?.documentType),
      bytes: 'blobId' in a ? await deps.blobs.get(a.blobId) : a.bytes,
    })),
  );
}

async function deliverDirect(deps: SendWorkflowDeps, ctx: WorkflowContext, sent: SentMessage, delivery: q.DeliveryRow) {
  const load = async () => {
    const patient = await messagesQ.findPatient(deps.db, sent.id);
    return { patient: inboundPatient(patient), documents: await attachmentBytes(deps, sent, await attachmentCopies(deps, sent, patient)) };
  };
  const route = deps.routing ? await deps.routing(ctx, { message: sent, delivery, load }) : null;
  if (route && 'outcome' in route) return route.outcome;
  const message = route ? { ...sent, conversion: route.conversion } : sent;
  const hosted = await findHostedAddress(deps.db, 'Direct', delivery.recipient, deps.now());
  if (hosted?.refusal) {
    await markFailed(deps.db, delivery, hosted.refusal, deps.now());
    return { status: 'Failed', channel: 'Local' };
  }
  const patient = await messagesQ.findPatient(deps.db, message.id);
  if (!hosted) {
    if (!deps.direct) {
      await markFailed(deps.db, delivery, 'Direct delivery to other HISPs is not configured on this server.', deps.now());
      return { status: 'Failed', channel: 'Direct' };
    }
    const outbound = {
      from: message.fromAddress ?? '',
      subject: message.subject,
      body: message.body,
      isUrgent: message.isUrgent,
      date: message.messageDate ?? deps.now(),
      patient: inboundPatient(patient),
      attachments: await attachmentBytes(deps, message, await attachmentCopies(deps, message, patient)),
    };
    return { ...(await deliverOverDirect(deps.direct, ctx, outbound, delivery)), channel: 'Direct' };
  }
  const inboundId = await receiveHere(
    deps,
    {
      organizationId: hosted.organizationId,
      sourceType: 'Direct',
      sentMessageId: message.id,
      recipient: delivery.recipient,
      fromAddress: message.fromAddress ?? '',
      subject: message.subject,
      body: message.body,
      isUrgent: message.isUrgent,
      patient: inboundPatient(patient),
      properties: null,
      attachments: await attachmentCopies(deps, message, patient),
    },
    { deliveryId: delivery.id, reason: deliveryReasons.deliveredHere },
  ).catch(async (error: unknown) => {
    if (!(error instanceof InfectedMessageError)) throw error;
    await markFailed(deps.db, delivery, error.message, deps.now());
    return null;
  });
  return inboundId ? { status: 'Delivered', inboundId, channel: 'Local' } : { status: 'Failed', channel: 'Local' };
}

async function deliverFax(deps: SendWorkflowDeps, ctx: WorkflowContext, message: SentMessage, delivery: q.DeliveryRow) {
  const selected = (await messagesQ.findAttachments(deps.db, [message.id])).filter((a) => a.isSelected);
  const options = message.properties ?? { includeCoverPage: true, includeMessageBody: true, includeAttachmentDescriptions: true, faxPageCount: null };
  const rendered = await renderFaxDocument({
    from: message.fromAddress ?? '',
    to: delivery.recipient,
    date: message.messageDate ?? deps.now(),
    subject: message.subject,
    body: message.body,
    includeCoverPage: options.includeCoverPage,
    includeMessageBody: options.includeMessageBody,
    includeAttachmentDescriptions: options.includeAttachmentDescriptions,
    attachments: await Promise.all(
      selected.map(async (a) => ({
        fileName: a.fileName,
        documentType: a.meta?.documentType ?? null,
        documentDate: a.meta?.documentDate ?? null,
        description: a.meta?.documentDescription ?? null,
        pdf: await pdfRendition(deps.blobs, a),
      })),
    ),
  });
  // No transaction is open: the provider may be a network call.
  const result = await deps.fax.send(
    {
      to: delivery.recipient,
      from: message.fromAddress ?? '',
      pages: rendered.pdf,
      pageCount: rendered.pageCount,
      idempotencyKey: `${message.id}:${delivery.recipient}`,
      sentMessageId: message.id,
    },
    ctx.signal,
  );
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const status = result.status === 'Queued' ? 'Pending' : result.status;
    const settled = await q.settleDelivery(tx, delivery.id, { status, reason: result.detail, updatedAt: now, deliveredAt: result.status === 'Delivered' ? now : null });
    if (settled && status !== 'Pending') await emitDeliveryOutcome(tx, delivery, status, now);
  });
  // A fax line hosted here (the sandbox hands it over) is also a fax received: the dashboard counts it inbound.
  const receivedHere = result.detail === deliveryReasons.sandboxFaxDeliveredHere ? { receivedHere: true } : {};
  return { status: result.status, channel: 'Fax', ...receivedHere, provider: deps.fax.name, providerReference: result.providerReference, pageCount: result.pageCount };
}

// The dashboard's count of one recipient (issue 27 §1): Direct means over SMTP to another HISP, Local a copy made in an
// organization here (also counted inbound, as is a fax to a line hosted here). Handed over to the next hop (Direct awaiting its MDN) counts as a success.
export function deliveryTally(recipient: string): StepTally {
  return (outcome) => {
    if ('error' in outcome) return [{ direction: 'Outbound', channel: recipient.includes('@') ? 'Direct' : 'Fax', outcome: 'Failure' }];
    const { channel, status } = outcome.result ?? {};
    if (typeof channel !== 'string') return [];
    const result: MessagingTally['outcome'] = status === 'Failed' ? 'Failure' : status === 'Delivered' || (channel === 'Direct' && status === 'Pending') ? 'Success' : 'Other';
    const tallies: MessagingTally[] = [{ direction: 'Outbound', channel, outcome: result }];
    if ((channel === 'Local' || outcome.result?.receivedHere === true) && result === 'Success') tallies.push({ direction: 'Inbound', channel, outcome: result });
    return tallies;
  };
}

// The 'send-message' workflow: one step per recipient (a completed step is never run again, and each
// transport is idempotent per recipient, so a crash anywhere leaves exactly one copy), then the
// message's status from its recipients.
export function sendMessageWorkflow(deps: SendWorkflowDeps): WorkflowHandler {
  return async (ctx) => {
    const { messageId } = ctx.workflow.payload as { messageId: string };
    const organizationId = ctx.workflow.organizationId;
    if (!organizationId) return;
    const [message] = await deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.organizationId, organizationId)));
    if (!message) return;
    for (const { recipient } of await q.findDeliveries(deps.db, messageId)) {
      await ctx.step('deliver', recipient, async ({ retried }) => {
        let delivery = await q.findDelivery(deps.db, messageId, recipient);
        // An operator's retry of this recipient sends it again.
        if (retried && delivery?.status === 'Failed' && (await q.reopenFailedDelivery(deps.db, delivery.id, deps.now()))) delivery = await q.findDelivery(deps.db, messageId, recipient);
        if (!delivery || delivery.status !== 'Pending' || delivery.deliveredMessageId) return { status: delivery?.status ?? 'Missing' };
        const outcome: Record<string, unknown> =
          delivery.channel === 'Direct' ? await deliverDirect(deps, ctx, message, delivery) : await deliverFax(deps, ctx, message, delivery);
        if (outcome.status !== 'Failed') return outcome;
        // Settled as failed: the workflow shows Failed and this recipient's step can be retried from the back office.
        const failed = await q.findDelivery(deps.db, messageId, recipient);
        return { ...outcome, failed: failed?.reason ?? 'The recipient could not be reached.' };
      }, deliveryTally(recipient));
      await deps.afterRecipient?.(recipient);
    }
    await settleMessage(deps.db, messageId, deps.now());
  };
}
