import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { esignatureAccounts } from '../../db/schema/connectors.ts';

export type AccountRow = typeof esignatureAccounts.$inferSelect;
const a = esignatureAccounts;

export const findAll = (db: DbOrTx) => db.select().from(a).orderBy(asc(a.createdAt), asc(a.id));

// A second sign-in to the same account refreshes its token instead of listing it twice.
export async function upsert(db: DbOrTx, values: Omit<typeof a.$inferInsert, 'id' | 'createdAt'>): Promise<AccountRow> {
  const [row] = await db
    .insert(a)
    .values(values)
    .onConflictDoUpdate({
      target: [a.provider, a.externalAccountId],
      set: { accountName: values.accountName, email: values.email, accessTokenSealed: values.accessTokenSealed, updatedAt: values.updatedAt },
    })
    .returning();
  return row!;
}

export async function remove(db: DbOrTx, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.delete(a).where(eq(a.id, id)).returning();
  return row;
}
