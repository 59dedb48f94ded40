import { and, eq, ilike, inArray, ne, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { resellers } from '../../db/schema/back-office.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { reservedWords } from '../../db/schema/reference-data.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type ResellerRow = typeof resellers.$inferSelect;
export type ResellerValues = Omit<typeof resellers.$inferInsert, 'id' | 'createdAt' | 'createdBy' | 'modifiedAt' | 'modifiedBy'>;

export const urlCodeKeyOf = (code: string) => code.toLowerCase();

// The search finds a reseller by its name, URL code or affiliate URL tag.
export function findResellerPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const pattern = filter.search && containsPattern(filter.search);
  const where = pattern ? or(ilike(resellers.name, pattern), ilike(resellers.urlCode, pattern), ilike(resellers.affiliateUrlTag, pattern)) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select().from(resellers).where(where).orderBy(...byName(resellers.name, filter.sortDir)).offset(offset).limit(limit),
    () => db.$count(resellers, where),
  );
}

export async function findReseller(db: DbOrTx, id: string, lock = false) {
  const query = db.select().from(resellers).where(eq(resellers.id, id));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** Whether another reseller (not `exceptId`) has this URL code, case ignored. */
export async function urlCodeTaken(db: DbOrTx, code: string, exceptId?: string) {
  return (await db.$count(resellers, and(eq(resellers.urlCodeKey, urlCodeKeyOf(code)), exceptId ? ne(resellers.id, exceptId) : undefined))) > 0;
}

/** Whether any of these words (lower case) is a reserved word. */
export async function anyReserved(db: DbOrTx, words: string[]) {
  return words.length > 0 && (await db.$count(reservedWords, inArray(reservedWords.nameKey, words))) > 0;
}

export async function organizationsUsing(db: DbOrTx, resellerId: string) {
  return db.$count(organizations, or(eq(organizations.affiliateResellerId, resellerId), eq(organizations.licensingResellerId, resellerId)));
}

export async function insertReseller(db: DbOrTx, values: ResellerValues & { by: string }) {
  const { by, ...rest } = values;
  const [row] = await db
    .insert(resellers)
    .values({ ...rest, createdBy: by, modifiedBy: by })
    .returning();
  return row!;
}

export async function updateReseller(db: DbOrTx, id: string, values: ResellerValues & { by: string; at: Date }) {
  const { by, at, ...rest } = values;
  const [row] = await db
    .update(resellers)
    .set({ ...rest, modifiedBy: by, modifiedAt: at })
    .where(eq(resellers.id, id))
    .returning();
  return row;
}

export async function deleteReseller(db: DbOrTx, id: string) {
  const [row] = await db.delete(resellers).where(eq(resellers.id, id)).returning();
  return row;
}
