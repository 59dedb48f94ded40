import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import type { DbOrTx } from '../../db/client.ts';
import * as attachmentsQ from '../attachments/queries.ts';
import type { ExtractionResult } from './extract-in-worker.ts';
import * as q from './queries.ts';

export const EXTRACTION_WORKFLOW = 'extract-patient';

interface ExtractionPayload {
  extractionId: string;
}

// The PDF an attachment is read from: the file itself for a PDF (its own preview), else its rendition.
export const pdfBlobIdOf = (row: attachmentsQ.AttachmentRow): string | null => (row.previewStatus === 'Available' ? row.previewBlobId : null);

// Enqueued in the transaction that creates the run, so the two commit together.
export async function enqueueExtraction(tx: DbOrTx, run: { id: string; organizationId: string; attachmentId: string }) {
  const payload: ExtractionPayload = { extractionId: run.id };
  await enqueue(tx, { type: EXTRACTION_WORKFLOW, organizationId: run.organizationId, correlationId: run.attachmentId, payload: { ...payload }, maxAttempts: 3 });
}

// Reads the patient from the attachment's PDF and records the run's outcome and measures. A PDF that
// cannot be read is Failed at once (a retry would fail the same way); other errors are retried, and the
// run is marked Failed on the last attempt so the client's polling ends.
export function extractionWorkflow(deps: { blobs: BlobStore; extract: (pdf: Uint8Array, today: Date, organizationId: string) => Promise<ExtractionResult> }): WorkflowHandler {
  return async (ctx) => {
    const { extractionId } = ctx.workflow.payload as unknown as ExtractionPayload;
    const run = await q.findByIdUnscoped(ctx.db, extractionId);
    if (!run || run.status !== 'Processing') return;
    const failed = () => q.updateIfProcessing(ctx.db, run.id, { status: 'Failed', error: true, completedAt: ctx.now() });
    try {
      const attachment = await attachmentsQ.findByIdUnscoped(ctx.db, run.attachmentId);
      const blobId = attachment && pdfBlobIdOf(attachment);
      if (!blobId) {
        await failed();
        return;
      }
      const result = await deps.extract(await deps.blobs.get(blobId), ctx.now(), run.organizationId);
      ctx.signal.throwIfAborted();
      await q.updateIfProcessing(ctx.db, run.id, {
        status: result.error ? 'Failed' : 'Completed',
        patient: result.error ? null : result.patient,
        elapsedMs: result.elapsedMs,
        noText: result.noText,
        error: result.error,
        noMatch: result.noMatch,
        conflicts: result.conflicts,
        perfectMatch: result.perfectMatch,
        confidenceIsVeryHigh: result.confidenceIsVeryHigh,
        severalPeople: result.severalPeople,
        hits: result.hits,
        completedAt: ctx.now(),
      });
    } catch (error) {
      if (!ctx.signal.aborted && ctx.workflow.attempts >= ctx.workflow.maxAttempts) await failed();
      throw error;
    }
  };
}
