import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import * as messagesQ from '../messages/queries.ts';
import { organizationWithSettings } from '../organization-settings/service.ts';
import { renderDeliverySummary, type DeliverySummaryInput } from './render.ts';

export interface DeliverySummaryDeps {
  db: Database;
  now: () => Date;
}

export type Caller = OrgCaller;

export const DELIVERY_SUMMARY_WORKFLOW = 'delivery-summary';

type SentMessage = NonNullable<Awaited<ReturnType<typeof messagesQ.findById>>>;

// A summary exists only for a message the organization sent; drafts, Intake and strangers' messages do not have one.
export async function sentMessageOf(db: DbOrTx, organizationId: string, id: string): Promise<SentMessage> {
  const row = await messagesQ.findById(db, organizationId, id);
  if (!row || row.direction !== 'Outbound' || row.isDraft) throw notFound();
  return row;
}

function ready(message: SentMessage) {
  if (!message.isReadyForDeliverySummary) throw new AppError(409, releaseMessages.deliverySummaryNotReady);
}

// The file name carries the sent date only: no subject, patient or recipient (PHI) in a file name.
export const summaryFileName = (message: SentMessage, now: Date) => `delivery-summary-${(message.messageDate ?? now).toISOString().slice(0, 10)}.pdf`;

export async function summaryInput(db: DbOrTx, message: SentMessage, generatedAt: Date): Promise<DeliverySummaryInput> {
  const [organization, patient, deliveries, attachments] = await Promise.all([
    organizationWithSettings(db, message.organizationId),
    messagesQ.findPatient(db, message.id),
    messagesQ.findDeliveries(db, [message.id]),
    messagesQ.findAttachments(db, [message.id]),
  ]);
  const patientName = patient ? [patient.firstName, patient.middleName, patient.lastName].filter(Boolean).join(' ') || null : null;
  return {
    brandName: organization.settings.brandName,
    organizationName: organization.name,
    subject: message.subject,
    fromAddress: message.fromAddress,
    sentDate: message.messageDate,
    patient: patient ? { name: patientName, birthDate: patient.birthDate } : null,
    recipients: deliveries.map((d) => ({
      recipient: d.recipient,
      channel: d.channel,
      status: d.status,
      reason: d.reason,
      updatedAt: d.updatedAt,
      deliveredAt: d.deliveredAt,
      timeline: d.timeline.map((event) => ({ stage: event.stage, at: event.at, detail: event.detail })),
    })),
    // What was sent: the attachments selected at send.
    attachments: attachments
      .filter((a) => a.isSelected)
      .map((a) => ({ fileName: a.fileName, documentType: a.meta?.documentType ?? null, documentDate: a.meta?.documentDate ?? null, sizeInBytes: a.sizeInBytes })),
    generatedAt,
  };
}

// GET /api/messages/{id}/deliverysummary.
export async function download(deps: DeliverySummaryDeps, caller: Caller, id: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  const message = await sentMessageOf(deps.db, caller.organizationId, id);
  const organization = await organizationWithSettings(deps.db, caller.organizationId);
  if (!organization.settings.deliverySummaryEnableDownload) throw new AppError(403, releaseMessages.deliverySummaryDisabled);
  ready(message);
  const now = deps.now();
  const bytes = await renderDeliverySummary(await summaryInput(deps.db, message, now));
  await writeAudit(
    deps.db,
    { eventType: 'DeliverySummaryDownloaded', userId: caller.session.userId, userName: caller.session.userName, organizationId: caller.organizationId, ip: caller.ip ?? null, correlationId: id },
    now,
  );
  return { bytes, fileName: summaryFileName(message, now) };
}

// POST /api/messages/{id}/deliverysummary/sendtointake: answers at once; the workflow puts the PDF in Intake.
export async function sendToIntake(deps: DeliverySummaryDeps, caller: Caller, id: string): Promise<{ message: string }> {
  const message = await sentMessageOf(deps.db, caller.organizationId, id);
  ready(message);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // requestedBy: the summary lands in the requester's own Intake ("go to My Intake"), assigned to them.
    const workflowId = await enqueue(tx, {
      type: DELIVERY_SUMMARY_WORKFLOW,
      organizationId: caller.organizationId,
      correlationId: id,
      payload: { messageId: id, requestedBy: caller.session.userId },
    });
    await messagesQ.insertEvent(tx, {
      messageId: id,
      organizationId: caller.organizationId,
      userId: caller.session.userId,
      eventType: 'DeliverySummaryRequested',
      details: { workflowId },
      createdAt: now,
    });
    await writeAudit(
      tx,
      {
        eventType: 'DeliverySummaryRequested',
        userId: caller.session.userId,
        userName: caller.session.userName,
        organizationId: caller.organizationId,
        ip: caller.ip ?? null,
        correlationId: id,
        details: { workflowId },
      },
      now,
    );
  });
  return { message: releaseMessages.deliverySummaryQueued };
}
