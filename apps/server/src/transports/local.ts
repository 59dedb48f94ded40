import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatFaxNumber } from '@clinicrelay/contracts/addresses.ts';
import { activationMessages } from '@clinicrelay/contracts/delivery.ts';
import { IN_SERVICE_STATUSES } from '@clinicrelay/contracts/document-sources.ts';
import type { Database } from '../db/client.ts';
import { blobs } from '../db/schema/blobs.ts';
import { documentSources } from '../db/schema/document-sources.ts';
import { organizations } from '../db/schema/organizations.ts';
import { attachments, deliveries, messageEvents, messages, patients, type AttachmentMeta, type FaxProperties } from '../db/schema/messages.ts';
import type { BlobStore } from '../platform/blobs/blob-store.ts';
import { InfectedMessageError, scanReceivedFiles, type Scanner } from '../platform/antivirus/scanner.ts';
import { emitDeliveryOutcome, emitWebhookEvent } from '../modules/webhooks/delivery-workflow.ts';
import { recordNewMessageNotices } from '../modules/notifications/new-messages.ts';

export interface LocalDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
  // CLAMD_URL's scanner: every file of a received message is scanned before anything of it is stored (issue 26).
  scanner?: Scanner;
}

interface InboundFile {
  fileName: string;
  mimeType: string;
  previewStatus: 'Available' | 'Failed' | 'NotApplicable';
  meta: AttachmentMeta | null;
}

// New bytes to store, with the PDF rendition: 'same' when the file is itself the PDF, null when there is none.
export interface InboundBytes extends InboundFile {
  bytes: Uint8Array;
  preview: Uint8Array | 'same' | null;
}

// Blobs already stored on this installation, shared by reference: a blob never changes once written, and
// one is removed only when no attachment refers to it (platform/blobs). A local delivery copies no bytes.
export interface InboundSharedBlobs extends InboundFile {
  blobId: string;
  previewBlobId: string | null;
}

export type InboundAttachment = InboundBytes | InboundSharedBlobs;

export type InboundPatient = Omit<typeof patients.$inferInsert, 'id' | 'messageId' | 'organizationId'>;

// What arrives in the receiving organization's Intake.
export interface InboundCopy {
  organizationId: string;
  sourceType: 'Direct' | 'Fax' | 'DeliverySummary';
  // The sent message (null when it came from another HISP) and the recipient address it was sent to (the copy's To).
  sentMessageId: string | null;
  recipient: string;
  // What names this copy once; by default the sent message and recipient (one copy per delivery). Required from
  // another HISP, where it is made of the message's Message-ID.
  deliveryKey?: string;
  fromAddress: string;
  subject: string;
  body: string;
  isUrgent: boolean;
  patient: InboundPatient | null;
  properties: FaxProperties | null;
  attachments: InboundAttachment[];
}

// The organization on this installation that owns a Direct address or fax number in service (activated), if any;
// refusal says why it may not receive now (organization not activated, or canceled past any grace period).
export async function findHostedAddress(db: Database, type: 'Direct' | 'Fax', fullAddress: string, now = new Date()) {
  const [row] = await db
    .select({
      id: documentSources.id,
      organizationId: documentSources.organizationId,
      isActivated: organizations.isActivated,
      cancelledAt: organizations.cancelledAt,
      gracePeriodEndsAt: organizations.gracePeriodEndsAt,
    })
    .from(documentSources)
    .innerJoin(organizations, eq(organizations.id, documentSources.organizationId))
    .where(and(eq(documentSources.type, type), eq(documentSources.fullAddress, fullAddress), inArray(documentSources.status, [...IN_SERVICE_STATUSES])));
  if (!row) return undefined;
  const cancelled = !!row.cancelledAt && !(row.gracePeriodEndsAt && row.gracePeriodEndsAt > now);
  const refusal = cancelled ? activationMessages.receiveCancelled : row.isActivated ? null : activationMessages.receiveNotActivated;
  return { id: row.id, organizationId: row.organizationId, refusal };
}

const patientNameOf = (p: InboundPatient | null) => (p && (p.lastName || p.firstName) ? [p.lastName, p.firstName].filter(Boolean).join(', ') : null);

