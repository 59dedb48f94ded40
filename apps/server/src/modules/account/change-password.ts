import { and, eq, isNull, ne } from 'drizzle-orm';
import { LOCKOUT_FAILED_ATTEMPTS } from '@clinicrelay/contracts/constants.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { passwordMessages, type ChangePasswordRequest } from '@clinicrelay/contracts/passwords.ts';
import { sessions } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';
import { writeAudit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/guard.ts';
import { passwordProblem } from '../../platform/auth/password-policy.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { queuePasswordChangedMail, revokeSessionsOf, type PasswordLinkDeps } from './password-links.ts';
import * as q from './queries.ts';
import { lockState, lockWindowStart, type Caller } from './service.ts';

export type ChangePasswordDeps = Pick<PasswordLinkDeps, 'db' | 'now' | 'mailFrom'> & { publicUrl: string };

const field = (name: keyof ChangePasswordRequest, message: string) => badRequest(message, { [name]: [message] });

/**
 * POST /api/account/changepassword (issue 14 §5; not in the spec). A wrong current password counts toward the
 * sign-in lockout (3 failures in 10 minutes lock the user name): a stolen session cannot guess the password any
 * faster than the sign-in page could, and a locked account cannot change it until the lock ends. The caller's
 * session stays; every other session of the user ends.
 */
export async function changePassword(deps: ChangePasswordDeps, session: AuthContext, body: ChangePasswordRequest, caller: Caller) {
  const now = deps.now();
  const [user] = await deps.db.select().from(users).where(eq(users.id, session.userId));
  if (!user) throw notFound();
  const audit = { userId: user.id, userName: user.userName, organizationId: session.organizationId, ip: caller.ip, correlationId: session.sessionId };

  const state = lockState(await q.findRecentAttempts(deps.db, user.userName, lockWindowStart(now)));
  if (state.locked) throw field('currentPassword', messages.accountLocked);
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    const lockout = user.lockoutEnabled !== false && state.failures + 1 >= LOCKOUT_FAILED_ATTEMPTS;
    await deps.db.transaction(async (tx) => {
      await q.insertAttempt(tx, { userName: user.userName, userId: user.id, ip: caller.ip, outcome: lockout ? 'lockout' : 'failure', succeeded: false, createdAt: now });
      await writeAudit(tx, { ...audit, eventType: lockout ? 'AccountLockedOut' : 'PasswordChangeFailed' }, now);
    });
    throw field('currentPassword', lockout ? messages.accountLocked : passwordMessages.currentIncorrect);
  }

  const next = body.newPassword!;
  const problem = await passwordProblem(next, user.userName);
  if (problem) throw field('newPassword', problem);
  if (next === body.currentPassword) throw field('newPassword', passwordMessages.sameAsCurrent);
  const passwordHash = await hashPassword(next);

  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: now, modifiedAt: now }).where(eq(users.id, user.id));
    const others = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), ne(sessions.id, session.sessionId)));
    const ended = await revokeSessionsOf(tx, user.id, 'password-changed', now, others.map((s) => s.id));
    await writeAudit(tx, { ...audit, eventType: 'PasswordChanged', details: { otherSessionsEnded: ended } }, now);
    await queuePasswordChangedMail(deps, tx, user, now);
  });
  return { message: passwordMessages.changed };
}
