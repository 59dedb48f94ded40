import { and, count, eq, ilike, ne, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { organizationSpecialties, reservedWords } from '../../db/schema/reference-data.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export const nameKeyOf = (name: string) => name.trim().toLowerCase();

const wordColumns = { id: reservedWords.id, name: reservedWords.name, profanity: reservedWords.profanity };

export function findReservedWordPage(db: DbOrTx, filter: { search?: string | undefined; profanity?: boolean | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const where = and(filter.search ? ilike(reservedWords.name, containsPattern(filter.search)) : undefined, filter.profanity === undefined ? undefined : eq(reservedWords.profanity, filter.profanity));
  return findPage(
    page,
    ({ offset, limit }) => db.select(wordColumns).from(reservedWords).where(where).orderBy(...byName(reservedWords.name, filter.sortDir)).offset(offset).limit(limit),
    () => db.$count(reservedWords, where),
  );
}

export async function findReservedWord(db: DbOrTx, id: string) {
  const [row] = await db.select(wordColumns).from(reservedWords).where(eq(reservedWords.id, id));
  return row;
}

/** Whether another word (not `exceptId`) has this name, case ignored. */
export async function reservedWordTaken(db: DbOrTx, name: string, exceptId?: string) {
  const [row] = await db
    .select({ n: count() })
    .from(reservedWords)
    .where(and(eq(reservedWords.nameKey, nameKeyOf(name)), exceptId ? ne(reservedWords.id, exceptId) : undefined));
  return (row?.n ?? 0) > 0;
}

export async function insertReservedWord(db: DbOrTx, values: { name: string; profanity: boolean; by: string }) {
  const [row] = await db
    .insert(reservedWords)
    .values({ name: values.name, nameKey: nameKeyOf(values.name), profanity: values.profanity, createdBy: values.by, modifiedBy: values.by })
    .onConflictDoNothing({ target: reservedWords.nameKey })
    .returning(wordColumns);
  return row;
}

export async function updateReservedWord(db: DbOrTx, id: string, values: { name: string; profanity: boolean; by: string; at: Date }) {
  const [row] = await db
    .update(reservedWords)
    .set({ name: values.name, nameKey: nameKeyOf(values.name), profanity: values.profanity, modifiedBy: values.by, modifiedAt: values.at })
    .where(eq(reservedWords.id, id))
    .returning(wordColumns);
  return row;
}

export async function deleteReservedWord(db: DbOrTx, id: string) {
  const [row] = await db.delete(reservedWords).where(eq(reservedWords.id, id)).returning(wordColumns);
  return row;
}

const specialtyColumns = { id: organizationSpecialties.id, name: organizationSpecialties.name };

export function findSpecialtyPage(db: DbOrTx, search: string | undefined, page: PageRequest) {
  const where: SQL | undefined = search ? ilike(organizationSpecialties.name, containsPattern(search)) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select(specialtyColumns).from(organizationSpecialties).where(where).orderBy(...byName(organizationSpecialties.name)).offset(offset).limit(limit),
    () => db.$count(organizationSpecialties, where),
  );
}

export async function findSpecialty(db: DbOrTx, id: number) {
  const [row] = await db.select(specialtyColumns).from(organizationSpecialties).where(eq(organizationSpecialties.id, id));
  return row;
}

export async function insertSpecialty(db: DbOrTx, values: { name: string; by: string }) {
  const [row] = await db
    .insert(organizationSpecialties)
    .values({ name: values.name, nameKey: nameKeyOf(values.name), createdBy: values.by, modifiedBy: values.by })
    .onConflictDoNothing({ target: organizationSpecialties.nameKey })
    .returning(specialtyColumns);
  return row;
}

export async function updateSpecialty(db: DbOrTx, id: number, values: { name: string; by: string; at: Date }) {
  const [row] = await db
    .update(organizationSpecialties)
    .set({ name: values.name, nameKey: nameKeyOf(values.name), modifiedBy: values.by, modifiedAt: values.at })
    .where(eq(organizationSpecialties.id, id))
    .returning(specialtyColumns);
  return row;
}

export async function organizationsWithSpecialty(db: DbOrTx, id: number) {
  const [row] = await db.select({ n: count() }).from(organizations).where(eq(organizations.organizationSpecialtyId, id));
  return row?.n ?? 0;
}

export async function deleteSpecialty(db: DbOrTx, id: number) {
  const [row] = await db.delete(organizationSpecialties).where(eq(organizationSpecialties.id, id)).returning(specialtyColumns);
  return row;
}
