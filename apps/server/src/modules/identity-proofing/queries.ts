import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { identityProofingAttempts } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';

export type AttemptRow = typeof identityProofingAttempts.$inferSelect;

export async function insertAttempt(db: DbOrTx, values: typeof identityProofingAttempts.$inferInsert) {
  const [row] = await db.insert(identityProofingAttempts).values(values).returning();
  return row!;
}

export async function updateAttempt(db: DbOrTx, id: string, values: Partial<typeof identityProofingAttempts.$inferInsert>) {
  await db.update(identityProofingAttempts).set(values).where(eq(identityProofingAttempts.id, id));
}

/** The caller's attempt that asked this quiz, locked; another user's or organization's is not found. */
export async function findAttemptByQuiz(db: DbOrTx, quizId: string, userId: string, organizationId: string) {
  const [row] = await db
    .select()
    .from(identityProofingAttempts)
    .where(and(eq(identityProofingAttempts.quizId, quizId), eq(identityProofingAttempts.userId, userId), eq(identityProofingAttempts.organizationId, organizationId)))
    .for('update');
  return row;
}

export async function findLatestAttempt(db: DbOrTx, userId: string, organizationId: string) {
  const [row] = await db
    .select()
    .from(identityProofingAttempts)
    .where(and(eq(identityProofingAttempts.userId, userId), eq(identityProofingAttempts.organizationId, organizationId)))
    .orderBy(desc(identityProofingAttempts.createdAt))
    .limit(1);
  return row;
}

export async function findOrganizationState(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select({ isIdProofed: organizations.isIdProofed, idProofedAttemptDate: organizations.idProofedAttemptDate, isAcceptedEula: organizations.isAcceptedEula, isActivated: organizations.isActivated })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}

export async function findUserDocument(db: DbOrTx, userId: string) {
  const [row] = await db.select({ idProofBlobId: users.idProofBlobId }).from(users).where(eq(users.id, userId));
  return row;
}
