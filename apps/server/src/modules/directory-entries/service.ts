import { directoryEntryMessages as text, directoryServiceEntryTypes, type DirectoryServiceEntry } from '@clinicrelay/contracts/directory-entries.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { entryColumns, searchTermOf } from './entry-fields.ts';
import * as q from './queries.ts';

export interface DirectoryEntriesDeps {
  db: Database;
  now: () => Date;
}

// The stored JSON with the service's own fields, which always win over keys of the same name.
export const entryOf = (row: q.EntryRow): DirectoryServiceEntry => ({
  ...row.data,
  id: row.id,
  tenantId: row.tenantId,
  entryType: row.entryType as DirectoryServiceEntry['entryType'],
  isSystemGenerated: row.isSystemGenerated,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const audit = (deps: DirectoryEntriesDeps, caller: AdminCaller, eventType: string, row: { id: string; tenantId: string }) =>
  writeAudit(deps.db, { eventType, ...auditedByAdmin(caller), details: { entryId: row.id, tenantId: row.tenantId } }, deps.now());

export const entryTypes = () => directoryServiceEntryTypes.map((t) => ({ ...t }));

export async function listEntries(deps: DirectoryEntriesDeps, query: { pageNumber: number; pageSize: number; search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }) {
  const [rows, totalCount] = await q.findPage(deps.db, {
    offset: (query.pageNumber - 1) * query.pageSize,
    limit: query.pageSize,
    term: searchTermOf(query.search),
    raw: query.search,
    descending: query.sortDir === 'desc',
  });
  return { items: rows.map(entryOf), totalCount };
}

// GET /search/{term}: the first 50 entries the term finds (name prefix, Direct address or NPI).
export async function searchEntries(deps: DirectoryEntriesDeps, term: string) {
  const [rows] = await q.findPage(deps.db, { offset: 0, limit: 50, term: searchTermOf(term), raw: term });
  return rows.map(entryOf);
}

export async function getEntry(deps: DirectoryEntriesDeps, tenantId: string, id: string) {
  const row = await q.findById(deps.db, tenantId, id);
  if (!row) throw notFound();
  return entryOf(row);
}

// A client never makes an entry system-generated: the platform writes those itself (the seed, syncs).
function refuseSystemFlag(body: Record<string, unknown>, current: boolean) {
  if (body.isSystemGenerated !== undefined && body.isSystemGenerated !== current) throw badRequest(text.systemGeneratedReadOnly, { isSystemGenerated: [text.systemGeneratedReadOnly] });
}

export async function createEntry(deps: DirectoryEntriesDeps, caller: AdminCaller, body: Record<string, unknown>) {
  refuseSystemFlag(body, false);
  const now = deps.now();
  const row = await q.insert(deps.db, { ...entryColumns(body), isSystemGenerated: false, createdBy: caller.session.userId, updatedAt: now });
  await audit(deps, caller, 'DirectoryEntryCreated', row);
  return entryOf(row);
}

/** Writes an entry the platform generates itself (the demo seed); not reachable from the API. */
export const insertSystemEntry = (deps: DirectoryEntriesDeps, body: Record<string, unknown>) =>
  q.insert(deps.db, { ...entryColumns(body), isSystemGenerated: true, updatedAt: deps.now() }).then(entryOf);

// PUT: the body is the whole entry again, with its id and tenantId (the free JSON replaces the stored one).
export async function updateEntry(deps: DirectoryEntriesDeps, caller: AdminCaller, body: Record<string, unknown>) {
  const id = typeof body.id === 'string' ? body.id : '';
  const tenantId = typeof body.tenantId === 'string' ? body.tenantId : '';
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) || !tenantId) throw badRequest(text.idRequired, { id: [text.idRequired] });
  const existing = await q.findById(deps.db, tenantId, id);
  if (!existing) throw notFound();
  refuseSystemFlag(body, existing.isSystemGenerated);
  const row = await q.update(deps.db, tenantId, id, { ...entryColumns(body), updatedAt: deps.now() });
  if (!row) throw notFound();
  await audit(deps, caller, 'DirectoryEntryUpdated', row);
  return entryOf(row);
}

export async function deleteEntry(deps: DirectoryEntriesDeps, caller: AdminCaller, tenantId: string, id: string) {
  if (!(await q.remove(deps.db, tenantId, id))) throw notFound();
  await audit(deps, caller, 'DirectoryEntryDeleted', { id, tenantId });
  return { ok: true as const };
}
