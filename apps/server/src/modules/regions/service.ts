import type { z } from 'zod';
import {
  crosswalkMessages,
  regionMessages as text,
  type CrosswalkResult,
  type HealthServiceArea,
  type Region,
  type healthServiceAreaQuery,
  type regionInput,
  type regionQuery,
} from '@clinicrelay/contracts/regions.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import { WorkerFailure, type WorkerPool } from '../../platform/workers/worker-pool.ts';
import type { CrosswalkParse } from './crosswalk-file.ts';
import * as q from './queries.ts';

export interface RegionsDeps {
  db: Database;
  now: () => Date;
  files: WorkerPool;
}

const toRegion = (row: q.RegionRow): Region => ({ id: row.id, name: row.name, code: row.code, modifiedDate: row.modifiedAt.toISOString() });

export async function listRegions(deps: RegionsDeps, query: z.output<typeof regionQuery>) {
  const page = await q.findRegionPage(deps.db, query, query);
  return { items: page.items.map(toRegion), totalCount: page.totalCount };
}

export async function getRegion(deps: RegionsDeps, id: string) {
  const row = await q.findRegion(deps.db, id);
  if (!row) throw notFound();
  return toRegion(row);
}

// §5: name and code unique; the model state names each field taken (§8: the screen shows these messages).
async function checkUnique(db: Parameters<typeof q.regionFieldsTaken>[0], values: { name: string; code: string }, exceptId?: string) {
  const taken = await q.regionFieldsTaken(db, values, exceptId);
  const modelState: Record<string, string[]> = {};
  if (taken.name) modelState.name = [text.nameTaken];
  if (taken.code) modelState.code = [text.codeTaken];
  const first = modelState.name?.[0] ?? modelState.code?.[0];
  if (first) throw badRequest(first, modelState);
}

// Two saves of one name at once: the unique index refuses the second; asked again, the check names the field.
async function uniquely<T>(deps: RegionsDeps, values: { name: string; code: string }, exceptId: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await checkUnique(deps.db, values, exceptId);
    throw error;
  }
}

export async function createRegion(deps: RegionsDeps, caller: AdminCaller, input: z.output<typeof regionInput>) {
  const row = await uniquely(deps, input, undefined, () =>
    deps.db.transaction(async (tx) => {
      await checkUnique(tx, input);
      const created = await q.insertRegion(tx, { ...input, by: caller.session.userId });
      await writeAudit(tx, { eventType: 'HealthReferralRegionCreated', ...auditedByAdmin(caller), details: { id: created.id, ...input } });
      return created;
    }),
  );
  return toRegion(row);
}

export async function updateRegion(deps: RegionsDeps, caller: AdminCaller, id: string, input: z.output<typeof regionInput>) {
  const row = await uniquely(deps, input, id, () =>
    deps.db.transaction(async (tx) => {
      if (!(await q.findRegion(tx, id))) throw notFound();
      await checkUnique(tx, input, id);
      const updated = await q.updateRegion(tx, id, { ...input, by: caller.session.userId, at: deps.now() });
      if (!updated) throw notFound();
      await writeAudit(tx, { eventType: 'HealthReferralRegionUpdated', ...auditedByAdmin(caller), details: { id, ...input } });
      return updated;
    }),
  );
  return toRegion(row);
}

// A region its service areas point to stays: the crosswalk (or a new one) must move them first.
export async function deleteRegion(deps: RegionsDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const using = await q.serviceAreasOfRegion(tx, id);
    if (using > 0) throw badRequest(text.inUse(using), { id: [text.inUse(using)] });
    const row = await q.deleteRegion(tx, id);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'HealthReferralRegionDeleted', ...auditedByAdmin(caller), details: { id, name: row.name, code: row.code } });
  });
  return { ok: true as const };
}

// Service areas.

export async function listServiceAreas(deps: RegionsDeps, query: z.output<typeof healthServiceAreaQuery>) {
  const page = await q.findServiceAreaPage(deps.db, query, query);
  return {
    items: page.items.map((r): HealthServiceArea => ({ ...r, lastUpdated: r.lastUpdated.toISOString() })),
    totalCount: page.totalCount,
  };
}

const fileError = (message: string, status = 400) => new AppError(status, message, { modelState: { file: [message] } });
const crosswalkModule = new URL('./crosswalk-file.ts', import.meta.url).href;

/** The crosswalk replaces every service area in one transaction; see contracts/regions.ts for the rules. */
export async function loadCrosswalk(deps: RegionsDeps, caller: AdminCaller, file: { fileName: string; bytes: Buffer }): Promise<CrosswalkResult> {
  const bytes = new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).slice();
  const parsed = await deps.files
    .run<CrosswalkParse>({ module: crosswalkModule, fn: 'readCrosswalk', args: [bytes], transfer: [bytes.buffer], organizationId: null })
    .catch((error: unknown) => {
      if (error instanceof WorkerFailure) throw fileError(error.message);
      throw error;
    });
  if (parsed.errorCount > 0) {
    const message = crosswalkMessages.invalid(parsed.errorCount);
    throw new AppError(400, message, { modelState: { file: parsed.errors } });
  }
  if (parsed.rows.length === 0) throw fileError(crosswalkMessages.empty);

  const at = deps.now();
  const result = await deps.db.transaction(async (tx) => {
    // One upload at a time; lists read the previous map until this one commits.
    await q.lockServiceAreas(tx);
    const hrrNames = new Map<string, string>();
    for (const [, , , code, name] of parsed.rows) if (!hrrNames.has(code)) hrrNames.set(code, name);
    const known = await q.regionsByCode(tx, [...hrrNames.keys()]);
    let regionsCreated = 0;
    for (const [code, name] of hrrNames) {
      if (known.has(code.toLowerCase())) continue;
      // A region an operator already named so keeps its name: the new one says its code too.
      const taken = (await q.regionFieldsTaken(tx, { name, code })).name;
      const created = await q.insertRegion(tx, { name: taken ? `${name} (${code})` : name, code, by: caller.session.userId });
      known.set(code.toLowerCase(), created.id);
      regionsCreated++;
    }
    await q.deleteAllServiceAreas(tx);
    await q.insertServiceAreas(
      tx,
      parsed.rows.map(([zipCode, code, name, hrrCode]) => ({ zipCode, code, name, healthReferralRegionId: known.get(hrrCode.toLowerCase())!, lastUpdated: at })),
    );
    await writeAudit(tx, {
      eventType: 'HealthServiceAreaCrosswalkLoaded',
      ...auditedByAdmin(caller),
      details: { fileName: file.fileName.slice(0, 255), serviceAreas: parsed.rows.length, regionsCreated },
    });
    return { serviceAreas: parsed.rows.length, regionsCreated };
  });
  return { ...result, message: crosswalkMessages.loaded(result.serviceAreas, result.regionsCreated) };
}
