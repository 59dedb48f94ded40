import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS, LOCKOUT_FAILED_ATTEMPTS, LOCKOUT_MINUTES } from '@clinicrelay/contracts/constants.ts';
import type { LoginRequest, TokenResponse } from '@clinicrelay/contracts/account.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { registrationMessages } from '@clinicrelay/contracts/registration.ts';
import type { Database, Tx } from '../../db/client.ts';
import type { loginAttempts } from '../../db/schema/auth.ts';
import { auditRow, writeAudit } from '../../platform/audit.ts';
import { loadSession } from '../../platform/auth/guard.ts';
import { verifyPassword } from '../../platform/auth/passwords.ts';
import { newRefreshToken, sha256, signAccessToken } from '../../platform/auth/tokens.ts';
import { AppError, unauthorized } from '../../platform/errors.ts';
import { checkSecondFactor, isRecoveryCode, methodOf, sendEmailCode, type SecondFactorDeps } from '../two-factor/codes.ts';
import * as q from './queries.ts';

// SecondFactorDeps: the sealed TOTP secrets and the sign-in codes mailed to email two-factor users (issue 14 §6).
export interface AccountDeps extends SecondFactorDeps {
  db: Database;
  signingKey: Uint8Array;
  now: () => Date;
  // Automatic logoff (HIPAA 164.312(a)(2)(iii)): idle minutes and absolute hours of a session.
  sessionIdleMinutes: number;
  sessionMaxHours: number;
}

export interface Caller {
  ip: string;
  userAgent?: string | undefined;
}

type LoginOutcome = typeof loginAttempts.$inferInsert.outcome;
type User = NonNullable<Awaited<ReturnType<typeof q.findUserByUserName>>>;

export const lockWindowStart = (now: Date) => new Date(now.getTime() - LOCKOUT_MINUTES * 60_000);

// Locked while a lockout row is younger than the lockout period and no success came after it.
export function lockState(attempts: Awaited<ReturnType<typeof q.findRecentAttempts>>) {
  const lastReset = attempts.find((a) => a.outcome !== 'failure');
  const failures = attempts.filter((a) => a.outcome === 'failure' && (!lastReset || a.createdAt > lastReset.createdAt));
  return { locked: lastReset?.outcome === 'lockout', failures: failures.length };
}

// Sign-ins of one user name wait here, one at a time per app, instead of each holding a pooled
// connection while it waits for the advisory lock (which serializes them across processes).
const signInQueues = new WeakMap<AccountDeps, Map<string, Promise<unknown>>>();

async function oneAtATime<T>(deps: AccountDeps, key: string, work: () => Promise<T>): Promise<T> {
  let queues = signInQueues.get(deps);
  if (!queues) signInQueues.set(deps, (queues = new Map<string, Promise<unknown>>()));
  const run = (queues.get(key) ?? Promise.resolve()).then(work);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  try {
    return await run;
  } finally {
    if (queues.get(key) === tail) queues.delete(key);
  }
}

type Decision = { error: AppError } | { userId: string; sessionId: string; refreshToken: string };
type Account = Awaited<ReturnType<typeof q.findSignInAccount>>;

// The lock check, the password and code checks and the recording of the outcome are one serialized
// step per user name, so at most LOCKOUT_FAILED_ATTEMPTS failures are ever evaluated before the lock holds.
export async function login(deps: AccountDeps, input: LoginRequest, caller: Caller): Promise<TokenResponse> {
  const userName = input.userName.trim().toLowerCase();
  const decision = await oneAtATime(deps, userName, async () => {
    // argon2 runs outside the transaction so no connection waits on it, and the account is read meanwhile; the hash
    // it was checked against is compared again under the lock. A locked name skips it.
    const before = await q.findLockCheckBeforeLock(deps.db, userName, lockWindowStart(deps.now()));
    const locked = lockState(before.attempts).locked;
    const [account, ok] = await Promise.all([q.findSignInAccount(deps.db, userName), locked ? false : verifyPassword(before.passwordHash, input.password)]);
    const checked = locked ? null : { hash: before.passwordHash, ok };
    return deps.db.transaction(async (tx) => {
      await q.lockUserName(tx, userName);
      return decide(deps, tx, userName, input, caller, account, checked);
    });
  });
  if ('error' in decision) throw decision.error;
  return tokenPair(deps, decision.userId, decision.sessionId, decision.refreshToken);
}

