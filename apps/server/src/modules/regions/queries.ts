import { and, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { healthReferralRegions, healthServiceAreas } from '../../db/schema/regions.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

const regionColumns = { id: healthReferralRegions.id, name: healthReferralRegions.name, code: healthReferralRegions.code, modifiedAt: healthReferralRegions.modifiedAt };
export type RegionRow = { id: string; name: string; code: string; modifiedAt: Date };

export function findRegionPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  const where = pattern ? or(ilike(healthReferralRegions.name, pattern), ilike(healthReferralRegions.code, pattern)) : undefined;
  return findPage<RegionRow>(
    page,
    ({ offset, limit }) => db.select(regionColumns).from(healthReferralRegions).where(where).orderBy(...byName(healthReferralRegions.name, filter.sortDir)).offset(offset).limit(limit),
    () => db.$count(healthReferralRegions, where),
  );
}

export async function findRegion(db: DbOrTx, id: string): Promise<RegionRow | undefined> {
  const [row] = await db.select(regionColumns).from(healthReferralRegions).where(eq(healthReferralRegions.id, id));
  return row;
}

/** Which of the region's name and code another region (not exceptId) already has, case ignored. */
export async function regionFieldsTaken(db: DbOrTx, values: { name: string; code: string }, exceptId?: string) {
  const others = exceptId ? ne(healthReferralRegions.id, exceptId) : undefined;
  const [name, code] = await Promise.all([
    db.$count(healthReferralRegions, and(sql`lower(${healthReferralRegions.name}) = lower(${values.name})`, others)),
    db.$count(healthReferralRegions, and(sql`lower(${healthReferralRegions.code}) = lower(${values.code})`, others)),
  ]);
  return { name: name > 0, code: code > 0 };
}

export async function insertRegion(db: DbOrTx, values: { name: string; code: string; by: string }) {
  const [row] = await db
    .insert(healthReferralRegions)
    .values({ name: values.name, code: values.code, createdBy: values.by, modifiedBy: values.by })
    .returning(regionColumns);
  return row!;
}

export async function updateRegion(db: DbOrTx, id: string, values: { name: string; code: string; by: string; at: Date }) {
  const [row] = await db
    .update(healthReferralRegions)
    .set({ name: values.name, code: values.code, modifiedBy: values.by, modifiedAt: values.at })
    .where(eq(healthReferralRegions.id, id))
    .returning(regionColumns);
  return row;
}

export const serviceAreasOfRegion = (db: DbOrTx, id: string) => db.$count(healthServiceAreas, eq(healthServiceAreas.healthReferralRegionId, id));

export async function deleteRegion(db: DbOrTx, id: string) {
  const [row] = await db.delete(healthReferralRegions).where(eq(healthReferralRegions.id, id)).returning(regionColumns);
  return row;
}

// Service areas.

const areaColumns = {
  code: healthServiceAreas.code,
  zipCode: healthServiceAreas.zipCode,
  name: healthServiceAreas.name,
  healthReferralRegionCode: healthReferralRegions.code,
  healthReferralRegion: healthReferralRegions.name,
  lastUpdated: healthServiceAreas.lastUpdated,
};

export function findServiceAreaPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  const where = pattern
    ? or(
        ilike(healthServiceAreas.code, pattern),
        ilike(healthServiceAreas.zipCode, pattern),
        ilike(healthServiceAreas.name, pattern),
        ilike(healthReferralRegions.code, pattern),
        ilike(healthReferralRegions.name, pattern),
      )
    : undefined;
  const joined = () => db.select(areaColumns).from(healthServiceAreas).innerJoin(healthReferralRegions, eq(healthReferralRegions.id, healthServiceAreas.healthReferralRegionId));
  return findPage(
    page,
    ({ offset, limit }) =>
      joined()
        .where(where)
        .orderBy(filter.sortDir === 'desc' ? sql`${healthServiceAreas.zipCode} desc` : healthServiceAreas.zipCode)
        .offset(offset)
        .limit(limit),
    async () => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(healthServiceAreas)
        .innerJoin(healthReferralRegions, eq(healthReferralRegions.id, healthServiceAreas.healthReferralRegionId))
        .where(where);
      return row?.n ?? 0;
    },
  );
}

/** The regions whose codes are given (case ignored), by lower-cased code. */
export async function regionsByCode(db: DbOrTx, codes: string[]) {
  const map = new Map<string, string>();
  for (let i = 0; i < codes.length; i += 1000) {
    const rows = await db
      .select({ id: healthReferralRegions.id, code: healthReferralRegions.code })
      .from(healthReferralRegions)
      .where(inArray(sql`lower(${healthReferralRegions.code})`, codes.slice(i, i + 1000).map((c) => c.toLowerCase())));
    for (const r of rows) map.set(r.code.toLowerCase(), r.id);
  }
  return map;
}

export const lockServiceAreas = (db: DbOrTx) => db.execute(sql`lock table ${healthServiceAreas} in share row exclusive mode`);
export const deleteAllServiceAreas = (db: DbOrTx) => db.delete(healthServiceAreas);

export async function insertServiceAreas(db: DbOrTx, rows: { zipCode: string; code: string; name: string; healthReferralRegionId: string; lastUpdated: Date }[]) {
  for (let i = 0; i < rows.length; i += 1000) await db.insert(healthServiceAreas).values(rows.slice(i, i + 1000));
}
