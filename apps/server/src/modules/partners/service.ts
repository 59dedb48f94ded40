import type { partnerInput, partnerQuery } from '@clinicrelay/contracts/partners.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { notFound } from '../../platform/errors.ts';
import type { CheckedLogo } from '../../platform/files/logo.ts';
import * as q from './queries.ts';

export interface PartnersDeps {
  db: Database;
  blobs: BlobStore;
  now: () => Date;
}

// The logo's address carries its blob id, so a browser never shows a replaced logo from its cache.
const logoPath = (row: q.PartnerRow) => (row.logoBlobId ? `/api/partners/${row.id}/logo?v=${row.logoBlobId.slice(0, 8)}` : null);

const toPartner = (row: q.PartnerRow) => ({
  id: row.id,
  name: row.name,
  url: row.url,
  logo: logoPath(row),
  logoFileName: row.logoFileName,
  createdBy: row.createdBy,
  createDate: row.createdAt.toISOString(),
  modifiedBy: row.modifiedBy,
  modifiedDate: row.modifiedAt.toISOString(),
});

export async function listPartners(deps: PartnersDeps, query: z.output<typeof partnerQuery>) {
  const page = await q.findPartnerPage(deps.db, query, query);
  return { items: page.items.map(toPartner), totalCount: page.totalCount };
}

export async function getPartner(deps: PartnersDeps, id: string) {
  const row = await q.findPartner(deps.db, id);
  if (!row) throw notFound();
  return toPartner(row);
}

/** PUT /api/partners: creates when the partner has no id, updates the one it names otherwise; a new logo replaces the old. */
export async function savePartner(deps: PartnersDeps, caller: AdminCaller, input: z.output<typeof partnerInput>, logo: CheckedLogo | undefined) {
  const by = caller.session.userId;
  const url = input.url === undefined ? undefined : input.url || null;
  const { row, replaced } = await deps.db.transaction(async (tx) => {
    const before = input.id ? await q.findPartner(tx, input.id, true) : undefined;
    if (input.id && !before) throw notFound();
    const stored = logo && { logoBlobId: (await deps.blobs.put(logo.bytes, { organizationId: null }, tx)).id, logoFileName: logo.fileName, logoContentType: logo.contentType };
    if (!before) {
      const created = await q.insertPartner(tx, { name: input.name, url: url ?? null, by, ...stored });
      await writeAudit(tx, { eventType: 'PartnerCreated', ...auditedByAdmin(caller), details: { id: created.id, name: created.name, logo: !!stored } });
      return { row: created, replaced: undefined };
    }
    const updated = (await q.updatePartner(tx, before.id, { name: input.name, url, by, at: deps.now(), ...stored }))!;
    await writeAudit(tx, { eventType: 'PartnerUpdated', ...auditedByAdmin(caller), details: { id: updated.id, name: updated.name, logoReplaced: !!stored } });
    return { row: updated, replaced: stored ? before.logoBlobId : null };
  });
  // After the commit: the old logo's bytes are no longer referenced.
  if (replaced) await deps.blobs.delete(replaced);
  return toPartner(row);
}

export async function deletePartner(deps: PartnersDeps, caller: AdminCaller, id: string) {
  const row = await deps.db.transaction(async (tx) => {
    const deleted = await q.deletePartner(tx, id);
    if (!deleted) throw notFound();
    await writeAudit(tx, { eventType: 'PartnerDeleted', ...auditedByAdmin(caller), details: { id, name: deleted.name } });
    return deleted;
  });
  if (row.logoBlobId) await deps.blobs.delete(row.logoBlobId);
  return { ok: true as const };
}

export async function partnerLogo(deps: PartnersDeps, id: string) {
  const row = await q.findPartner(deps.db, id);
  if (!row?.logoBlobId || !row.logoContentType) throw notFound();
  return { bytes: await deps.blobs.get(row.logoBlobId), contentType: row.logoContentType };
}
