import { Readable } from 'node:stream';
import {
  directoryDownloadMessages as text,
  type DirectoryDownload,
  type directoryDownloadQuery,
  type directoryDownloadRequest,
} from '@clinicrelay/contracts/directory-downloads.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import { fileNameOf } from './file.ts';
import * as q from './queries.ts';
import { DIRECTORY_DOWNLOAD_WORKFLOW } from './workflow.ts';

export interface DirectoryDownloadsDeps {
  db: Database;
  now: () => Date;
  blobs: BlobStore;
}

export const fileUrlOf = (id: string) => `/api/directory/downloads/${id}/file`;

const toDownload = (row: q.DownloadRow): DirectoryDownload => ({
  id: row.id,
  fileUrl: row.status === 'Completed' ? fileUrlOf(row.id) : null,
  occurred: row.occurredAt.toISOString(),
  item: row.type as DirectoryDownload['item'],
  mode: row.mode as DirectoryDownload['mode'],
  status: row.status as DirectoryDownload['status'],
  rowCount: row.rowCount,
  sizeInBytes: row.sizeInBytes,
  hasLogMessage: !!row.logMessage,
});

export async function listDownloads(deps: DirectoryDownloadsDeps, query: z.output<typeof directoryDownloadQuery>) {
  const [rows, totalCount] = await q.findPage(deps.db, {
    offset: (query.pageNumber - 1) * query.pageSize,
    limit: query.pageSize,
    search: query.search || undefined,
    // Newest first unless asked otherwise.
    descending: query.sortDirection !== 'asc',
  });
  return { items: rows.map(toDownload), totalCount };
}

export async function logMessage(deps: DirectoryDownloadsDeps, id: string) {
  const row = await q.findById(deps.db, id);
  if (!row) throw notFound();
  // Before the workflow has finished, the log says where it is.
  return { id: row.id, logMessage: row.logMessage ?? `The download is ${row.status.toLowerCase()}.` };
}

// POST /request: the request row and its workflow in one transaction.
export async function requestDownload(deps: DirectoryDownloadsDeps, caller: AdminCaller, input: z.output<typeof directoryDownloadRequest>) {
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await q.insert(tx, { type: input.type, mode: input.mode, status: 'Pending', requestedBy: caller.session.userId, occurredAt: deps.now() });
    await enqueue(tx, { type: DIRECTORY_DOWNLOAD_WORKFLOW, correlationId: `directory-download:${inserted.id}`, payload: { downloadId: inserted.id } });
    return inserted;
  });
  await writeAudit(deps.db, { eventType: 'DirectoryDownloadRequested', ...auditedByAdmin(caller), details: { downloadId: row.id, type: row.type, mode: row.mode } }, deps.now());
  return toDownload(row);
}

// The file: its parts decrypted one at a time and sent back to back, so the server holds one part, never the file.
export async function openFile(deps: DirectoryDownloadsDeps, caller: AdminCaller, id: string) {
  const row = await q.findById(deps.db, id);
  if (!row) throw notFound();
  if (row.status !== 'Completed') throw new AppError(409, text.notReady);
  const parts = await q.findParts(deps.db, id);
  await writeAudit(deps.db, { eventType: 'DirectoryDownloadFileRead', ...auditedByAdmin(caller), details: { downloadId: id } }, deps.now());
  const blobs = deps.blobs;
  async function* bytes() {
    for (const part of parts) yield Buffer.from(await blobs.get(part.blobId));
  }
  return { fileName: fileNameOf(row), sizeInBytes: row.sizeInBytes, stream: Readable.from(bytes()) };
}
