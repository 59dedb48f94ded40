import type { z } from 'zod';
import { eulaAdminMessages as text, type CurrentTerms, type Eula, type eulaCreateFields, eulaMessages, type eulaQuery } from '@clinicrelay/contracts/eulas.ts';
import type { Database } from '../../db/client.ts';
import { auditedBy, auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller, OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import { WorkerFailure, type WorkerPool } from '../../platform/workers/worker-pool.ts';
import * as q from './queries.ts';
import type { SanitizedTerms } from './sanitize.ts';

export interface EulasDeps {
  db: Database;
  now: () => Date;
  // The file workers: sanitizing a large or crafted document takes seconds, never on the API's thread.
  files: WorkerPool;
}

export type EulaFields = z.output<typeof eulaCreateFields>;
export interface EulaFile {
  fileName: string;
  bytes: Buffer;
}

const toEula = (row: q.EulaRow): Eula => ({
  id: row.id,
  brand: { id: row.brandId, name: row.brandName },
  version: row.version,
  type: row.type,
  active: row.isActive,
  totalUsers: row.totalUsers,
  html: row.html,
  fileName: row.fileName,
  activatedAt: row.activatedAt?.toISOString() ?? null,
  createDate: row.createdAt.toISOString(),
});

const fieldError = (field: string, message: string) => badRequest(message, { [field]: [message] });
const versionTaken = () => fieldError('version', text.versionTaken);

const sanitizeModule = new URL('./sanitize.ts', import.meta.url).href;

async function sanitizeInWorker(deps: EulasDeps, html: string): Promise<string> {
  const result = await deps.files.run<SanitizedTerms>({ module: sanitizeModule, fn: 'sanitizeTermsDocument', args: [html], organizationId: null }).catch((error: unknown) => {
    if (error instanceof WorkerFailure) throw fieldError('file', text.htmlTooComplex);
    throw error;
  });
  if ('html' in result) return result.html;
  throw fieldError('file', result.refusal === 'empty' ? text.htmlEmpty : text.htmlTooComplex);
}

export const isHtmlFileName = (fileName: string) => /\.html?$/i.test(fileName);

// The file's text: UTF-8 (a BOM is dropped); binary content (NUL bytes, invalid UTF-8) is not an html file.
function htmlText(file: EulaFile): string {
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file.bytes);
  } catch {
    throw fieldError('file', text.htmlRequired);
  }
  if (decoded.includes('\0')) throw fieldError('file', text.htmlRequired);
  return decoded;
}

export async function listEulas(deps: EulasDeps, query: z.output<typeof eulaQuery>) {
  const page = await q.findEulaPage(deps.db, query, query);
  return { items: page.items.map(toEula), totalCount: page.totalCount };
}

export async function getEula(deps: EulasDeps, id: string) {
  const row = await q.findById(deps.db, id);
  if (!row) throw notFound();
  return toEula(row);
}

/** POST /api/admin/eulas: a new, inactive terms document; its HTML is sanitized before it is stored. */
export async function createEula(deps: EulasDeps, caller: AdminCaller, input: EulaFields, file: EulaFile | undefined) {
  if (!file) throw fieldError('file', text.fileRequired);
  if (!isHtmlFileName(file.fileName)) throw fieldError('file', text.htmlRequired);
  if (!(await q.brandExists(deps.db, input.brandId))) throw fieldError('brandId', text.brandUnknown);
  if (await q.versionTaken(deps.db, input.brandId, input.version)) throw versionTaken();
  const html = await sanitizeInWorker(deps, htmlText(file));
  const by = caller.session.userId;
  let id: string;
  try {
    id = await deps.db.transaction(async (tx) => {
      const now = deps.now();
      const created = await q.insert(tx, { brandId: input.brandId, version: input.version, type: input.type, isActive: false, html, fileName: file.fileName, createdBy: by, modifiedBy: by, createdAt: now, modifiedAt: now });
      await writeAudit(tx, { eventType: 'EulaCreated', ...auditedByAdmin(caller), details: { id: created, brandId: input.brandId, version: input.version, type: input.type, fileName: file.fileName, sizeInBytes: file.bytes.length } }, now);
      return created;
    });
  } catch (error) {
    // The same brand and version saved a moment ago.
    if (isUniqueViolation(error)) throw versionTaken();
    throw error;
  }
  return getEula(deps, id);
}