// The account as read before the lock: a sign-in is decided as of then, but for the lockout state and the password
// hash, which are read again under the lock (a concurrent failure or password change is never missed).
async function decide(
  deps: AccountDeps,
  tx: Tx,
  userName: string,
  input: LoginRequest,
  caller: Caller,
  { user, systemRoles, organizations: orgs }: Account,
  checked: { hash: string | null | undefined; ok: boolean } | null,
): Promise<Decision> {
  const now = deps.now();
  const { passwordHash, lastTotpStep, attempts } = await q.findLockCheck(tx, userName, lockWindowStart(now));
  const audit = { userId: user?.id ?? null, userName, ip: caller.ip };
  const attemptRow = (outcome: LoginOutcome, userId = user?.id) => ({ userName, userId, ip: caller.ip, outcome, succeeded: outcome === 'success', createdAt: now });
  const attempt = (outcome: LoginOutcome, userId = user?.id) => q.insertAttempt(tx, attemptRow(outcome, userId));
  const state = lockState(attempts);

  // Counts a failed password or code; the third within the lockout period locks the user name.
  const fail = async (message: string, extra: ConstructorParameters<typeof AppError>[2] = {}): Promise<Decision> => {
    const lockout = user?.lockoutEnabled !== false && state.failures + 1 >= LOCKOUT_FAILED_ATTEMPTS;
    await attempt(lockout ? 'lockout' : 'failure');
    await writeAudit(tx, { ...audit, eventType: lockout ? 'AccountLockedOut' : 'LoginFailed' });
    if (lockout) return { error: new AppError(401, messages.accountLocked) };
    return { error: new AppError(401, message, extra) };
  };

  if (state.locked) {
    await attempt('locked');
    await writeAudit(tx, { ...audit, eventType: 'LoginRefusedLocked' });
    return { error: new AppError(401, messages.accountLocked) };
  }
  // Checked before the lock against this same hash; checked now when it changed or the name was locked then.
  const passwordOk = checked && checked.hash === passwordHash ? checked.ok : await verifyPassword(passwordHash, input.password);
  if (!user || !passwordOk) return fail(messages.invalidCredentials);
  // The replay check reads the authenticator step as of the lock, not as of the account's read before it.
  const found: User = { ...user, lastTotpStep };
  if (found.isDisabled) {
    await attempt('disabled');
    await writeAudit(tx, { ...audit, eventType: 'LoginRefusedDisabled' });
    return { error: new AppError(401, messages.userDisabled) };
  }
  // A self-registered account waits for its verification mail's link (registration module); told only after the password matched.
  if (found.emailConfirmedAt === null) {
    await attempt('disabled');
    await writeAudit(tx, { ...audit, eventType: 'LoginRefusedEmailNotConfirmed' });
    return { error: new AppError(401, registrationMessages.emailNotConfirmed) };
  }

  if (systemRoles.length === 0 && orgs.length === 0) {
    await attempt('disabled');
    await writeAudit(tx, { ...audit, eventType: 'LoginRefusedOrganizationDisabled' });
    return { error: new AppError(401, messages.organizationLoginDisabled) };
  }

  // Issue 14 §6: the app's code, the code mailed now (at most one a minute: asking again is "Send the code again"),
  // or a recovery code; each works once, and a wrong one counts toward the lockout like a wrong password.
  if (found.twoFactorEnabled) {
    const twoFactor = { twoFactorRequired: true, twoFactorMethod: methodOf(found) };
    const code = input.code?.trim();
    if (!code) {
      await attempt('two-factor');
      if (twoFactor.twoFactorMethod === 'Email') await sendEmailCode(deps, tx, found, 'SignIn', now, found.defaultOrganizationId);
      return { error: new AppError(401, messages.twoFactorRequired, twoFactor) };
    }
    if ((await checkSecondFactor(deps, tx, found, code, now)) !== 'ok') return fail(messages.twoFactorRequired, twoFactor);
    if (isRecoveryCode(code)) await writeAudit(tx, { ...audit, eventType: 'RecoveryCodeUsed' });
  }

  const organizationId = orgs.find((o) => o.id === found.defaultOrganizationId)?.id ?? orgs[0]?.id ?? null;
  const refreshToken = newRefreshToken();
  const expiresAt = new Date(now.getTime() + deps.sessionMaxHours * 3_600_000);
  const session = {
    id: randomUUID(),
    userId: found.id,
    organizationId,
    ip: caller.ip,
    userAgent: caller.userAgent?.slice(0, 512),
    createdAt: now,
    lastSeenAt: now,
    idleTimeoutMinutes: deps.sessionIdleMinutes,
    expiresAt,
  };
  await q.recordSignIn(tx, {
    attempt: attemptRow('success'),
    session,
    refreshToken: { tokenHash: sha256(refreshToken), expiresAt },
    audit: auditRow({ ...audit, organizationId, eventType: 'Login', correlationId: session.id }),
  });
  return { userId: found.id, sessionId: session.id, refreshToken };
}

async function tokenPair(deps: AccountDeps, userId: string, sessionId: string, refreshToken: string): Promise<TokenResponse> {
  return {
    accessToken: await signAccessToken(deps.signingKey, { userId, sessionId }, deps.now()),
    tokenType: 'Bearer',
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    refreshToken,
  };
}

// userActivity false (a renewal for a self-refreshing page): the session's idle time keeps running.
export async function refresh(deps: AccountDeps, refreshToken: string, caller: Caller, userActivity = true): Promise<TokenResponse> {
  const { db } = deps;
  const now = deps.now();
  const stored = await q.findRefreshToken(db, sha256(refreshToken));
  if (!stored || stored.expiresAt <= now) throw unauthorized();
  const session = await q.findSessionById(db, stored.sessionId);
  if (!session) throw unauthorized();
  // A used refresh token presented again means it was copied: end the whole session.
  if (stored.usedAt || !(await q.markRefreshTokenUsed(db, stored.id, now))) {
    await q.revokeSession(db, session.id, 'refresh-token-reuse', now);
    await writeAudit(db, { eventType: 'RefreshTokenReuse', userId: session.userId, organizationId: session.organizationId, ip: caller.ip, correlationId: session.id });
    throw unauthorized();
  }
  if (!(await loadSession(db, session.id, session.userId, now, { touch: userActivity }))) throw unauthorized();
  const next = newRefreshToken();
  await q.insertRefreshToken(db, { sessionId: session.id, tokenHash: sha256(next), expiresAt: session.expiresAt });
  return tokenPair(deps, session.userId, session.id, next);
}

export async function logout(deps: AccountDeps, session: { sessionId: string; userId: string; userName: string; organizationId: string | null }, caller: Caller): Promise<void> {
  await q.revokeSession(deps.db, session.sessionId, 'logout', deps.now());
  await writeAudit(deps.db, {
    eventType: 'Logout',
    userId: session.userId,
    userName: session.userName,
    organizationId: session.organizationId,
    ip: caller.ip,
    correlationId: session.sessionId,
  });
}
