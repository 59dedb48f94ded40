import type { Database } from '../../db/client.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import { receiveHere, type InboundPatient } from '../../transports/local.ts';
import * as messagesQ from '../messages/queries.ts';
import { renderDeliverySummary } from './render.ts';
import { summaryFileName, summaryInput } from './service.ts';

function copiedPatient(row: messagesQ.PatientRow | undefined): InboundPatient | null {
  if (!row) return null;
  const { id: _id, messageId: _m, organizationId: _o, ...patient } = row;
  return patient;
}

export interface DeliverySummaryWorkflowDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
}

// The 'delivery-summary' workflow: renders the summary and delivers it into the same organization's
// Intake. The delivery key names this workflow, so a retried step finds its copy instead of making
// a second one, while each request still gets its own.
export function deliverySummaryWorkflow(deps: DeliverySummaryWorkflowDeps): WorkflowHandler {
  return async (ctx) => {
    const { messageId } = ctx.workflow.payload as { messageId: string };
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
      return { status: 'Delivered', inboundId };
    });
  };
}
