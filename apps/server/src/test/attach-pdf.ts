import type { Database } from '../db/client.ts';
import { attachments } from '../db/schema/messages.ts';
import { createBlobStore } from '../platform/blobs/blob-store.ts';

// A PDF stored and attached to a draft, selected, rendered and described: ready to send without the upload and
// rendition workflows (tests of what happens after the send).
export async function attachReadyPdf(
  db: Database,
  config: { dataDir: string; blobEncryptionKey: Uint8Array },
  draft: { messageId: string; organizationId: string },
  pdf: Uint8Array,
  fileName = 'ud-sample.pdf',
): Promise<void> {
  const blob = await createBlobStore({ db, dataDir: config.dataDir, key: config.blobEncryptionKey }).put(pdf, { organizationId: draft.organizationId });
  await db.insert(attachments).values({
    messageId: draft.messageId,
    organizationId: draft.organizationId,
    fileName,
    mimeType: 'application/pdf',
    sizeInBytes: pdf.length,
    originalBlobId: blob.id,
    currentBlobId: blob.id,
    previewBlobId: blob.id,
    previewStatus: 'Available',
    meta: { documentType: 'Referral Letter', documentDate: '2026-01-15', documentDateType: 'selected', confidentiality: 'Normal', documentDescription: 'Referral letter', patient: null },
  });
}
