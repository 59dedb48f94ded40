import { and, count, eq, getTableColumns, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { trustAnchors, trustBundles } from '../../db/schema/certificates.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type AnchorRow = typeof trustAnchors.$inferSelect;
export type AnchorValues = Omit<typeof trustAnchors.$inferInsert, 'id' | 'createdAt'>;
export type BundleRow = typeof trustBundles.$inferSelect;
export type BundleValues = Omit<typeof trustBundles.$inferInsert, 'id' | 'createdAt'>;
/** Where an anchor applies: a bundle's anchors follow the bundle's. */
export type AnchorScope = Pick<AnchorValues, 'domain' | 'incoming' | 'outgoing'>;

interface ListFilter {
  search?: string | undefined;
  sortDir?: 'asc' | 'desc' | undefined;
}

const anchorListColumns = {
  id: trustAnchors.id,
  name: trustAnchors.name,
  domain: trustAnchors.domain,
  incoming: trustAnchors.incoming,
  outgoing: trustAnchors.outgoing,
  subject: trustAnchors.subject,
  thumbprintSha256: trustAnchors.thumbprintSha256,
  notAfter: trustAnchors.notAfter,
  bundleId: trustAnchors.bundleId,
  bundleName: trustBundles.name,
};

export type AnchorListRow = Omit<AnchorRow, 'certificateDer' | 'createdAt'> & { bundleName: string | null };

export function findAnchorPage(db: DbOrTx, filter: ListFilter, page: PageRequest) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  const where = pattern
    ? or(ilike(trustAnchors.name, pattern), ilike(trustAnchors.subject, pattern), ilike(trustAnchors.domain, pattern), ilike(trustAnchors.thumbprintSha256, pattern), ilike(trustBundles.name, pattern))
    : undefined;
  const withBundle = () => db.select(anchorListColumns).from(trustAnchors).leftJoin(trustBundles, eq(trustBundles.id, trustAnchors.bundleId));
  return findPage(
    page,
    ({ offset, limit }) => withBundle().where(where).orderBy(...byName(trustAnchors.name, filter.sortDir), trustAnchors.id).offset(offset).limit(limit),
    async () => {
      const [row] = await db.select({ total: count() }).from(trustAnchors).leftJoin(trustBundles, eq(trustBundles.id, trustAnchors.bundleId)).where(where);
      return row?.total ?? 0;
    },
  );
}

export async function findAnchorById(db: DbOrTx, id: string): Promise<AnchorListRow | undefined> {
  const [row] = await db.select(anchorListColumns).from(trustAnchors).leftJoin(trustBundles, eq(trustBundles.id, trustAnchors.bundleId)).where(eq(trustAnchors.id, id));
  return row;
}

export async function findAnchorCertificate(db: DbOrTx, id: string) {
  const [row] = await db.select({ name: trustAnchors.name, certificateDer: trustAnchors.certificateDer }).from(trustAnchors).where(eq(trustAnchors.id, id));
  return row;
}

/** Serializes additions of one certificate, so two at once cannot both pass the duplicate check. */
export async function lockThumbprint(tx: DbOrTx, thumbprintSha256: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trust-anchor:${thumbprintSha256}`}))`);
}

export async function findHandAnchorByThumbprint(db: DbOrTx, thumbprintSha256: string) {
  const [row] = await db.select({ id: trustAnchors.id }).from(trustAnchors).where(and(isNull(trustAnchors.bundleId), eq(trustAnchors.thumbprintSha256, thumbprintSha256)));
  return row;
}

export async function insertAnchor(db: DbOrTx, values: AnchorValues) {
  const [row] = await db.insert(trustAnchors).values(values).returning({ id: trustAnchors.id });
  return row!;
}

export async function updateAnchor(db: DbOrTx, id: string, values: Pick<AnchorValues, 'name'> & AnchorScope) {
  await db.update(trustAnchors).set(values).where(eq(trustAnchors.id, id));
}

export async function deleteAnchor(db: DbOrTx, id: string) {
  await db.delete(trustAnchors).where(eq(trustAnchors.id, id));
}

