import {
  ACCESS_TOKEN_TTL_SECONDS,
  LOCKOUT_FAILED_ATTEMPTS,
  LOCKOUT_MINUTES,
  REFRESH_TOKEN_TTL_SECONDS,
} from '@clinicrelay/contracts/constants.ts';
import type { LoginRequest, TokenResponse } from '@clinicrelay/contracts/account.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../platform/audit.ts';
import { loadSession } from '../../platform/auth/guard.ts';
import { verifyPassword } from '../../platform/auth/passwords.ts';
import { newRefreshToken, sha256, signAccessToken } from '../../platform/auth/tokens.ts';
import { verifyTotp } from '../../platform/auth/totp.ts';
import { AppError, unauthorized } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface AccountDeps {
  db: Database;
  signingKey: Uint8Array;
  now: () => Date;
}

export interface Caller {
  ip: string;
  userAgent?: string | undefined;
}

type User = NonNullable<Awaited<ReturnType<typeof q.findUserByUserName>>>;

const lockWindowStart = (now: Date) => new Date(now.getTime() - LOCKOUT_MINUTES * 60_000);

// Locked while a lockout row is younger than the lockout period and no success came after it.
function lockState(attempts: Awaited<ReturnType<typeof q.findRecentAttempts>>) {
  const lastReset = attempts.find((a) => a.outcome !== 'failure');
  const failures = attempts.filter((a) => a.outcome === 'failure' && (!lastReset || a.createdAt > lastReset.createdAt));
  return { locked: lastReset?.outcome === 'lockout', failures: failures.length };
}

export async function login(deps: AccountDeps, input: LoginRequest, caller: Caller): Promise<TokenResponse> {
  const { db } = deps;
  const userName = input.userName.trim().toLowerCase();
  const user = await q.findUserByUserName(db, userName);
  const audit = { userId: user?.id ?? null, userName, ip: caller.ip };

  if (lockState(await q.findRecentAttempts(db, userName, lockWindowStart(deps.now()))).locked) {
    await q.insertAttempt(db, { userName, userId: user?.id, ip: caller.ip, outcome: 'locked', succeeded: false, createdAt: deps.now() });
    await writeAudit(db, { ...audit, eventType: 'LoginRefusedLocked' });
    throw new AppError(401, messages.accountLocked);
  }

  if (!(await verifyPassword(user?.passwordHash, input.password))) {
    return failAttempt(deps, userName, user, caller, messages.invalidCredentials);
  }
  const found = user!;
  if (found.isDisabled) {
    await q.insertAttempt(db, { userName, userId: found.id, ip: caller.ip, outcome: 'disabled', succeeded: false, createdAt: deps.now() });
    await writeAudit(db, { ...audit, eventType: 'LoginRefusedDisabled' });
    throw new AppError(401, messages.userDisabled);
  }

  const systemRoles = await q.findSystemRoles(db, found.id);
  const orgs = await q.findLoginOrganizations(db, found.id);
  if (systemRoles.length === 0 && orgs.length === 0) {
    await q.insertAttempt(db, { userName, userId: found.id, ip: caller.ip, outcome: 'disabled', succeeded: false, createdAt: deps.now() });
    await writeAudit(db, { ...audit, eventType: 'LoginRefusedOrganizationDisabled' });
    throw new AppError(401, messages.organizationLoginDisabled);
  }

  if (found.twoFactorEnabled) {
    const code = input.code?.trim();
    if (!code) {
      await q.insertAttempt(db, { userName, userId: found.id, ip: caller.ip, outcome: 'two-factor', succeeded: false, createdAt: deps.now() });
      throw new AppError(401, messages.twoFactorRequired, { twoFactorRequired: true });
    }
    if (!found.twoFactorSecret || !verifyTotp(found.twoFactorSecret, code, deps.now())) {
      return failAttempt(deps, userName, found, caller, messages.twoFactorRequired, true);
    }
  }

  const organizationId = orgs.find((o) => o.id === found.defaultOrganizationId)?.id ?? orgs[0]?.id ?? null;
  const now = deps.now();
  const refreshToken = newRefreshToken();
  const session = await db.transaction(async (tx) => {
    await q.insertAttempt(tx, { userName, userId: found.id, ip: caller.ip, outcome: 'success', succeeded: true, createdAt: deps.now() });
    const s = await q.insertSession(tx, {
      userId: found.id,
      organizationId,
      ip: caller.ip,
      userAgent: caller.userAgent?.slice(0, 512),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    });
    await q.insertRefreshToken(tx, { sessionId: s.id, tokenHash: sha256(refreshToken), expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000) });
    await writeAudit(tx, { ...audit, organizationId, eventType: 'Login', correlationId: s.id });
    return s;
  });
  return tokenPair(deps, found.id, session.id, refreshToken);
}

// Counts a failed password or code; the third within the lockout period locks the user name.
async function failAttempt(
  deps: AccountDeps,
  userName: string,
  user: User | undefined,
  caller: Caller,
  message: string,
  twoFactorRequired = false,
): Promise<never> {
  const locked = await deps.db.transaction(async (tx) => {
    await q.lockUserName(tx, userName);
    const state = lockState(await q.findRecentAttempts(tx, userName, lockWindowStart(deps.now())));
    const lockout = state.locked || (user?.lockoutEnabled !== false && state.failures + 1 >= LOCKOUT_FAILED_ATTEMPTS);
    await q.insertAttempt(tx, { userName, userId: user?.id, ip: caller.ip, outcome: lockout ? 'lockout' : 'failure', succeeded: false, createdAt: deps.now() });
    await writeAudit(tx, {
      eventType: lockout ? 'AccountLockedOut' : 'LoginFailed',
      userId: user?.id ?? null,
      userName,
      ip: caller.ip,
    });
    return lockout;
  });
  if (locked) throw new AppError(401, messages.accountLocked);
  throw new AppError(401, message, twoFactorRequired ? { twoFactorRequired: true } : {});
}

async function tokenPair(deps: AccountDeps, userId: string, sessionId: string, refreshToken: string): Promise<TokenResponse> {
  return {
    accessToken: await signAccessToken(deps.signingKey, { userId, sessionId }, deps.now()),
    tokenType: 'Bearer',
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    refreshToken,
  };
}

export async function refresh(deps: AccountDeps, refreshToken: string, caller: Caller): Promise<TokenResponse> {
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
  if (!(await loadSession(db, session.id, session.userId, now))) throw unauthorized();
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
