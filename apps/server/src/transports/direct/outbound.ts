import { and, eq, isNull } from 'drizzle-orm';
import MailComposer from 'nodemailer/lib/mail-composer';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import { deliveries } from '../../db/schema/messages.ts';
import type { AttachmentMeta } from '../../db/schema/messages.ts';
import { findSigningCertificate } from '../../modules/certificates/service.ts';
import { buildXdmPackage } from '../../platform/direct/xdm.ts';
import { PATIENT_HEADER, patientHeaderValue } from '../../platform/direct/patient-header.ts';
import type { WorkflowContext } from '../../platform/workflows/context.ts';
import { domainOf, type DirectDeps } from './direct-deps.ts';
import { DIRECT_FINAL_DELIVERY_OPTION, sealMessage } from './envelope.ts';
import { lookupRecipient } from './recipients.ts';
import type { InboundPatient } from '../local.ts';
import { PermanentSmtpError, sendOverSmtp } from './smtp-out.ts';
import { markFailed, recordStage } from './timeline.ts';

export interface OutboundMessage {
  from: string;
  subject: string;
  body: string;
  isUrgent: boolean;
  date: Date;
  patient: InboundPatient | null;
  attachments: { fileName: string; mimeType: string; bytes: Uint8Array; meta: AttachmentMeta | null; loincCode?: string | null }[];
}

// With a patient, the documents travel as an IHE XDM package (ITI TF-1 §16, which Direct HISPs must read): its
// metadata carries the patient and each document's type and date, which plain attachments cannot.
function directAttachments(message: OutboundMessage, to: string) {
  if (!message.patient || message.attachments.length === 0) return message.attachments.map((a) => ({ filename: a.fileName, contentType: a.mimeType, content: Buffer.from(a.bytes) }));
  const xdm = buildXdmPackage({
    documents: message.attachments.map((a) => ({
      fileName: a.fileName,
      mimeType: a.mimeType,
      bytes: a.bytes,
      title: a.meta?.documentDescription || a.fileName,
      documentType: a.meta?.documentType ?? null,
      loincCode: a.loincCode ?? null,
      documentDate: a.meta?.documentDate ? new Date(`${a.meta.documentDate}T00:00:00Z`) : null,
    })),
    patient: message.patient,
    author: message.from,
    authorAddress: message.from,
    recipient: to,
  });
  return [{ filename: 'IHE_XDM.zip', contentType: 'application/zip', content: xdm }];
}

export interface OutboundDelivery {
  id: string;
  organizationId: string;
  messageId: string;
  recipient: string;
}

// A temporary SMTP failure is retried this many times (with the workflow's backoff) before the recipient fails.
const SMTP_ATTEMPTS = 4;

/** The inner RFC 5322 message a Direct recipient reads once it is decrypted and verified. */
export async function composeInner(message: OutboundMessage, to: string, messageId: string): Promise<Buffer> {
  const composer = new MailComposer({
    from: message.from,
    to,
    subject: message.subject.replace(/[\r\n]+/g, ' '),
    text: message.body,
    date: message.date,
    messageId,
    ...(message.isUrgent ? { priority: 'high' as const } : {}),
    headers: {
      'Disposition-Notification-Options': DIRECT_FINAL_DELIVERY_OPTION,
      // The patient travels in every message that has one, also without documents (no XDM package then).
      ...(message.patient ? { [PATIENT_HEADER]: { prepared: true, value: patientHeaderValue(message.patient) } } : {}),
    },
    attachments: directAttachments(message, to),
    newline: 'win',
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

// The domains whose outgoing anchors apply to a sender: its own address's domain.
export const senderDomains = (from: string) => [domainOf(from)];

/**
 * Sends one recipient outside this installation over Direct, in two durable steps: seal (find and trust the
 * recipient's certificate, sign with the sender's, encrypt, keep the bytes) and hand over to SMTP. A crash between
 * them sends the same bytes with the same Message-ID, which the receiving HISP deduplicates.
 */
export async function deliverOverDirect(deps: DirectDeps, ctx: WorkflowContext, message: OutboundMessage, delivery: OutboundDelivery) {
  const messageId = `<${delivery.id}@${deps.config.hostname}>`;
  const sealed = await ctx.step('direct-seal', delivery.recipient, async () => {
    const found = await lookupRecipient(deps, senderDomains(message.from), delivery.recipient);
    if (found.status !== 'Trusted') return { failed: found.text };
    const signer = await findSigningCertificate(deps, message.from);
    if (!signer) return { failed: `This organization has no valid certificate to sign for ${message.from}. An administrator imports one under Certificates.` };
    const inner = await composeInner(message, delivery.recipient, messageId);
    const raw = await sealMessage(inner, { from: message.from, to: [delivery.recipient], subject: message.subject, messageId, date: message.date }, signer, found.certificates, deps.config.contentCipher);
    const blob = await deps.blobs.put(raw, { organizationId: delivery.organizationId });
    const now = deps.now();
    await deps.db.update(deliveries).set({ directMessageId: messageId, updatedAt: now }).where(eq(deliveries.id, delivery.id));
    await recordStage(deps.db, delivery, 'Queued', null, now);
    return { blobId: blob.id };
  });
  if ('failed' in sealed) {
    await markFailed(deps.db, delivery, String(sealed.failed), deps.now());
    return { status: 'Failed', reason: sealed.failed };
  }
  const sent = await ctx.step('direct-smtp', delivery.recipient, async ({ attempt }) => {
    const raw = Buffer.from(await deps.blobs.get(String(sealed.blobId)));
    try {
      const result = await sendOverSmtp(deps, { from: message.from, to: [delivery.recipient] }, raw);
      return { response: result.response, host: result.host };
    } catch (error) {
      if (error instanceof PermanentSmtpError || attempt >= SMTP_ATTEMPTS) return { failed: (error as Error).message };
      throw error;
    }
  });
  const now = deps.now();
  if ('failed' in sent) {
    await markFailed(deps.db, delivery, String(sent.failed), now);
    return { status: 'Failed', reason: sent.failed };
  }
  await recordStage(deps.db, delivery, 'Sent', null, now);
  // The MDN may already be back (a fast peer): then the recipient is no longer merely "sent".
  await deps.db
    .update(deliveries)
    .set({ reason: deliveryReasons.directSent, notificationDueAt: new Date(now.getTime() + deps.config.mdnTimeoutMinutes * 60_000), updatedAt: now })
    .where(and(eq(deliveries.id, delivery.id), eq(deliveries.status, 'Pending'), isNull(deliveries.reason)));
  return { status: 'Pending', messageId };
}
