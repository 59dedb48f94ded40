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

// Sign-in reads the user, their recent attempts (findRecentAttempts' rule), their system roles and the organizations
// that allow sign-in (by name), before and again under the lock: one statement each time.
const signInStateQuery = (db: DbOrTx, userName: string | Placeholder, since: string | Placeholder) =>
  db
    .select({
      user: users,
      recent: sql<{ outcome: string; createdAt: string }[] | null>`(select json_agg(json_build_object('outcome', a.outcome, 'createdAt', a.created_at) order by a.created_at desc)
        from (select ${loginAttempts.outcome}, ${loginAttempts.createdAt} from ${loginAttempts}
              where ${loginAttempts.userName} = ${userName} and ${loginAttempts.createdAt} > ${since}::timestamptz
                and ${loginAttempts.outcome} in ('success', 'failure', 'lockout')
              order by ${loginAttempts.createdAt} desc limit 10) a)`,
      systemRoles: sql<(typeof userSystemRoles.$inferSelect)['role'][]>`array(select ${userSystemRoles.role} from ${userSystemRoles} where ${userSystemRoles.userId} = ${users.id})`,
      organizationIds: sql<string[]>`array(select ${organizations.id} from ${memberships} inner join ${organizations} on ${organizations.id} = ${memberships.organizationId}
        where ${memberships.userId} = ${users.id} and ${organizations.isEnabled} order by ${organizations.name})`,
    })
    .from(sql`(select 1) as "one"`)
    .leftJoin(users, eq(users.userName, userName));

type SignInStateRow = Awaited<ReturnType<typeof signInStateQuery>>[number];
const signInState = (row: SignInStateRow | undefined) => ({
  user: row?.user ?? undefined,
  attempts: (row?.recent ?? []).map((a) => ({ outcome: a.outcome as (typeof loginAttempts.$inferSelect)['outcome'], createdAt: new Date(a.createdAt) })),
  systemRoles: row?.user ? row.systemRoles : [],
  organizations: row?.user ? row.organizationIds.map((id) => ({ id })) : [],
});

// Before the lock, every sign-in runs the same statement: built once per database (prepared once per PostgreSQL connection).
const preparedSignInStates = new WeakMap<Database, ReturnType<typeof prepareSignInState>>();
const prepareSignInState = (db: Database) => signInStateQuery(db, sql.placeholder('userName'), sql.placeholder('since')).prepare('sign_in_state');

export async function findSignInStateBeforeLock(db: Database, userName: string, since: Date) {
  let prepared = preparedSignInStates.get(db);
  if (!prepared) preparedSignInStates.set(db, (prepared = prepareSignInState(db)));
  const [row] = await prepared.execute({ userName, since: since.toISOString() });
  return signInState(row);
}

// Under the lock, in its transaction.
export async function findSignInState(tx: DbOrTx, userName: string, since: Date) {
  const [row] = await signInStateQuery(tx, userName, since.toISOString());
  return signInState(row);
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
