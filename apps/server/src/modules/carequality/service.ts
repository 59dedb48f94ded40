import type { z } from 'zod';
import { carequalityMessages as text, normalizeOid, type DirectoryEntry, type directoryEntrySave } from '@clinicrelay/contracts/carequality.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface CarequalityDeps {
  db: Database;
  now: () => Date;
}

async function organizationOf(db: DbOrTx, id: string) {
  const organization = await q.findOrganization(db, id);
  if (!organization) throw notFound();
  return organization;
}

const audit = (db: DbOrTx, caller: AdminCaller, eventType: string, organizationId: string, details: Record<string, unknown>) =>
  writeAudit(db, { eventType, ...auditedByAdmin(caller), details: { organizationId, ...details } });

export async function oidsOf(deps: CarequalityDeps, organizationId: string) {
  await organizationOf(deps.db, organizationId);
  return q.findOids(deps.db, organizationId);
}

const oidTaken = () => badRequest(text.oidTaken, { value: [text.oidTaken] });

// POST (no id) adds an OID, PUT (with its id) changes one; one OID per organization is the default, so making one the
// default clears the others (the toggle of §4).
export async function saveOid(deps: CarequalityDeps, caller: AdminCaller, organizationId: string, body: { id?: string | undefined; value: string; isDefault: boolean }, mode: 'create' | 'update') {
  const value = normalizeOid(body.value);
  return deps.db.transaction(async (tx) => {
    await organizationOf(tx, organizationId);
    const others = (await q.findOids(tx, organizationId)).filter((o) => o.id !== body.id);
    if (others.some((o) => o.value === value)) throw oidTaken();
    let row;
    if (mode === 'create') row = await q.insertOid(tx, { organizationId, value, isDefault: body.isDefault });
    else {
      if (!body.id || !(await q.findOid(tx, organizationId, body.id))) throw notFound();
      row = await q.updateOid(tx, body.id, { value, isDefault: body.isDefault });
    }
    if (row.isDefault) await q.clearOtherDefaults(tx, organizationId, row.id);
    await audit(tx, caller, mode === 'create' ? 'AlternateOidCreated' : 'AlternateOidUpdated', organizationId, { oidId: row.id, value, isDefault: row.isDefault });
    return row;
  });
}

export async function deleteOid(deps: CarequalityDeps, caller: AdminCaller, organizationId: string, oidId: string) {
  await deps.db.transaction(async (tx) => {
    const row = await q.deleteOid(tx, organizationId, oidId);
    if (!row) throw notFound();
    await audit(tx, caller, 'AlternateOidDeleted', organizationId, { oidId, value: row.value });
  });
  return { ok: true as const };
}

const entryOf = (row: q.EntryRow): DirectoryEntry => ({
  id: row.id,
  organizationId: row.organizationId,
  parentOrgId: row.parentOrgId,
  isParent: row.isParent,
  isActive: row.isActive,
  responderType: row.responderType,
  address: row.address,
  city: row.city,
  state: row.state,
  zipCode: row.zipCode,
  country: row.country,
  purposeOfUseCodes: row.purposeOfUseCodes,
  displayName: row.displayName,
  legalName: row.legalName,
  homeCommunityId: row.homeCommunityId,
  otherNames: row.otherNames,
  initiatorOnly: row.initiatorOnly,
  syncedAt: row.syncedAt?.toISOString() ?? null,
});

// §4: a new entry is prefilled from the organization, active, with no responder type chosen.
const newEntryFor = (o: Awaited<ReturnType<typeof q.findOrganization>> & object): DirectoryEntry => ({
  id: null,
  organizationId: o.id,
  parentOrgId: null,
  isParent: false,
  isActive: true,
  responderType: null,
  address: o.addressStreet ?? '',
  city: o.addressCity ?? '',
  state: o.addressState ?? '',
  zipCode: o.addressZip ?? '',
  country: o.addressCountry || 'US',
  purposeOfUseCodes: o.allowedPurposeOfUseCodes,
  displayName: o.name,
  legalName: o.name,
  homeCommunityId: o.homeCommunityId,
  otherNames: [],
  initiatorOnly: false,
  syncedAt: null,
});

