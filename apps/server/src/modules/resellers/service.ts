import { REGISTER_PATH, resellerMessages as text, type resellerInput, type resellerQuery } from '@clinicrelay/contracts/resellers.ts';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import type { CheckedLogo } from '../../platform/files/logo.ts';
import * as q from './queries.ts';
import { appUrl } from '../../platform/mail/layout.ts';

export interface ResellersDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
  publicUrl: string;
}

// The same fallback as the invitation links when PUBLIC_URL is not set (development).
const baseUrl = (publicUrl: string) => appUrl(publicUrl, '');
export const registerUrl = (publicUrl: string, urlCode: string) => `${baseUrl(publicUrl)}${REGISTER_PATH}${urlCode}`;

export const logoPath = (row: q.ResellerRow) => (row.logoBlobId ? `/api/resellers/${row.id}/logo?v=${row.logoBlobId.slice(0, 8)}` : null);

const toReseller = (deps: ResellersDeps, row: q.ResellerRow) => ({
  id: row.id,
  type: row.type,
  name: row.name,
  affiliateUrlTag: row.affiliateUrlTag,
  sponsor: row.sponsor,
  registrationText: row.registrationText,
  welcomeText: row.welcomeText,
  welcomeMessageId: row.welcomeMessageId,
  urlCode: row.urlCode,
  fullUrl: row.urlCode ? registerUrl(deps.publicUrl, row.urlCode) : null,
  logoUrl: logoPath(row),
  logoFileName: row.logoFileName,
  logoBackgroundColor: row.logoBackgroundColor,
  bypassTos: row.bypassTos,
  faxHandledByReseller: row.faxHandledByReseller,
});

const urlCodeError = (message: string) => badRequest(message, { urlCode: [message] });

// "Contains a reserved word" is read as the code or one of its parts between - and _: matching inside words would
// refuse "happy" for "app".
async function refuseReserved(db: DbOrTx, code: string) {
  const key = q.urlCodeKeyOf(code);
  if (await q.anyReserved(db, [...new Set([key, ...key.split(/[-_]/)])])) throw urlCodeError(text.urlReserved);
}

/**
 * The §5 checks that need the server: the register URL is well-formed, no part of the code is a reserved word, no
 * other reseller has it.
 */
async function checkUrlCode(deps: ResellersDeps, db: DbOrTx, code: string, exceptId?: string) {
  try {
    new URL(registerUrl(deps.publicUrl, code));
  } catch {
    throw urlCodeError(text.urlInvalid);
  }
  await refuseReserved(db, code);
  if (await q.urlCodeTaken(db, code, exceptId)) throw urlCodeError(text.urlCodeExists);
}

export async function listResellers(deps: ResellersDeps, query: z.output<typeof resellerQuery>) {
  const page = await q.findResellerPage(deps.db, query, query);
  return { resellers: page.items.map((row) => toReseller(deps, row)), totalResellersCount: page.totalCount };
}

export async function getReseller(deps: ResellersDeps, id: string) {
  const row = await q.findReseller(deps.db, id);
  if (!row) throw notFound();
  return toReseller(deps, row);
}

/** GET /api/resellers/urlexists: whether another reseller already has the code (the modal's live check). */
export const urlCodeExists = (deps: ResellersDeps, code: string, exceptId?: string) => (code ? q.urlCodeTaken(deps.db, code, exceptId || undefined) : Promise.resolve(false));

/** GET /api/resellers/urlcode: the register URL a code gives, after every check but the duplicate one. */
export async function urlCodeUrl(deps: ResellersDeps, urlCode: string) {
  await refuseReserved(deps.db, urlCode);
  return { urlCode, fullUrl: registerUrl(deps.publicUrl, urlCode) };
}

const valuesOf = (input: z.output<typeof resellerInput>, logo: { logoBlobId: string; logoFileName: string; logoContentType: string } | undefined): q.ResellerValues => ({
  type: input.type,
  name: input.name,
  affiliateUrlTag: input.affiliateUrlTag || null,
  sponsor: input.sponsor || null,
  registrationText: input.registrationText || null,
  welcomeText: input.welcomeText || null,
  welcomeMessageId: input.welcomeMessageId ?? null,
  urlCode: input.urlCode,
  urlCodeKey: q.urlCodeKeyOf(input.urlCode),
  logoBackgroundColor: input.logoBackgroundColor ?? null,
  bypassTos: input.bypassTos,
  faxHandledByReseller: input.faxHandledByReseller,
  ...logo,
});

// Two saves of one code at once: the unique index keeps one, the other gets the duplicate text.
async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw urlCodeError(text.urlCodeExists);
    throw error;
  }
}

/** POST /api/resellers (id undefined) and PUT /api/resellers/{id}; a new logo replaces the old one. */
export async function saveReseller(deps: ResellersDeps, caller: AdminCaller, id: string | undefined, input: z.output<typeof resellerInput>, logo: CheckedLogo | undefined) {
  const by = caller.session.userId;
  const { row, replaced } = await uniquely(() =>
    deps.db.transaction(async (tx) => {
      const before = id ? await q.findReseller(tx, id, true) : undefined;
      if (id && !before) throw notFound();
      await checkUrlCode(deps, tx, input.urlCode, id);
      const stored = logo && { logoBlobId: (await deps.blobs.put(logo.bytes, { organizationId: null }, tx)).id, logoFileName: logo.fileName, logoContentType: logo.contentType };
      if (!before) {
        const created = await q.insertReseller(tx, { ...valuesOf(input, stored), by });
        await writeAudit(tx, { eventType: 'ResellerCreated', ...auditedByAdmin(caller), details: { id: created.id, name: created.name, urlCode: created.urlCode } });
        return { row: created, replaced: null };
      }
      const updated = (await q.updateReseller(tx, before.id, { ...valuesOf(input, stored), by, at: deps.now() }))!;
      await writeAudit(tx, { eventType: 'ResellerUpdated', ...auditedByAdmin(caller), details: { id: updated.id, name: updated.name, urlCode: updated.urlCode, logoReplaced: !!stored } });
      return { row: updated, replaced: stored ? before.logoBlobId : null };
    }),
  );
  if (replaced) await deps.blobs.delete(replaced);
  return toReseller(deps, row);
}

/** A reseller an organization still names (as affiliate or licensing reseller) stays: the organization would lose its plan terms. */
export async function deleteReseller(deps: ResellersDeps, caller: AdminCaller, id: string) {
  const row = await deps.db.transaction(async (tx) => {
    const found = await q.findReseller(tx, id, true);
    if (!found) throw notFound();
    const using = await q.organizationsUsing(tx, id);
    if (using > 0) throw badRequest(text.inUse(using));
    await q.deleteReseller(tx, id);
    await writeAudit(tx, { eventType: 'ResellerDeleted', ...auditedByAdmin(caller), details: { id, name: found.name } });
    return found;
  });
  if (row.logoBlobId) await deps.blobs.delete(row.logoBlobId);
  return { ok: true as const };
}

export async function resellerLogo(deps: ResellersDeps, id: string) {
  const row = await q.findReseller(deps.db, id);
  if (!row?.logoBlobId || !row.logoContentType) throw notFound();
  return { bytes: await deps.blobs.get(row.logoBlobId), contentType: row.logoContentType };
}
