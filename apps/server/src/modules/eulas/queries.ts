import { and, asc, desc, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { brands } from '../../db/schema/back-office.ts';
import { eulaAcceptances, eulas } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type EulaSortColumn = 'brand' | 'version' | 'type' | 'active' | 'totalUsers' | 'createDate';

const totalUsers = sql<number>`(select count(*)::int from ${eulaAcceptances} a where a.eula_id = ${eulas.id})`;

const summaryColumns = {
  id: eulas.id,
  brandId: eulas.brandId,
  brandName: brands.name,
  version: eulas.version,
  type: eulas.type,
  isActive: eulas.isActive,
  fileName: eulas.fileName,
  activatedAt: eulas.activatedAt,
  createdAt: eulas.createdAt,
  totalUsers,
};

export type EulaRow = { id: string; brandId: string; brandName: string | null; version: string; type: 'EULA' | 'Privacy'; isActive: boolean; fileName: string; activatedAt: Date | null; createdAt: Date; totalUsers: number; html: string | null };

export function findEulaPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; col?: EulaSortColumn | undefined }, page: PageRequest) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  const where = pattern ? or(ilike(brands.name, pattern), ilike(eulas.version, pattern), ilike(eulas.type, pattern)) : undefined;
  const direction = filter.sortDir === 'desc' ? desc : asc;
  // Versions sort as numbers (2.10 after 2.9); the default is the newest first within each brand.
  const byVersion = sql`${eulas.version}::numeric`;
  const order: SQL[] =
    filter.col === 'version'
      ? [direction(byVersion)]
      : filter.col === 'type'
        ? [direction(eulas.type), desc(byVersion)]
        : filter.col === 'active'
          ? [direction(eulas.isActive), desc(byVersion)]
          : filter.col === 'totalUsers'
            ? [direction(totalUsers), desc(byVersion)]
            : filter.col === 'createDate'
              ? [direction(eulas.createdAt)]
              : filter.col === 'brand'
                ? [direction(brands.name), desc(byVersion)]
                : [asc(brands.name), desc(byVersion)];
  return findPage(
    page,
    async ({ offset, limit }) =>
      (
        await db
          .select(summaryColumns)
          .from(eulas)
          .leftJoin(brands, eq(brands.id, eulas.brandId))
          .where(where)
          .orderBy(...order, asc(eulas.id))
          .offset(offset)
          .limit(limit)
      ).map((r): EulaRow => ({ ...r, html: null })),
    () => db.select({ n: sql<number>`count(*)::int` }).from(eulas).leftJoin(brands, eq(brands.id, eulas.brandId)).where(where).then((r) => r[0]?.n ?? 0),
  );
}

export async function findById(db: DbOrTx, id: string, lock = false): Promise<EulaRow | undefined> {
  const query = db.select({ ...summaryColumns, html: eulas.html }).from(eulas).leftJoin(brands, eq(brands.id, eulas.brandId)).where(eq(eulas.id, id));
  const [row] = await (lock ? query.for('update', { of: eulas }) : query);
  return row;
}

export async function brandExists(db: DbOrTx, brandId: string) {
  return (await db.$count(brands, eq(brands.id, brandId))) > 0;
}

export async function versionTaken(db: DbOrTx, brandId: string, version: string) {
  return (await db.$count(eulas, and(eq(eulas.brandId, brandId), eq(eulas.version, version)))) > 0;
}

export async function insert(db: DbOrTx, values: Omit<typeof eulas.$inferInsert, 'id'>) {
  const [row] = await db.insert(eulas).values(values).returning({ id: eulas.id });
  return row!.id;
}

// Activating one document turns off the brand's other active document of the same type.
export async function activate(db: DbOrTx, row: { id: string; brandId: string; type: 'EULA' | 'Privacy' }, by: string, now: Date) {
  const previous = await db
    .update(eulas)
    .set({ isActive: false, modifiedBy: by, modifiedAt: now })
    .where(and(eq(eulas.brandId, row.brandId), eq(eulas.type, row.type), eq(eulas.isActive, true), ne(eulas.id, row.id)))
    .returning({ id: eulas.id, version: eulas.version });
  await db.update(eulas).set({ isActive: true, activatedAt: now, modifiedBy: by, modifiedAt: now }).where(eq(eulas.id, row.id));
  return previous;
}

export async function remove(db: DbOrTx, id: string) {
  await db.delete(eulas).where(eq(eulas.id, id));
}

// The brand an organization is served under.
export async function organizationBrand(db: DbOrTx, organizationId: string) {
  const [row] = await db.select({ brandId: organizations.brandId }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.brandId ?? null;
}

export async function findActive(db: DbOrTx, brandId: string, type: 'EULA' | 'Privacy') {
  const [row] = await db
    .select({ id: eulas.id, version: eulas.version, type: eulas.type, html: eulas.html, brandId: eulas.brandId, brandName: brands.name })
    .from(eulas)
    .leftJoin(brands, eq(brands.id, eulas.brandId))
    .where(and(eq(eulas.brandId, brandId), eq(eulas.type, type), eq(eulas.isActive, true)));
  return row;
}

export async function findAcceptance(db: DbOrTx, eulaId: string, userId: string) {
  const [row] = await db.select().from(eulaAcceptances).where(and(eq(eulaAcceptances.eulaId, eulaId), eq(eulaAcceptances.userId, userId)));
  return row;
}

// Once per user and document: a second call changes nothing (and returns nothing).
export async function insertAcceptance(db: DbOrTx, values: typeof eulaAcceptances.$inferInsert) {
  const rows = await db.insert(eulaAcceptances).values(values).onConflictDoNothing().returning({ acceptedAt: eulaAcceptances.acceptedAt });
  return rows[0];
}

export async function markOrganizationAccepted(db: DbOrTx, organizationId: string, at: Date) {
  await db.update(organizations).set({ isAcceptedEula: true, eulaAcceptedAt: at }).where(eq(organizations.id, organizationId));
}