// Delivers a message to an organization on this installation, exactly once per (sent message,
// recipient): under a lock on that pair, an inbound copy that already exists (the worker died after
// creating it) is reused, never made twice. When deliveryId is given, the sender's delivery row turns
// Delivered in the same transaction, so the copy and its record commit together.
export async function receiveHere(deps: LocalDeps, copy: InboundCopy, opts: { deliveryId?: string; reason?: string } = {}): Promise<string> {
  // Before the transaction (no network call inside one); a shared blob is scanned too: it may predate the scanner.
  await scanReceivedFiles(
    deps.scanner,
    copy.attachments.map((a) => ({ fileName: a.fileName, bytes: () => ('blobId' in a ? deps.blobs.get(a.blobId) : a.bytes) })),
  );
  const now = deps.now();
  const deliveryKey = copy.deliveryKey ?? `${copy.sentMessageId ?? 'unknown'}:${copy.recipient}`;
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`receive:${deliveryKey}`}))`);
    const [existing] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.organizationId, copy.organizationId),
          eq(messages.direction, 'Inbound'),
          eq(messages.deliveryKey, deliveryKey),
        ),
      );
    let inboundId = existing?.id;
    if (!inboundId) {
      const [row] = await tx
        .insert(messages)
        .values({
          organizationId: copy.organizationId,
          direction: 'Inbound',
          subject: copy.subject,
          fromAddress: copy.fromAddress,
          toAddress: copy.recipient,
          body: copy.body,
          isUrgent: copy.isUrgent,
          isDraft: false,
          status: 'Received',
          sourceType: copy.sourceType,
          messageDate: now,
          systemReceivedDate: now,
          createdDate: now,
          updatedDate: now,
          patientName: patientNameOf(copy.patient),
          originalObjectId: copy.sentMessageId,
          properties: copy.properties,
          deliveryKey,
        })
        .returning({ id: messages.id });
      inboundId = row!.id;
      if (copy.patient) await tx.insert(patients).values({ ...copy.patient, messageId: inboundId, organizationId: copy.organizationId });
      const owner = { organizationId: copy.organizationId };
      for (const [position, a] of copy.attachments.entries()) {
        let current: { id: string; sizeInBytes: number };
        let previewId: string | null;
        if ('blobId' in a) {
          const [shared] = await tx.select({ id: blobs.id, sizeInBytes: blobs.sizeInBytes }).from(blobs).where(eq(blobs.id, a.blobId));
          if (!shared) throw new Error(`Blob ${a.blobId} to share does not exist.`);
          current = shared;
          previewId = a.previewBlobId;
        } else {
          current = await deps.blobs.put(a.bytes, owner, tx);
          previewId = a.preview === 'same' ? current.id : a.preview ? (await deps.blobs.put(a.preview, owner, tx)).id : null;
        }
        await tx.insert(attachments).values({
          messageId: inboundId,
          organizationId: copy.organizationId,
          position,
          fileName: a.fileName,
          mimeType: a.mimeType,
          sizeInBytes: current.sizeInBytes,
          originalBlobId: current.id,
          currentBlobId: current.id,
          previewBlobId: previewId,
          previewStatus: a.previewStatus,
          meta: a.meta,
          createdAt: now,
        });
      }
      await tx.insert(messageEvents).values({
        messageId: inboundId,
        organizationId: copy.organizationId,
        eventType: 'Received',
        details: { sourceType: copy.sourceType, from: copy.fromAddress },
        createdAt: now,
      });
      await emitWebhookEvent(tx, { organizationId: copy.organizationId, type: 'message.received', messageId: inboundId, occurredAt: now });
      await recordNewMessageNotices(tx, { organizationId: copy.organizationId, messageId: inboundId, at: now });
    }
    if (opts.deliveryId) {
      const [settled] = await tx
        .update(deliveries)
        .set({ status: 'Delivered', reason: opts.reason ?? null, deliveredAt: now, deliveredMessageId: inboundId, updatedAt: now })
        .where(and(eq(deliveries.id, opts.deliveryId), eq(deliveries.status, 'Pending')))
        .returning({ id: deliveries.id, organizationId: deliveries.organizationId, messageId: deliveries.messageId });
      if (settled) await emitDeliveryOutcome(tx, settled, 'Delivered', now);
    }
    return inboundId;
  });
}

// The sandbox fax network's line to numbers hosted here: the fax arrives in that organization's
// Intake as one PDF. Idempotent per (sent message, number), like receiveHere. An infected fax is refused
// ({ refused }), as a receiving fax service would drop it; nothing of it is stored.
export function localFaxLine(deps: LocalDeps) {
  return async (fax: { to: string; from: string; pages: Uint8Array; pageCount: number; sentMessageId: string }): Promise<string | null | { refused: string }> => {
    const hosted = await findHostedAddress(deps.db, 'Fax', fax.to, deps.now());
    if (!hosted) return null;
    if (hosted.refusal) return { refused: hosted.refusal };
    try {
      return await receiveFax(deps, hosted.organizationId, fax);
    } catch (error) {
      if (error instanceof InfectedMessageError) return { refused: error.message };
      throw error;
    }
  };
}

function receiveFax(deps: LocalDeps, organizationId: string, fax: { to: string; from: string; pages: Uint8Array; pageCount: number; sentMessageId: string }) {
  const stamp = deps.now().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return receiveHere(deps, {
    organizationId,
    sourceType: 'Fax',
    sentMessageId: fax.sentMessageId,
    recipient: fax.to,
    fromAddress: fax.from,
    subject: `Fax from ${formatFaxNumber(fax.from)}`,
    body: '',
    isUrgent: false,
    patient: null,
    properties: { includeCoverPage: false, includeMessageBody: false, includeAttachmentDescriptions: false, faxPageCount: fax.pageCount },
    attachments: [{ fileName: `fax-${stamp}.pdf`, mimeType: 'application/pdf', bytes: fax.pages, preview: 'same', previewStatus: 'Available', meta: null }],
  });
}
