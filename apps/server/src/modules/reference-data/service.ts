import { referenceDataMessages as text, type reservedWordInput, type reservedWordQuery, type specialtyInput, type specialtyQuery } from '@clinicrelay/contracts/reference-data.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface ReferenceDataDeps {
  db: Database;
  now: () => Date;
}

// A unique name, checked before the write and guarded by the unique index for two saves at once.
async function uniquely<T>(write: () => Promise<T | undefined>, message: string): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(message, { name: [message] });
    throw error;
  }
}
const taken = (message: string) => badRequest(message, { name: [message] });

// Reserved words (back-office-a §7): names subdomains and reseller URL codes may not use.

export const listReservedWords = (deps: ReferenceDataDeps, query: z.output<typeof reservedWordQuery>) =>
  q.findReservedWordPage(deps.db, query, query);

export async function getReservedWord(deps: ReferenceDataDeps, id: string) {
  return (await q.findReservedWord(deps.db, id)) ?? Promise.reject(notFound());
}

export async function createReservedWord(deps: ReferenceDataDeps, caller: AdminCaller, input: z.output<typeof reservedWordInput>) {
  return deps.db.transaction(async (tx) => {
    const row = await q.insertReservedWord(tx, { ...input, by: caller.session.userId });
    if (!row) throw taken(text.reservedWordExists);
    await writeAudit(tx, { eventType: 'ReservedWordCreated', ...auditedByAdmin(caller), details: { id: row.id, name: row.name } });
    return row;
  });
}

export async function updateReservedWord(deps: ReferenceDataDeps, caller: AdminCaller, id: string, input: z.output<typeof reservedWordInput>) {
  return deps.db.transaction(async (tx) => {
    const row = await uniquely(() => q.updateReservedWord(tx, id, { ...input, by: caller.session.userId, at: deps.now() }), text.reservedWordExists);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'ReservedWordUpdated', ...auditedByAdmin(caller), details: { id, name: row.name } });
    return row;
  });
}

export async function deleteReservedWord(deps: ReferenceDataDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await q.deleteReservedWord(tx, id);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'ReservedWordDeleted', ...auditedByAdmin(caller), details: { id, name: row.name } });
  });
  return { ok: true as const };
}

/** GET /api/reservedwords/exists: whether another word already has the name (the edit form's check). */
export const reservedWordExists = (deps: ReferenceDataDeps, name: string, exceptId?: string) => q.reservedWordTaken(deps.db, name, exceptId);

/** GET /api/reservedwords/isreservedword: the subdomain and URL-code checks. */
export const isReservedWord = (deps: ReferenceDataDeps, name: string) => q.reservedWordTaken(deps.db, name);

// Organization specialties.

export const listSpecialties = (deps: ReferenceDataDeps, query: z.output<typeof specialtyQuery>) =>
  q.findSpecialtyPage(deps.db, query.search, { pageNumber: query.pageStart, pageSize: query.pageSize });

export async function allSpecialties(deps: ReferenceDataDeps) {
  return (await q.findSpecialtyPage(deps.db, undefined, { pageNumber: 1, pageSize: 5000 })).items;
}

export async function getSpecialty(deps: ReferenceDataDeps, id: number) {
  return (await q.findSpecialty(deps.db, id)) ?? Promise.reject(notFound());
}

export async function createSpecialty(deps: ReferenceDataDeps, caller: AdminCaller, input: z.output<typeof specialtyInput>) {
  return deps.db.transaction(async (tx) => {
    const row = await q.insertSpecialty(tx, { ...input, by: caller.session.userId });
    if (!row) throw taken(text.specialtyExists);
    await writeAudit(tx, { eventType: 'SpecialtyCreated', ...auditedByAdmin(caller), details: { id: row.id, name: row.name } });
    return row;
  });
}

export async function updateSpecialty(deps: ReferenceDataDeps, caller: AdminCaller, id: number, input: z.output<typeof specialtyInput>) {
  return deps.db.transaction(async (tx) => {
    const row = await uniquely(() => q.updateSpecialty(tx, id, { ...input, by: caller.session.userId, at: deps.now() }), text.specialtyExists);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'SpecialtyUpdated', ...auditedByAdmin(caller), details: { id, name: row.name } });
    return row;
  });
}

export async function deleteSpecialty(deps: ReferenceDataDeps, caller: AdminCaller, id: number) {
  await deps.db.transaction(async (tx) => {
    // An organization's details need their specialty: one in use stays until no organization has it.
    const using = await q.organizationsWithSpecialty(tx, id);
    if (using > 0) throw badRequest(text.specialtyInUse(using));
    const row = await q.deleteSpecialty(tx, id);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'SpecialtyDeleted', ...auditedByAdmin(caller), details: { id, name: row.name } });
  });
  return { ok: true as const };
}
