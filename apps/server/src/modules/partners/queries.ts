import { asc, desc, eq, ilike } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { partners } from '../../db/schema/back-office.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type PartnerRow = typeof partners.$inferSelect;

export function findPartnerPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; col?: 'name' | 'createDate' | undefined }, page: PageRequest) {
  const where = filter.search ? ilike(partners.name, containsPattern(filter.search)) : undefined;
  const order = filter.col === 'createDate' ? [filter.sortDir === 'desc' ? desc(partners.createdAt) : asc(partners.createdAt), asc(partners.id)] : byName(partners.name, filter.sortDir);
  return findPage(
    page,
    ({ offset, limit }) => db.select().from(partners).where(where).orderBy(...order).offset(offset).limit(limit),
    () => db.$count(partners, where),
  );
}

export async function findPartner(db: DbOrTx, id: string, lock = false) {
  const query = db.select().from(partners).where(eq(partners.id, id));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

type Logo = { logoBlobId: string; logoFileName: string; logoContentType: string };

export async function insertPartner(db: DbOrTx, values: { name: string; url: string | null; by: string } & Partial<Logo>) {
  const [row] = await db
    .insert(partners)
    .values({ name: values.name, url: values.url, logoBlobId: values.logoBlobId, logoFileName: values.logoFileName, logoContentType: values.logoContentType, createdBy: values.by, modifiedBy: values.by })
    .returning();
  return row!;
}

export async function updatePartner(db: DbOrTx, id: string, values: { name: string; url?: string | null | undefined; by: string; at: Date } & Partial<Logo>) {
  const [row] = await db
    .update(partners)
    .set({
      name: values.name,
      ...(values.url !== undefined ? { url: values.url } : {}),
      ...(values.logoBlobId ? { logoBlobId: values.logoBlobId, logoFileName: values.logoFileName, logoContentType: values.logoContentType } : {}),
      modifiedBy: values.by,
      modifiedAt: values.at,
    })
    .where(eq(partners.id, id))
    .returning();
  return row;
}

export async function deletePartner(db: DbOrTx, id: string) {
  const [row] = await db.delete(partners).where(eq(partners.id, id)).returning();
  return row;
}
