import type { z } from 'zod';
import { downloadMessages as text, type Download, type downloadInput, type downloadQuery, type PublishedDownload } from '@clinicrelay/contracts/downloads.ts';
import type { Database } from '../../db/client.ts';
import type { Scanner } from '../../platform/antivirus/scanner.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface DownloadsDeps {
  db: Database;
  now: () => Date;
  blobs: BlobStore;
  scanner: Scanner;
}

export type DownloadFields = z.output<typeof downloadInput>;
export interface DownloadFile {
  fileName: string;
  bytes: Buffer;
}

// Who asks for the published list or a file: an organization's user, or platform staff (no organization).
export interface DownloadReader {
  organizationId: string | null;
  isSystemAdmin: boolean;
}

// The file is always sent as an attachment, so the type only tells the browser what it saves.
const CONTENT_TYPES: Record<string, string> = {
  '.exe': 'application/vnd.microsoft.portable-executable',
  '.msi': 'application/x-msi',
  '.zip': 'application/zip',
  '.pdf': 'application/pdf',
  '.dmg': 'application/x-apple-diskimage',
  '.pkg': 'application/octet-stream',
  '.deb': 'application/vnd.debian.binary-package',
  '.rpm': 'application/x-rpm',
  '.gz': 'application/gzip',
  '.txt': 'text/plain',
};
const contentTypeOf = (fileName: string) => CONTENT_TYPES[/\.[^.]+$/.exec(fileName.toLowerCase())?.[0] ?? ''] ?? 'application/octet-stream';

const downloadUrl = (id: string) => `/api/downloads/${id}/download`;

const toDownload = (row: q.DownloadRow): Download => ({
  id: row.id,
  displayName: row.displayName,
  downloadTag: row.downloadTag,
  name: row.name,
  description: row.description,
  brandId: row.brandId,
  brandName: row.brandName,
  platform: { os: row.platformOs, version: row.platformVersion, supportedVersions: row.supportedVersions },
  isDownloadable: row.isDownloadable,
  downloadOnFree: row.downloadOnFree,
  isVisible: row.isVisible,
  isActive: row.isActive,
  version: row.version,
  fileName: row.fileName,
  sizeInBytes: row.sizeInBytes,
  contentType: row.contentType,
  sha256: row.sha256,
  downloadUrl: downloadUrl(row.id),
  createDate: row.createdAt.toISOString(),
  modifiedDate: row.modifiedAt.toISOString(),
});

const toPublished = (row: q.DownloadRow): PublishedDownload => {
  const { id, displayName, name, description, platform, version, isDownloadable, fileName, sizeInBytes, downloadUrl: url, modifiedDate } = toDownload(row);
  return { id, displayName, name, description, platform, version, isDownloadable, fileName, sizeInBytes, downloadUrl: url, modifiedDate };
};

const versionTaken = () => badRequest(text.versionTaken, { version: [text.versionTaken] });
const fileRequired = () => badRequest(text.fileRequired, { file: [text.fileRequired] });

const columnsOf = (input: DownloadFields) => ({
  displayName: input.displayName,
  downloadTag: input.downloadTag,
  name: input.name,
  description: input.description,
  brandId: input.brandId,
  platformOs: input.platform.os,
  platformVersion: input.platform.version,
  supportedVersions: input.platform.supportedVersions,
  isDownloadable: input.isDownloadable,
  downloadOnFree: input.downloadOnFree,
  isVisible: input.isVisible,
  version: input.version,
});

// The rules a save checks before anything is stored: a known brand and a version new for its tag.
async function checkFields(deps: DownloadsDeps, input: DownloadFields, exceptId?: string) {
  if (input.brandId && !(await q.brandExists(deps.db, input.brandId))) throw badRequest(text.brandUnknown, { brandId: [text.brandUnknown] });
  if (input.version && (await q.versionTaken(deps.db, input.downloadTag, input.version, exceptId))) throw versionTaken();
}

// Scanned like every file a user hands us (attachments); an unavailable scanner throws, so nothing is stored unscanned.
async function scan(deps: DownloadsDeps, caller: AdminCaller, file: DownloadFile) {
  const verdict = await deps.scanner.scan(file.bytes);
  if (verdict.clean) return;
  await writeAudit(deps.db, { eventType: 'UploadRefusedInfected', ...auditedByAdmin(caller), details: { area: 'downloads', signature: verdict.signature, sizeInBytes: file.bytes.length } }, deps.now());
  const message = text.infected(verdict.signature);
  throw badRequest(message, { file: [message] });
}

const withUniqueVersion = async <T>(save: () => Promise<T>) => {
  try {
    return await save();
  } catch (error) {
    // Someone saved the same tag and version a moment ago.
    if (isUniqueViolation(error)) throw versionTaken();
    throw error;
  }
};

// Platform staff outside an organization see everything published; an organization its brand's and plan's files.
async function audienceOf(deps: DownloadsDeps, reader: DownloadReader): Promise<q.Audience | null> {
  if (!reader.organizationId) return null;
  return (await q.organizationAudience(deps.db, reader.organizationId)) ?? { brandId: null, isFree: true };
}

