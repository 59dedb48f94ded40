import { and, desc, eq, gt, inArray, sql, type Placeholder } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.ts';
import { loginAttempts, refreshTokens, sessions } from '../../db/schema/auth.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, userSystemRoles, users } from '../../db/schema/users.ts';

export async function findUserByUserName(db: DbOrTx, userName: string) {
  const [user] = await db.select().from(users).where(eq(users.userName, userName));
  return user;
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

// Sign-in asks twice what the lockout rule and the credential checks need, the password hash, the last authenticator
// step and the recent attempts
// (findRecentAttempts' rule): before the lock, so argon2 runs outside any transaction, and again under it.
const lockCheckQuery = (db: DbOrTx, userName: string | Placeholder, since: string | Placeholder) =>
  db
    .select({
      passwordHash: sql<string | null>`(select ${users.passwordHash} from ${users} where ${users.userName} = ${userName})`,
      // The authenticator step last used: its replay check must see a concurrent sign-in's use (another process's too).
      lastTotpStep: sql<number | null>`(select ${users.lastTotpStep} from ${users} where ${users.userName} = ${userName})`,
      recent: sql<{ outcome: string; createdAt: string }[] | null>`(select json_agg(json_build_object('outcome', a.outcome, 'createdAt', a.created_at) order by a.created_at desc)
        from (select ${loginAttempts.outcome}, ${loginAttempts.createdAt} from ${loginAttempts}
              where ${loginAttempts.userName} = ${userName} and ${loginAttempts.createdAt} > ${since}::timestamptz
                and ${loginAttempts.outcome} in ('success', 'failure', 'lockout')
              order by ${loginAttempts.createdAt} desc limit 10) a)`,
    })
    .from(sql`(select 1) as "one"`);

// The account itself (the user, their system roles and the organizations that allow sign-in, by name): read while
// argon2 runs, and not again under the lock, where only the lockout state and the hash must be current.
const signInAccountQuery = (db: Database, userName: Placeholder) =>
  db
    .select({
      user: users,
      systemRoles: sql<(typeof userSystemRoles.$inferSelect)['role'][]>`array(select ${userSystemRoles.role} from ${userSystemRoles} where ${userSystemRoles.userId} = ${users.id})`,
      organizationIds: sql<string[]>`array(select ${organizations.id} from ${memberships} inner join ${organizations} on ${organizations.id} = ${memberships.organizationId}
        where ${memberships.userId} = ${users.id} and ${organizations.isEnabled} order by ${organizations.name})`,
    })
    // Joined rather than selected from, so drizzle qualifies users.id inside the subqueries.
    .from(sql`(select 1) as "one"`)
    .innerJoin(users, eq(users.userName, userName));

type LockCheckRow = Awaited<ReturnType<typeof lockCheckQuery>>[number];
const lockCheck = (row: LockCheckRow | undefined) => ({
  passwordHash: row?.passwordHash ?? null,
  lastTotpStep: row?.lastTotpStep == null ? null : Number(row.lastTotpStep),
  attempts: (row?.recent ?? []).map((a) => ({ outcome: a.outcome as (typeof loginAttempts.$inferSelect)['outcome'], createdAt: new Date(a.createdAt) })),
});

// Every sign-in runs the same statements: built once per database (prepared once per PostgreSQL connection).
const prepared = new WeakMap<Database, { lockCheck: ReturnType<typeof prepareLockCheck>; account: ReturnType<typeof prepareAccount> }>();
const prepareLockCheck = (db: Database) => lockCheckQuery(db, sql.placeholder('userName'), sql.placeholder('since')).prepare('sign_in_lock_check');
const prepareAccount = (db: Database) => signInAccountQuery(db, sql.placeholder('userName')).prepare('sign_in_account');
const statements = (db: Database) => {
  let found = prepared.get(db);
  if (!found) prepared.set(db, (found = { lockCheck: prepareLockCheck(db), account: prepareAccount(db) }));
  return found;
};

export async function findLockCheckBeforeLock(db: Database, userName: string, since: Date) {
  const [row] = await statements(db).lockCheck.execute({ userName, since: since.toISOString() });
  return lockCheck(row);
}

// Under the lock, in its transaction.
export async function findLockCheck(tx: DbOrTx, userName: string, since: Date) {
  const [row] = await lockCheckQuery(tx, userName, since.toISOString());
  return lockCheck(row);
}

export async function findSignInAccount(db: Database, userName: string) {
  const [row] = await statements(db).account.execute({ userName });
  return { user: row?.user, systemRoles: row?.systemRoles ?? [], organizations: (row?.organizationIds ?? []).map((id) => ({ id })) };
}

// A successful sign-in's rows (its attempt, the session, its refresh token and the audit row) in one statement.
export async function recordSignIn(
  tx: DbOrTx,
  rows: {
    attempt: typeof loginAttempts.$inferInsert;
    session: typeof sessions.$inferInsert & { id: string };
    refreshToken: Omit<typeof refreshTokens.$inferInsert, 'sessionId'>;
    audit: typeof auditEvents.$inferInsert;
  },
) {
  const attempt = tx.$with('signed_in_attempt').as(tx.insert(loginAttempts).values(rows.attempt).returning({ id: loginAttempts.id }));
  const session = tx.$with('signed_in_session').as(tx.insert(sessions).values(rows.session).returning({ id: sessions.id }));
  const token = tx.$with('signed_in_token').as(tx.insert(refreshTokens).values({ ...rows.refreshToken, sessionId: rows.session.id }).returning({ id: refreshTokens.id }));
  const audit = tx.$with('signed_in_audit').as(tx.insert(auditEvents).values(rows.audit).returning({ id: auditEvents.id }));
  await tx.with(attempt, session, token, audit).select({ id: session.id }).from(session);
}
