import { randomUUID } from 'node:crypto';
import { findSigningCertificate } from '../../modules/certificates/service.ts';
import { InfectedMessageError } from '../../platform/antivirus/scanner.ts';
import { parseDirectContent } from '../../platform/direct/content.ts';
import { headerValue, readEntity } from '../../platform/direct/mime-entity.ts';
import { buildMdn, isDsn, isMdn, isReport, parseDsn, parseMdn, type Disposition } from '../../platform/direct/mdn.ts';
import { writeAudit } from '../../platform/audit.ts';
import { errorText, type WorkflowContext, type WorkflowHandler } from '../../platform/workflows/context.ts';
import type { StepTally } from '../../platform/workflows/rollups.ts';
import { findHostedAddress, receiveHere } from '../local.ts';
import type { DirectDeps } from './direct-deps.ts';
import { openMessage, sealMessage } from './envelope.ts';
import { lookupRecipient } from './recipients.ts';
import { PermanentSmtpError, sendOverSmtp } from './smtp-out.ts';
import { applyDeliveryStatus, applyNotification } from './timeline.ts';

export const RECEIVE_DIRECT_WORKFLOW = 'receive-direct';

const MDN_ATTEMPTS = 3;

export interface ReceivePayload {
  // The message as it arrived over SMTP, in the blob store.
  blobId: string;
  mailFrom: string;
  recipients: string[];
}

interface Notification {
  // From the recipient here back to the sender.
  from: string;
  to: string;
  originalMessageId: string;
  originalSubject: string;
  disposition: Disposition;
  failure?: string;
  // The certificate that signed the original: a fallback to encrypt the MDN for when the sender's cannot be discovered.
  senderCertificate: Buffer | null;
}

/** An MDN back to the sender (Implementation Guide for Delivery Notification in Direct), itself signed and encrypted. */
export async function sendNotification(deps: DirectDeps, n: Notification): Promise<{ sent: string } | { skipped: string }> {
  const signer = await findSigningCertificate(deps, n.from);
  if (!signer) return { skipped: `no certificate to sign for ${n.from}` };
  const found = await lookupRecipient(deps, [n.from.slice(n.from.lastIndexOf('@') + 1)], n.to);
  const certificates = found.status === 'Trusted' ? found.certificates : n.senderCertificate ? [n.senderCertificate] : [];
  if (certificates.length === 0) return { skipped: `no certificate to encrypt for ${n.to}: ${found.text}` };
  const messageId = `<${randomUUID()}@${deps.config.hostname}>`;
  const date = deps.now();
  const mdn = buildMdn({
    from: n.from,
    to: n.to,
    originalMessageId: n.originalMessageId,
    originalSubject: n.originalSubject,
    finalRecipient: n.from,
    disposition: n.disposition,
    reportingUa: `${deps.config.hostname}; ClinicRelay`,
    ...(n.failure ? { failureText: n.failure } : {}),
    messageId,
    date,
  });
  const subject = `${n.disposition === 'failed' ? 'Not delivered' : 'Processed'}: ${n.originalSubject}`.slice(0, 200);
  // A notification never asks for one back (RFC 8098 §2.1): no Disposition-Notification-Options on it.
  const raw = await sealMessage(mdn, { from: n.from, to: [n.to], subject, messageId, date }, signer, certificates, deps.config.contentCipher, { requestNotification: false });
  const result = await sendOverSmtp(deps, { from: n.from, to: [n.to] }, raw);
  return { sent: result.response };
}

const attachmentOf = (a: Awaited<ReturnType<typeof parseDirectContent>>['attachments'][number]) => {
  const isPdf = a.mimeType === 'application/pdf';
  return { fileName: a.fileName, mimeType: a.mimeType, bytes: a.bytes, preview: isPdf ? ('same' as const) : null, previewStatus: isPdf ? ('Available' as const) : ('NotApplicable' as const), meta: a.meta };
};

// The dashboard's count of one received recipient (issue 27 §1); a delivery notification is not a message.
export const receiveTally: StepTally = (outcome) => {
  if ('error' in outcome) return [{ direction: 'Inbound', channel: 'Direct', outcome: 'Failure' }];
  const result = outcome.result ?? {};
  if ('notification' in result) return [];
  return [{ direction: 'Inbound', channel: 'Direct', outcome: 'inboundId' in result ? 'Success' : 'Failure' }];
};