export async function entriesOf(deps: CarequalityDeps, organizationId: string) {
  const organization = await organizationOf(deps.db, organizationId);
  const items = (await q.findEntries(deps.db, organizationId)).map(entryOf);
  return { items, totalCount: items.length, newEntry: newEntryFor(organization) };
}

// PUT …/directoryentries creates (no id) or changes an entry, activation included. The purpose-of-use codes are the
// organization's (read-only in the modal); InitiatorOnly as responder type means initiatorOnly (§4).
export async function saveEntry(deps: CarequalityDeps, caller: AdminCaller, organizationId: string, body: z.output<typeof directoryEntrySave>) {
  if (body.organizationId !== organizationId) throw notFound();
  return deps.db.transaction(async (tx) => {
    const organization = await organizationOf(tx, organizationId);
    const values: q.EntryValues = {
      organizationId,
      parentOrgId: body.parentOrgId || null,
      isParent: body.isParent,
      isActive: body.isActive,
      responderType: body.responderType,
      address: body.address,
      city: body.city,
      state: body.state,
      zipCode: body.zipCode,
      country: body.country,
      purposeOfUseCodes: organization.allowedPurposeOfUseCodes,
      displayName: body.displayName,
      legalName: body.legalName || null,
      homeCommunityId: body.homeCommunityId ? normalizeOid(body.homeCommunityId) : null,
      otherNames: body.otherNames,
      initiatorOnly: body.responderType === 'InitiatorOnly' || body.initiatorOnly,
    };
    let row;
    if (body.id) {
      const before = await q.findEntry(tx, organizationId, body.id);
      if (!before) throw notFound();
      row = await q.updateEntry(tx, body.id, values);
      const eventType = before.isActive === row.isActive ? 'DirectoryEntryUpdated' : row.isActive ? 'DirectoryEntryActivated' : 'DirectoryEntryDeactivated';
      await audit(tx, caller, eventType, organizationId, { directoryEntryId: row.id, displayName: row.displayName });
    } else {
      row = await q.insertEntry(tx, values);
      await audit(tx, caller, 'DirectoryEntryCreated', organizationId, { directoryEntryId: row.id, displayName: row.displayName });
    }
    return entryOf(row);
  });
}

// Sandbox: publishing to the Carequality directory is simulated; the entries whose home community (else the
// organization's) is one of the OIDs are marked synced. Every OID must be one the organization has configured.
export async function syncEntries(deps: CarequalityDeps, caller: AdminCaller, organizationId: string, oids: string[]) {
  const wanted = [...new Set(oids.map(normalizeOid))];
  if (wanted.length === 0) throw badRequest(text.syncNeedsOids, { oids: [text.syncNeedsOids] });
  const organization = await organizationOf(deps.db, organizationId);
  const entries = await q.findEntries(deps.db, organizationId);
  const configured = new Set([organization.homeCommunityId, ...(await q.findOids(deps.db, organizationId)).map((o) => o.value), ...entries.map((e) => e.homeCommunityId)].filter((v): v is string => !!v));
  const unknown = wanted.filter((oid) => !configured.has(oid));
  if (unknown.length > 0) throw badRequest(text.syncUnknownOids(unknown), { oids: [text.syncUnknownOids(unknown)] });
  const synced = entries.filter((e) => wanted.includes(e.homeCommunityId ?? organization.homeCommunityId ?? ''));
  await deps.db.transaction(async (tx) => {
    await q.markSynced(tx, synced.map((e) => e.id), deps.now());
    await audit(tx, caller, 'DirectoryEntriesSynced', organizationId, { oids: wanted, synced: synced.length });
  });
  return { message: text.synced(synced.length), synced: synced.length };
}
