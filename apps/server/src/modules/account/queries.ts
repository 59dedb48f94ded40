import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { loginAttempts, refreshTokens, sessions } from '../../db/schema/auth.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, userSystemRoles, users } from '../../db/schema/users.ts';

export async function findUserByUserName(db: DbOrTx, userName: string) {
  const [user] = await db.select().from(users).where(eq(users.userName, userName));
  return user;
}

export async function findSystemRoles(db: DbOrTx, userId: string) {
  const rows = await db.select({ role: userSystemRoles.role }).from(userSystemRoles).where(eq(userSystemRoles.userId, userId));
  return rows.map((r) => r.role);
}

// The user's organizations that allow sign-in, by name.
export async function findLoginOrganizations(db: DbOrTx, userId: string) {
  return db
    .select({ id: organizations.id })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), eq(organizations.isEnabled, true)))
    .orderBy(asc(organizations.name));
}

// Serializes concurrent sign-ins of one user name so three failures lock exactly once.
export async function lockUserName(tx: DbOrTx, userName: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'login:' + userName}))`);
}

// Attempts since the last success or lockout, newest first (only what the lockout rule needs).
export async function findRecentAttempts(db: DbOrTx, userName: string, since: Date) {
  return db
    .select({ outcome: loginAttempts.outcome, createdAt: loginAttempts.createdAt })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.userName, userName),
        gt(loginAttempts.createdAt, since),
        inArray(loginAttempts.outcome, ['success', 'failure', 'lockout']),
      ),
    )
    .orderBy(desc(loginAttempts.createdAt))
    .limit(10);
}

export async function insertAttempt(db: DbOrTx, row: typeof loginAttempts.$inferInsert) {
  await db.insert(loginAttempts).values(row);
}

export async function insertSession(db: DbOrTx, row: typeof sessions.$inferInsert) {
  const [session] = await db.insert(sessions).values(row).returning({ id: sessions.id });
  return session!;
}

export async function findSessionById(db: DbOrTx, id: string) {
  const [session] = await db.select().from(sessions).where(eq(sessions.id, id));
  return session;
}

export async function revokeSession(db: DbOrTx, id: string, reason: string, at: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(sessions.id, id), sql`${sessions.revokedAt} is null`));
}

export async function insertRefreshToken(db: DbOrTx, row: typeof refreshTokens.$inferInsert) {
  await db.insert(refreshTokens).values(row);
}

export async function findRefreshToken(db: DbOrTx, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

// Marks a refresh token used; false when another request used it first.
export async function markRefreshTokenUsed(db: DbOrTx, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: at })
    .where(and(eq(refreshTokens.id, id), sql`${refreshTokens.usedAt} is null`))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}
