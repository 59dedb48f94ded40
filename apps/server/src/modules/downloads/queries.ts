import { and, asc, desc, eq, ilike, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { brands, subscriptionPlans } from '../../db/schema/back-office.ts';
import { downloads } from '../../db/schema/downloads.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type DownloadRow = typeof downloads.$inferSelect & { brandName: string | null };
export type DownloadValues = Omit<typeof downloads.$inferInsert, 'id'>;
export type DownloadSortColumn = 'displayName' | 'downloadTag' | 'version' | 'createDate';

const withBrand = (db: DbOrTx) => db.select({ download: downloads, brandName: brands.name }).from(downloads).leftJoin(brands, eq(brands.id, downloads.brandId));
const flatten = (rows: { download: typeof downloads.$inferSelect; brandName: string | null }[]): DownloadRow[] => rows.map((r) => ({ ...r.download, brandName: r.brandName }));

export function findDownloadPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; col?: DownloadSortColumn | undefined }, page: PageRequest) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  const where = pattern ? or(ilike(downloads.displayName, pattern), ilike(downloads.downloadTag, pattern), ilike(downloads.name, pattern), ilike(downloads.version, pattern)) : undefined;
  const direction = filter.sortDir === 'desc' ? desc : asc;
  const order: SQL[] =
    filter.col === 'createDate'
      ? [direction(downloads.createdAt), asc(downloads.id)]
      : filter.col === 'version'
        ? [direction(downloads.version), asc(downloads.id)]
        : filter.col === 'downloadTag'
          ? [...byName(downloads.downloadTag, filter.sortDir), asc(downloads.id)]
          : [...byName(downloads.displayName, filter.sortDir), asc(downloads.id)];
  return findPage(
    page,
    async ({ offset, limit }) => flatten(await withBrand(db).where(where).orderBy(...order).offset(offset).limit(limit)),
    () => db.$count(downloads, where),
  );
}

export async function findById(db: DbOrTx, id: string, lock = false): Promise<DownloadRow | undefined> {
  const query = withBrand(db).where(eq(downloads.id, id));
  const [row] = flatten(await (lock ? query.for('update', { of: downloads }) : query));
  return row;
}

// The brand an organization is served under and whether its plan is a free one.
export async function organizationAudience(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select({ brandId: organizations.brandId, isFree: subscriptionPlans.isFree })
    .from(organizations)
    .leftJoin(subscriptionPlans, eq(subscriptionPlans.id, organizations.planId))
    .where(eq(organizations.id, organizationId));
  return row && { brandId: row.brandId, isFree: row.isFree ?? false };
}

export interface Audience {
  brandId: string | null;
  isFree: boolean;
}

// Active and visible; for an organization also of its brand (or of every brand) and, on a free plan, offered on free.
export function publishedFilter(audience: Audience | null): SQL {
  const published = and(eq(downloads.isActive, true), eq(downloads.isVisible, true))!;
  if (!audience) return published;
  return and(
    published,
    audience.brandId ? or(isNull(downloads.brandId), eq(downloads.brandId, audience.brandId)) : isNull(downloads.brandId),
    audience.isFree ? eq(downloads.downloadOnFree, true) : undefined,
  )!;
}

export async function findPublished(db: DbOrTx, audience: Audience | null) {
  return flatten(await withBrand(db).where(publishedFilter(audience)).orderBy(...byName(downloads.displayName), desc(downloads.createdAt)));
}

export async function isPublishedTo(db: DbOrTx, id: string, audience: Audience | null) {
  return (await db.$count(downloads, and(eq(downloads.id, id), publishedFilter(audience)))) > 0;
}

export async function brandExists(db: DbOrTx, brandId: string) {
  return (await db.$count(brands, eq(brands.id, brandId))) > 0;
}

// Another download of the tag already has the version (the unique index decides under a race).
export async function versionTaken(db: DbOrTx, downloadTag: string, version: string, exceptId?: string) {
  return (await db.$count(downloads, and(eq(downloads.downloadTag, downloadTag), eq(downloads.version, version), exceptId ? ne(downloads.id, exceptId) : undefined))) > 0;
}

export async function insert(db: DbOrTx, values: DownloadValues) {
  const [row] = await db.insert(downloads).values(values).returning({ id: downloads.id });
  return row!.id;
}

export async function update(db: DbOrTx, id: string, values: Partial<DownloadValues> & { modifiedAt: Date }) {
  await db.update(downloads).set(values).where(eq(downloads.id, id));
}

export async function remove(db: DbOrTx, id: string) {
  const [row] = await db.delete(downloads).where(eq(downloads.id, id)).returning({ blobId: downloads.blobId, displayName: downloads.displayName });
  return row;
}