export async function listPublished(deps: DownloadsDeps, reader: DownloadReader) {
  return (await q.findPublished(deps.db, await audienceOf(deps, reader))).map(toPublished);
}

export async function listDownloads(deps: DownloadsDeps, query: z.output<typeof downloadQuery>) {
  const page = await q.findDownloadPage(deps.db, query, query);
  return { items: page.items.map(toDownload), totalCount: page.totalCount };
}

export async function getDownload(deps: DownloadsDeps, id: string) {
  const row = await q.findById(deps.db, id);
  if (!row) throw notFound();
  return toDownload(row);
}

/** POST /api/downloads/upload: a new download, inactive until activated. */
export async function uploadDownload(deps: DownloadsDeps, caller: AdminCaller, input: DownloadFields, file: DownloadFile | undefined) {
  if (!file) throw fileRequired();
  await checkFields(deps, input);
  await scan(deps, caller, file);
  const by = caller.session.userId;
  const id = await withUniqueVersion(() =>
    deps.db.transaction(async (tx) => {
      const stored = await deps.blobs.put(file.bytes, { organizationId: null }, tx);
      const now = deps.now();
      const created = await q.insert(tx, {
        ...columnsOf(input),
        isActive: false,
        blobId: stored.id,
        fileName: file.fileName,
        sizeInBytes: stored.sizeInBytes,
        contentType: contentTypeOf(file.fileName),
        sha256: stored.sha256,
        createdBy: by,
        modifiedBy: by,
        createdAt: now,
        modifiedAt: now,
      });
      await writeAudit(tx, { eventType: 'DownloadCreated', ...auditedByAdmin(caller), details: { id: created, displayName: input.displayName, fileName: file.fileName, sha256: stored.sha256 } }, now);
      return created;
    }),
  );
  return getDownload(deps, id);
}

/** PUT /api/downloads/{id}/update: the fields, and the file when a new one is given (the old blob is then removed). */
export async function updateDownload(deps: DownloadsDeps, caller: AdminCaller, id: string, input: DownloadFields, file: DownloadFile | undefined) {
  if (!(await q.findById(deps.db, id))) throw notFound();
  await checkFields(deps, input, id);
  if (file) await scan(deps, caller, file);
  const replaced = await withUniqueVersion(() =>
    deps.db.transaction(async (tx) => {
      const before = await q.findById(tx, id, true);
      if (!before) throw notFound();
      const stored = file && (await deps.blobs.put(file.bytes, { organizationId: null }, tx));
      const now = deps.now();
      await q.update(tx, id, {
        ...columnsOf(input),
        ...(file && stored ? { blobId: stored.id, fileName: file.fileName, sizeInBytes: stored.sizeInBytes, contentType: contentTypeOf(file.fileName), sha256: stored.sha256 } : {}),
        modifiedBy: caller.session.userId,
        modifiedAt: now,
      });
      await writeAudit(tx, { eventType: 'DownloadUpdated', ...auditedByAdmin(caller), details: { id, displayName: input.displayName, fileReplaced: !!stored } }, now);
      return stored ? before.blobId : null;
    }),
  );
  // After the commit: the old file's bytes are referenced no more.
  if (replaced) await deps.blobs.delete(replaced);
  return getDownload(deps, id);
}

export async function setDownloadActive(deps: DownloadsDeps, caller: AdminCaller, id: string, isActive: boolean) {
  await deps.db.transaction(async (tx) => {
    const row = await q.findById(tx, id, true);
    if (!row) throw notFound();
    const now = deps.now();
    await q.update(tx, id, { isActive, modifiedBy: caller.session.userId, modifiedAt: now });
    await writeAudit(tx, { eventType: isActive ? 'DownloadActivated' : 'DownloadDeactivated', ...auditedByAdmin(caller), details: { id, displayName: row.displayName } }, now);
  });
  return getDownload(deps, id);
}

export async function deleteDownload(deps: DownloadsDeps, caller: AdminCaller, id: string) {
  const removed = await deps.db.transaction(async (tx) => {
    const row = await q.remove(tx, id);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'DownloadDeleted', ...auditedByAdmin(caller), details: { id, displayName: row.displayName } }, deps.now());
    return row;
  });
  await deps.blobs.delete(removed.blobId);
  return { ok: true as const };
}

/**
 * GET /api/downloads/{id}/download: for an organization's user only a published file of their brand and plan that is
 * downloadable (404 otherwise, as if it did not exist); system administrators may fetch any file they published.
 */
export async function downloadFile(deps: DownloadsDeps, reader: DownloadReader, id: string) {
  const row = await q.findById(deps.db, id);
  if (!row) throw notFound();
  if (!reader.isSystemAdmin) {
    if (!row.isDownloadable || !(await q.isPublishedTo(deps.db, id, await audienceOf(deps, reader)))) throw notFound();
  }
  return { fileName: row.fileName, contentType: row.contentType, bytes: await deps.blobs.get(row.blobId) };
}
