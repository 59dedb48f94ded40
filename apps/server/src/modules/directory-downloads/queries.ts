import { and, asc, desc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { directoryEntries } from '../../db/schema/directory.ts';
import { directoryDownloadParts, directoryDownloads } from '../../db/schema/directory-downloads.ts';

export type DownloadRow = typeof directoryDownloads.$inferSelect;
export type PartRow = typeof directoryDownloadParts.$inferSelect;

const d = directoryDownloads;

export async function insert(db: DbOrTx, values: typeof d.$inferInsert): Promise<DownloadRow> {
  const [row] = await db.insert(d).values(values).returning();
  return row!;
}

export async function findById(db: DbOrTx, id: string): Promise<DownloadRow | undefined> {
  const [row] = await db.select().from(d).where(eq(d.id, id));
  return row;
}

// The list's search: a part of the type (item), the mode or the status, case-insensitive.
export function findPage(db: DbOrTx, page: { offset: number; limit: number; search?: string | undefined; descending: boolean }) {
  const term = page.search ? `%${page.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = term ? sql`(${d.type} ilike ${term} or ${d.mode} ilike ${term} or ${d.status} ilike ${term})` : undefined;
  return Promise.all([
    db
      .select()
      .from(d)
      .where(where)
      .orderBy(page.descending ? desc(d.occurredAt) : asc(d.occurredAt), asc(d.id))
      .offset(page.offset)
      .limit(page.limit),
    db.$count(d, where),
  ]);
}

export async function update(db: DbOrTx, id: string, values: Partial<typeof d.$inferInsert>): Promise<void> {
  await db.update(d).set(values).where(eq(d.id, id));
}

/** The cut-off of the last completed download of this type: where an incremental one starts. */
export async function lastCutoff(db: DbOrTx, type: string, before: string): Promise<Date | null> {
  const [row] = await db
    .select({ cutoff: d.cutoff })
    .from(d)
    .where(and(eq(d.type, type), eq(d.status, 'Completed'), sql`${d.id} <> ${before}`))
    .orderBy(desc(d.cutoff))
    .limit(1);
  return row?.cutoff ?? null;
}

export const databaseNow = async (db: DbOrTx): Promise<Date> => {
  const [row] = await queryRows<{ now: string | Date }>(db, sql`select now() as "now"`);
  return new Date(row!.now);
};

export const findParts = (db: DbOrTx, downloadId: string) =>
  db.select().from(directoryDownloadParts).where(eq(directoryDownloadParts.downloadId, downloadId)).orderBy(asc(directoryDownloadParts.part));

export async function insertPart(db: DbOrTx, values: typeof directoryDownloadParts.$inferInsert): Promise<void> {
  await db.insert(directoryDownloadParts).values(values).onConflictDoNothing();
}

export type DirectoryRow = typeof directoryEntries.$inferSelect;

// What a download reads: entries of its entity types imported before the cut-off (and, incremental, at or after
// `since`); a full file holds active entries only, an incremental one the deactivated too. Keyset on the NPI.
export interface RowFilter {
  entityTypes: readonly (1 | 2)[];
  since: Date | null;
  cutoff: Date;
}

export function findRowsAfter(db: DbOrTx, filter: RowFilter, afterNpi: string | null, limit: number): Promise<DirectoryRow[]> {
  const e = directoryEntries;
  const parts: SQL[] = [sql`${e.entityType} in (${sql.join(filter.entityTypes.map((t) => sql`${t}`), sql`, `)})`, lt(e.importedAt, filter.cutoff)];
  if (filter.since) parts.push(gte(e.importedAt, filter.since));
  else parts.push(sql`${e.active}`);
  if (afterNpi !== null) parts.push(gt(e.npi, afterNpi));
  return db.select().from(e).where(and(...parts)).orderBy(asc(e.npi)).limit(limit);
}
