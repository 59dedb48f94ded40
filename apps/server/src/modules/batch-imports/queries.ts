import { and, asc, desc, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { batchImportItems, batchImports } from '../../db/schema/batch-imports.ts';
import { jobFunctions, users } from '../../db/schema/users.ts';
import { containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type BatchRow = typeof batchImports.$inferSelect;
export type ItemRow = typeof batchImportItems.$inferSelect;

export async function insertBatch(tx: DbOrTx, values: typeof batchImports.$inferInsert) {
  const [row] = await tx.insert(batchImports).values(values).returning();
  return row!;
}

export async function insertItems(tx: DbOrTx, values: (typeof batchImportItems.$inferInsert)[]) {
  // A few hundred rows per statement: PostgreSQL takes at most 65,535 parameters in one.
  for (let i = 0; i < values.length; i += 500) await tx.insert(batchImportItems).values(values.slice(i, i + 500));
}

export const setBatchWorkflow = (tx: DbOrTx, id: string, workflowId: string) => tx.update(batchImports).set({ workflowId }).where(eq(batchImports.id, id));

export async function findBatch(db: DbOrTx, id: string) {
  const [row] = await db.select().from(batchImports).where(eq(batchImports.id, id));
  return row;
}

export const setBatchStatus = (db: DbOrTx, id: string, status: string, completedAt: Date | null = null) => db.update(batchImports).set({ status, completedAt }).where(eq(batchImports.id, id));

export async function itemRowNumbers(db: DbOrTx, batchId: string) {
  const rows = await db.select({ rowNumber: batchImportItems.rowNumber }).from(batchImportItems).where(eq(batchImportItems.batchId, batchId)).orderBy(asc(batchImportItems.rowNumber));
  return rows.map((r) => r.rowNumber);
}

export const findItems = (db: DbOrTx, batchId: string, rowNumbers: number[]) =>
  db
    .select()
    .from(batchImportItems)
    .where(and(eq(batchImportItems.batchId, batchId), inArray(batchImportItems.rowNumber, rowNumbers)))
    .orderBy(asc(batchImportItems.rowNumber));

export const updateItem = (db: DbOrTx, id: string, values: Partial<typeof batchImportItems.$inferInsert>) => db.update(batchImportItems).set({ ...values, updatedAt: sql`now()` }).where(eq(batchImportItems.id, id));

/** The organization an earlier import of the same file created for this key, if any. */
export async function createdForKey(db: DbOrTx, key: string) {
  const [row] = await db.select({ organizationId: batchImportItems.organizationId }).from(batchImportItems).where(and(eq(batchImportItems.key, key), isNotNull(batchImportItems.organizationId))).limit(1);
  return row?.organizationId ?? null;
}

export async function countProblems(db: DbOrTx, batchId: string) {
  return db.$count(batchImportItems, and(eq(batchImportItems.batchId, batchId), or(eq(batchImportItems.itemStatus, 'Failed'), eq(batchImportItems.primaryContactStatus, 'Failed'))));
}

export async function findUserIdByUserName(db: DbOrTx, userName: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  return row?.id;
}

export async function setUserPhone(tx: DbOrTx, userId: string, phoneNumber: string) {
  await tx.update(users).set({ phoneNumber }).where(eq(users.id, userId));
}

/** The primary contact's job function: Practice Manager where the list has it, else the first one. */
export async function primaryContactJobFunction(db: DbOrTx) {
  const [row] = await db
    .select({ id: jobFunctions.id })
    .from(jobFunctions)
    .orderBy(sql`${jobFunctions.name} = 'Practice Manager' desc`, asc(jobFunctions.id))
    .limit(1);
  return row?.id;
}

export function findItemPage(db: DbOrTx, search: string | undefined, page: PageRequest) {
  const pattern = search ? containsPattern(search) : undefined;
  const where = pattern
    ? or(ilike(batchImports.fileName, pattern), sql`${batchImportItems.values} ->> 'name' ilike ${pattern}`, ilike(batchImportItems.itemError, pattern), ilike(batchImportItems.pcsErrors, pattern))
    : undefined;
  return findPage(
    page,
    ({ offset, limit }) =>
      db
        .select({ item: batchImportItems, batch: batchImports, createdBy: users.userName })
        .from(batchImportItems)
        .innerJoin(batchImports, eq(batchImports.id, batchImportItems.batchId))
        .leftJoin(users, eq(users.id, batchImports.createdBy))
        .where(where)
        .orderBy(desc(batchImports.createdAt), desc(batchImports.id), asc(batchImportItems.rowNumber))
        .offset(offset)
        .limit(limit),
    () =>
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(batchImportItems)
        .innerJoin(batchImports, eq(batchImports.id, batchImportItems.batchId))
        .where(where)
        .then((rows) => rows[0]?.n ?? 0),
  );
}