async function receiveFor(deps: DirectDeps, ctx: WorkflowContext, raw: () => Promise<Buffer>, recipient: string) {
  const received = await ctx.step('receive', recipient, async () => {
    const opened = await openMessage(deps, await raw(), recipient);
    if (!opened.ok) return { refused: opened.reason, code: opened.code };
    // A report (MDN, DSN or another multipart/report) is a notice about a message: applied to the delivery it names,
    // never filed in Intake, never answered.
    const origin = { from: opened.from, signer: opened.signer };
    if (isMdn(opened.inner)) {
      const mdn = parseMdn(opened.inner);
      if (!mdn) return { refused: 'The delivery notification could not be read.', code: '5.6.0' };
      const matched = await applyNotification(deps.db, mdn, origin, deps.now());
      return { notification: mdn.disposition, matched };
    }
    if (isDsn(opened.inner)) {
      const dsn = parseDsn(opened.inner);
      if (!dsn) return { refused: 'The delivery status notification could not be read.', code: '5.6.0' };
      return { notification: 'delivery-status', failed: await applyDeliveryStatus(deps.db, dsn, origin, deps.now()) };
    }
    if (isReport(opened.inner)) return { refused: 'The report is neither a delivery notification nor a delivery status notification.', code: '5.6.0' };
    // Trusted, but it cannot be put in Intake: the sender is told with an MDN 'failed' and its reason.
    const sender = { from: opened.from, messageId: opened.messageId ?? `<${ctx.workflow.id}>`, signer: opened.signer.toString('base64') };
    const undeliverable = (reason: string) => ({ ...sender, undeliverable: reason, subject: headerValue(readEntity(opened.inner), 'subject') ?? '' });
    const hosted = await findHostedAddress(deps.db, 'Direct', recipient, deps.now());
    if (!hosted) return undeliverable(`${recipient} is no longer in service.`);
    if (hosted.refusal) return undeliverable(hosted.refusal);
    let content: Awaited<ReturnType<typeof parseDirectContent>>;
    try {
      content = await parseDirectContent(opened.inner);
    } catch (error) {
      return undeliverable(`The message could not be read: ${(error as Error).message}`);
    }
    const messageId = opened.messageId ?? content.messageId ?? sender.messageId;
    // Scanned at SMTP already; a file found infected now (newer signatures) is quarantined: nothing stored, MDN failed.
    const inboundId = await receiveHere(deps, {
      organizationId: hosted.organizationId,
      sourceType: 'Direct',
      sentMessageId: null,
      recipient,
      // A Message-ID is unique only at its sender (RFC 5322 §3.6.4): two senders' messages that share one are two messages.
      deliveryKey: `direct:${opened.from.toLowerCase()}:${messageId}:${recipient.toLowerCase()}`,
      fromAddress: opened.from,
      subject: content.subject,
      body: content.body,
      isUrgent: content.isUrgent,
      patient: content.patient,
      properties: null,
      attachments: content.attachments.map(attachmentOf),
    }).catch((error: unknown) => {
      if (error instanceof InfectedMessageError) return error;
      // Trusted and accepted, but Intake cannot take it even on the last try: the sender hears it with an MDN failed
      // (the IG's "cannot deliver") instead of waiting for a notification that never comes.
      if (ctx.workflow.attempts >= ctx.workflow.maxAttempts) return { storeError: errorText(error) };
      throw error;
    });
    if (inboundId instanceof InfectedMessageError) {
      await writeAudit(deps.db, { eventType: 'InfectedMessageRefused', organizationId: hosted.organizationId, correlationId: ctx.workflow.id, details: { from: opened.from, recipient, signature: inboundId.signature } }, deps.now());
      return { ...undeliverable(inboundId.message), infected: true };
    }
    if (typeof inboundId !== 'string') {
      return { ...undeliverable('The message was accepted but could not be stored for the recipient.'), storeError: inboundId.storeError };
    }
    return { ...sender, inboundId, messageId, subject: content.subject, finalDeliveryRequested: content.finalDeliveryRequested };
  }, receiveTally);
  // Never answer a notification with a notification (RFC 8098 §2.1), nor a message refused as untrusted.
  if (!('signer' in received)) return received;
  // An MDN that cannot be handed over after a few tries is given up (the sender's timeline then times out), so it
  // never holds the received message's workflow in retries.
  const notify = (disposition: Disposition, failure?: string) =>
    ctx.step(`mdn-${disposition}`, recipient, async ({ attempt }) => {
      try {
        return await sendNotification(deps, {
          from: recipient,
          to: String(received.from),
          originalMessageId: String(received.messageId),
          originalSubject: String(received.subject),
          disposition,
          ...(failure ? { failure } : {}),
          senderCertificate: Buffer.from(String(received.signer), 'base64'),
        });
      } catch (error) {
        if (error instanceof PermanentSmtpError || attempt >= MDN_ATTEMPTS) return { skipped: (error as Error).message };
        throw error;
      }
    });
  if ('undeliverable' in received) {
    await notify('failed', String(received.undeliverable));
    return received;
  }
  await notify('processed');
  // Delivered into the organization's Intake in the same step that stored it: dispatched is true at once.
  if (received.finalDeliveryRequested) await notify('dispatched');
  return received;
}

/** The 'receive-direct' workflow: per hosted recipient, open, store into Intake (or apply an MDN), then answer with MDNs. */
export function receiveDirectWorkflow(deps: DirectDeps): WorkflowHandler {
  return async (ctx) => {
    const payload = ctx.workflow.payload as unknown as ReceivePayload;
    // Read only by steps that have not run yet: once an infected message is discarded, a retry never needs it.
    let bytes: Promise<Buffer> | undefined;
    const raw = () => (bytes ??= deps.blobs.get(payload.blobId).then((b) => Buffer.from(b)));
    let infected = 0;
    for (const recipient of payload.recipients) if ('infected' in (await receiveFor(deps, ctx, raw, recipient))) infected++;
    // Quarantined for every recipient: nothing of it is kept (the message as received over SMTP included).
    if (infected > 0 && infected === payload.recipients.length) await ctx.step('discard-infected', payload.blobId, async () => ({ deleted: await deps.blobs.delete(payload.blobId) }));
  };
}
