import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { patientExtractions } from '../../db/schema/intake.ts';

export type ExtractionRow = typeof patientExtractions.$inferSelect;

export async function insert(db: DbOrTx, row: typeof patientExtractions.$inferInsert) {
  const [created] = await db.insert(patientExtractions).values(row).returning();
  return created!;
}

// The attachment's latest run in the organization.
export async function findLatest(db: DbOrTx, organizationId: string, attachmentId: string) {
  const [row] = await db
    .select()
    .from(patientExtractions)
    .where(and(eq(patientExtractions.organizationId, organizationId), eq(patientExtractions.attachmentId, attachmentId)))
    .orderBy(desc(patientExtractions.createdAt))
    .limit(1);
  return row;
}

// For the workflow, which acts for no caller: by id alone.
export async function findByIdUnscoped(db: DbOrTx, id: string) {
  const [row] = await db.select().from(patientExtractions).where(eq(patientExtractions.id, id));
  return row;
}

// Records a run's outcome once: a second worker finishing the same run (lease lost) changes nothing.
export async function updateIfProcessing(db: DbOrTx, id: string, values: Partial<typeof patientExtractions.$inferInsert>) {
  const rows = await db
    .update(patientExtractions)
    .set(values)
    .where(and(eq(patientExtractions.id, id), eq(patientExtractions.status, 'Processing')))
    .returning({ id: patientExtractions.id });
  return rows.length > 0;
}
