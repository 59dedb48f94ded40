import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { directoryServiceEntries } from '../../db/schema/directory-entries.ts';

export type EntryRow = typeof directoryServiceEntries.$inferSelect;
export type EntryValues = Omit<typeof directoryServiceEntries.$inferInsert, 'id' | 'createdAt'>;

const e = directoryServiceEntries;

// A term is a part of the ordering name, the organization name or the first name (operators' list: a few thousand
// rows at most), or a Direct address or NPI as typed.
function termWhere(normalized: string | undefined, raw: string | undefined): SQL | undefined {
  if (!normalized || !raw) return undefined;
  const part = `%${normalized}%`;
  return or(sql`${e.nameNorm} like ${part}`, sql`${e.orgNorm} like ${part}`, sql`${e.firstNorm} like ${part}`, eq(e.directAddress, raw.toLowerCase()), eq(e.npi, raw))!;
}

export function findPage(db: DbOrTx, page: { offset: number; limit: number; term?: string | undefined; raw?: string | undefined; descending?: boolean }) {
  const where = termWhere(page.term, page.raw);
  return Promise.all([
    db
      .select()
      .from(e)
      .where(where)
      .orderBy(page.descending ? sql`${e.nameNorm} desc` : asc(e.nameNorm), asc(e.id))
      .offset(page.offset)
      .limit(page.limit),
    db.$count(e, where),
  ]);
}

export async function findById(db: DbOrTx, tenantId: string, id: string): Promise<EntryRow | undefined> {
  const [row] = await db.select().from(e).where(and(eq(e.tenantId, tenantId), eq(e.id, id)));
  return row;
}

export async function insert(db: DbOrTx, values: EntryValues): Promise<EntryRow> {
  const [row] = await db.insert(e).values(values).returning();
  return row!;
}

export async function update(db: DbOrTx, tenantId: string, id: string, values: Partial<EntryValues>): Promise<EntryRow | undefined> {
  const [row] = await db.update(e).set(values).where(and(eq(e.tenantId, tenantId), eq(e.id, id))).returning();
  return row;
}

export async function remove(db: DbOrTx, tenantId: string, id: string): Promise<boolean> {
  const rows = await db.delete(e).where(and(eq(e.tenantId, tenantId), eq(e.id, id))).returning({ id: e.id });
  return rows.length > 0;
}