/** The certificates of the anchors that apply to a hosted domain (theirs or every domain's) in one direction. */
export async function findApplicableAnchors(db: DbOrTx, domain: string, direction: 'incoming' | 'outgoing') {
  const rows = await db
    .select({ der: trustAnchors.certificateDer })
    .from(trustAnchors)
    .where(and(eq(trustAnchors[direction], true), or(isNull(trustAnchors.domain), sql`lower(${trustAnchors.domain}) = ${domain.trim().toLowerCase()}`)))
    .orderBy(trustAnchors.createdAt, trustAnchors.id);
  return rows.map((r) => r.der);
}

// Spelled out: drizzle leaves columns unqualified in a one-table select, which the subquery would read as its own.
const anchorCount = sql<number>`(select count(*) from trust_anchors anchor where anchor.bundle_id = trust_bundles.id)`.mapWith(Number);
const bundleColumns = { ...getTableColumns(trustBundles), anchorCount };
export type BundleWithCount = BundleRow & { anchorCount: number };

export function findBundlePage(db: DbOrTx, filter: ListFilter, page: PageRequest) {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  const where = pattern ? or(ilike(trustBundles.name, pattern), ilike(trustBundles.url, pattern), ilike(trustBundles.domain, pattern)) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select(bundleColumns).from(trustBundles).where(where).orderBy(...byName(trustBundles.name, filter.sortDir)).offset(offset).limit(limit),
    () => db.$count(trustBundles, where),
  );
}

export async function findBundle(db: DbOrTx, id: string): Promise<BundleWithCount | undefined> {
  const [row] = await db.select(bundleColumns).from(trustBundles).where(eq(trustBundles.id, id));
  return row;
}

/** The bundle, locked until the transaction ends, so two refreshes of it write one after the other. */
export async function lockBundle(tx: DbOrTx, id: string) {
  const [row] = await tx.select().from(trustBundles).where(eq(trustBundles.id, id)).for('update');
  return row;
}

export async function bundleNameTaken(db: DbOrTx, name: string, exceptId?: string) {
  const sameName: SQL = sql`lower(${trustBundles.name}) = ${name.toLowerCase()}`;
  const [row] = await db.select({ id: trustBundles.id }).from(trustBundles).where(exceptId ? and(sameName, sql`${trustBundles.id} <> ${exceptId}`) : sameName);
  return row !== undefined;
}

/** The new bundle's id; undefined when its name was taken meanwhile. */
export async function insertBundle(db: DbOrTx, values: BundleValues) {
  const [row] = await db.insert(trustBundles).values(values).onConflictDoNothing({ target: trustBundles.name }).returning({ id: trustBundles.id });
  return row?.id;
}

export async function updateBundle(db: DbOrTx, id: string, values: Partial<BundleValues>) {
  await db.update(trustBundles).set(values).where(eq(trustBundles.id, id));
}

/** The bundle's anchors follow its domain and directions. */
export async function setBundleAnchorsScope(db: DbOrTx, bundleId: string, scope: AnchorScope) {
  await db.update(trustAnchors).set(scope).where(eq(trustAnchors.bundleId, bundleId));
}

export async function replaceBundleAnchors(db: DbOrTx, bundleId: string, anchors: AnchorValues[]) {
  await db.delete(trustAnchors).where(eq(trustAnchors.bundleId, bundleId));
  if (anchors.length > 0) await db.insert(trustAnchors).values(anchors);
}

/** Its anchors go with it (foreign key on delete cascade). */
export async function deleteBundle(db: DbOrTx, id: string) {
  const [row] = await db.delete(trustBundles).where(eq(trustBundles.id, id)).returning({ name: trustBundles.name });
  return row;
}

/** The URL bundles whose refresh interval has passed since they were last read (or that never were). */
export function findDueBundles(db: DbOrTx, now: Date) {
  return db
    .select()
    .from(trustBundles)
    .where(
      and(
        isNotNull(trustBundles.url),
        or(isNull(trustBundles.lastRefreshedAt), sql`${trustBundles.lastRefreshedAt} + make_interval(mins => ${trustBundles.refreshIntervalMinutes}) <= ${now.toISOString()}::timestamptz`),
      ),
    )
    .orderBy(trustBundles.lastRefreshedAt, trustBundles.id);
}
