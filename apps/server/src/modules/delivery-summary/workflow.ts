import type { Database } from '../../db/client.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import { receiveHere, type InboundPatient } from '../../transports/local.ts';
import * as messagesQ from '../messages/queries.ts';
import { findMembership } from '../users/queries.ts';
import { renderDeliverySummary } from './render.ts';
import { summaryFileName, summaryInput } from './service.ts';

function copiedPatient(row: messagesQ.PatientRow | undefined): InboundPatient | null {
  if (!row) return null;
  const { id: _id, messageId: _m, organizationId: _o, ...patient } = row;
  return patient;
}

// Assigned only while the requester is still a member of the organization (a removed user's summary stays
// unassigned, for the administrators).
async function assignToRequester(db: Database, organizationId: string, inboundId: string, userId: string) {
  if (!(await findMembership(db, organizationId, userId))) return;
  await messagesQ.update(db, inboundId, { assignedUserId: userId });
}

export interface DeliverySummaryWorkflowDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
}

// The 'delivery-summary' workflow: renders the summary and delivers it into the same organization's
// Intake, assigned to the user who asked for it, so it shows in their Intake under My Intake whatever
// addresses they are given. The delivery key names this workflow, so a retried step finds its copy
// instead of making a second one, while each request still gets its own.
export function deliverySummaryWorkflow(deps: DeliverySummaryWorkflowDeps): WorkflowHandler {
  return async (ctx) => {
    const { messageId, requestedBy } = ctx.workflow.payload as { messageId: string; requestedBy?: string };
    const organizationId = ctx.workflow.organizationId;
    if (!organizationId) return;
    await ctx.step('deliver', 'intake', async () => {
      const message = await messagesQ.findById(deps.db, organizationId, messageId);
      // Deleted since the request: nothing to summarize.
      if (!message || message.direction !== 'Outbound' || message.isDraft) return { status: 'Missing' };
      const now = deps.now();
      const pdf = await renderDeliverySummary(await summaryInput(deps.db, message, now));
      const patient = copiedPatient(await messagesQ.findPatient(deps.db, messageId));
      const inboundId = await receiveHere(
        { db: deps.db, blobs: deps.blobs, now: deps.now },
        {
          organizationId,
          sourceType: 'DeliverySummary',
          sentMessageId: messageId,
          // Addressed to the organization's own From address; each request makes its own copy.
          recipient: message.fromAddress ?? '',
          deliveryKey: `delivery-summary:${ctx.workflow.id}`,
          fromAddress: message.fromAddress ?? '',
          subject: `Delivery Summary: ${message.subject}`,
          body: '',
          isUrgent: false,
          patient,
          properties: null,
          attachments: [
            {
              fileName: summaryFileName(message, now),
              mimeType: 'application/pdf',
              bytes: pdf,
              preview: 'same',
              previewStatus: 'Available',
              meta: { documentType: null, documentDate: now.toISOString().slice(0, 10), documentDateType: 'today', confidentiality: 'Normal', documentDescription: 'Delivery Summary', patient: null },
            },
          ],
        },
      );
      // After the copy commits, and again on a retried step (receiveHere finds the copy): idempotent.
      if (requestedBy) await assignToRequester(deps.db, organizationId, inboundId, requestedBy);
      return { status: 'Delivered', inboundId };
    });
  };
}
