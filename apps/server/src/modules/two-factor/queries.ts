import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { recoveryCodes, twoFactorCodes } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';

export type CodePurpose = typeof twoFactorCodes.$inferInsert.purpose;

export async function findUser(db: DbOrTx, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

// Serializes code checks and enrolment steps of one user (a second request waits for the first's commit).
export async function lockUser(tx: DbOrTx, id: string) {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return user;
}

export async function updateUser(db: DbOrTx, id: string, values: Partial<typeof users.$inferInsert>) {
  await db.update(users).set(values).where(eq(users.id, id));
}

export async function insertCode(db: DbOrTx, row: typeof twoFactorCodes.$inferInsert) {
  await db.insert(twoFactorCodes).values(row);
}

// The newest code of a purpose: only it is accepted (sending a new code retires the older ones).
export async function findLatestCode(db: DbOrTx, userId: string, purpose: CodePurpose) {
  const [code] = await db
    .select()
    .from(twoFactorCodes)
    .where(and(eq(twoFactorCodes.userId, userId), eq(twoFactorCodes.purpose, purpose)))
    .orderBy(desc(twoFactorCodes.createdAt))
    .limit(1);
  return code;
}

// One more try, counted only while under the limit; the count after it, or null when the limit was reached.
export async function countAttempt(db: DbOrTx, id: string, maxAttempts: number) {
  const [row] = await db
    .update(twoFactorCodes)
    .set({ attempts: sql`${twoFactorCodes.attempts} + 1` })
    .where(and(eq(twoFactorCodes.id, id), lt(twoFactorCodes.attempts, maxAttempts)))
    .returning({ attempts: twoFactorCodes.attempts });
  return row?.attempts ?? null;
}

export async function markCodeUsed(db: DbOrTx, id: string, at: Date) {
  const rows = await db.update(twoFactorCodes).set({ usedAt: at }).where(and(eq(twoFactorCodes.id, id), isNull(twoFactorCodes.usedAt))).returning({ id: twoFactorCodes.id });
  return rows.length === 1;
}

export async function useRecoveryCode(db: DbOrTx, userId: string, codeHash: string, at: Date) {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function replaceRecoveryCodes(db: DbOrTx, userId: string, hashes: string[], at: Date) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (hashes.length) await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
}

export async function deleteSecondFactors(db: DbOrTx, userId: string) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(twoFactorCodes).where(eq(twoFactorCodes.userId, userId));
}