/** POST /api/admin/eulas/{id}/activate: the brand's previous active document of this type is turned off. */
export async function activateEula(deps: EulasDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await q.findById(tx, id, true);
    if (!row) throw notFound();
    if (row.isActive) return;
    const now = deps.now();
    const previous = await q.activate(tx, row, caller.session.userId, now);
    await writeAudit(tx, { eventType: 'EulaActivated', ...auditedByAdmin(caller), details: { id, brandId: row.brandId, version: row.version, type: row.type, deactivated: previous.map((p) => p.version) } }, now);
  });
  return getEula(deps, id);
}

/** DELETE /api/admin/eulas/{id}: only a document nobody is asked to accept and nobody accepted. */
export async function deleteEula(deps: EulasDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await q.findById(tx, id, true);
    if (!row) throw notFound();
    if (row.isActive || row.totalUsers > 0) throw new AppError(409, text.inUse);
    await q.remove(tx, id);
    await writeAudit(tx, { eventType: 'EulaDeleted', ...auditedByAdmin(caller), details: { id, brandId: row.brandId, version: row.version, type: row.type } }, deps.now());
  });
  return { ok: true as const };
}

// The caller's organization's active EULA-type document (Privacy documents are not asked at sign-in).
async function currentFor(deps: EulasDeps, organizationId: string) {
  const brandId = await q.organizationBrand(deps.db, organizationId);
  return brandId ? q.findActive(deps.db, brandId, 'EULA') : undefined;
}

/** GET /api/eulas/current: 404 with a clear message when the brand has no active terms (a fresh installation). */
export async function currentTerms(deps: EulasDeps, caller: OrgCaller): Promise<CurrentTerms> {
  const doc = await currentFor(deps, caller.organizationId);
  if (!doc) throw new AppError(404, text.noCurrent);
  const accepted = await q.findAcceptance(deps.db, doc.id, caller.session.userId);
  return { id: doc.id, version: doc.version, type: doc.type, brandName: doc.brandName ?? doc.brandId, html: doc.html, acceptedAt: accepted?.acceptedAt.toISOString() ?? null };
}

/**
 * POST /api/eulas/{id}/accept: records the caller's acceptance once (a repeat changes nothing). Only an active document
 * of the caller's organization's brand can be accepted (any other id is not found). An Administrator accepting the
 * EULA accepts it for the organization too (organizations.isAcceptedEula, as the onboarding sequence expects).
 */
export async function acceptTerms(deps: EulasDeps, caller: OrgCaller, id: string) {
  const brandId = await q.organizationBrand(deps.db, caller.organizationId);
  const row = await q.findById(deps.db, id);
  if (!row || !brandId || row.brandId !== brandId || !row.isActive) throw notFound();
  await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const inserted = await q.insertAcceptance(tx, { eulaId: id, userId: caller.session.userId, organizationId: caller.organizationId, ip: caller.ip ?? 'unknown', acceptedAt: now });
    const isAdministrator = caller.session.roles.includes('Administrator');
    if (inserted && row.type === 'EULA' && isAdministrator) await q.markOrganizationAccepted(tx, caller.organizationId, now);
    if (inserted) await writeAudit(tx, { eventType: 'EulaAccepted', ...auditedBy(caller), details: { id, version: row.version, type: row.type, brandId, forOrganization: row.type === 'EULA' && isAdministrator } }, now);
  });
  return { message: eulaMessages.accepted };
}
