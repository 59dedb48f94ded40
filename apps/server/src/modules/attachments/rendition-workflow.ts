import type { SupportedExtension } from '@clinicrelay/contracts/attachments.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { renderPdf } from '../../platform/files/file-jobs.ts';
import type { WorkerPool } from '../../platform/workers/worker-pool.ts';
import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import * as q from './queries.ts';

export const RENDITION_WORKFLOW = 'make-rendition';

// The extension a stored version is rendered as, from its media type: after a rename or a conversion
// the file name may no longer say what the bytes are.
const extensionOfMimeType: Record<string, SupportedExtension> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'text/plain': 'txt',
};

export const renderableExtension = (mimeType: string): SupportedExtension | undefined => extensionOfMimeType[mimeType];

interface RenditionPayload {
  attachmentId: string;
  blobId: string;
}

// Enqueued in the caller's transaction, so the row and its pending rendition commit together.
export async function enqueueRendition(tx: DbOrTx, row: { id: string; organizationId: string; currentBlobId: string }) {
  const payload: RenditionPayload = { attachmentId: row.id, blobId: row.currentBlobId };
  await enqueue(tx, { type: RENDITION_WORKFLOW, organizationId: row.organizationId, correlationId: row.id, payload: { ...payload } });
}

// Makes the PDF the viewer shows for an image or text attachment. A file that cannot be rendered
// (corrupt image, unsupported TIFF compression, over the worker's memory or time) is marked Failed at
// once: retrying would fail the same way. The work runs in a file worker, never on the API's event loop.
export function renditionWorkflow(deps: { blobs: BlobStore; files: WorkerPool }): WorkflowHandler {
  return async (ctx) => {
    const { attachmentId, blobId } = ctx.workflow.payload as unknown as RenditionPayload;
    const row = await q.findByIdUnscoped(ctx.db, attachmentId);
    // Deleted, or replaced by a newer version whose own workflow renders it.
    if (!row || row.currentBlobId !== blobId) return;
    const bytes = await deps.blobs.get(blobId);
    const extension = renderableExtension(row.mimeType);
    const pdf = extension ? await renderPdf(deps.files, bytes, { extension, fileName: row.fileName }, row.organizationId).catch(() => null) : null;
    // Stopped (lease lost, shutdown) rather than failed: the next worker renders it.
    ctx.signal.throwIfAborted();
    if (!pdf) {
      await q.updateIfCurrent(ctx.db, attachmentId, blobId, { previewStatus: 'Failed' });
      return;
    }
    const rendition = pdf;
    await ctx.db.transaction(async (tx) => {
      const stored = await deps.blobs.put(rendition, { organizationId: row.organizationId }, tx);
      await q.updateIfCurrent(tx, attachmentId, blobId, { previewBlobId: stored.id, previewStatus: 'Available' });
    });
  };
}
