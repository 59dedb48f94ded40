import QRCode from 'qrcode';
import { LOCKOUT_FAILED_ATTEMPTS } from '@clinicrelay/contracts/constants.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { twoFactorText as text, type TokenAuthSetup, type TwoFactorEnabled } from '@clinicrelay/contracts/two-factor.ts';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { users } from '../../db/schema/users.ts';
import { writeAudit } from '../../platform/audit.ts';
import { clearSessionCache, type AuthContext } from '../../platform/auth/guard.ts';
import { acceptTotp } from '../../platform/auth/totp.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../platform/errors.ts';
import { html } from '../../platform/mail/html.ts';
import { mailDocument } from '../../platform/mail/layout.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import * as accountQueries from '../account/queries.ts';
import { lockState, lockWindowStart } from '../account/service.ts';
import { checkEmailCode, checkSecondFactor, codeMessage, issueRecoveryCodes, methodOf, newTotpSecret, openSecret, sealSecret, sendEmailCode, type SecondFactorDeps } from './codes.ts';
import * as q from './queries.ts';

// Issue 14 §6: the signed-in user's own two-factor calls (end-user §7 "Session and users").

export interface TwoFactorDeps extends SecondFactorDeps {
  db: Database;
  now: () => Date;
}

export interface Caller {
  session: AuthContext;
  ip: string;
}

type User = typeof users.$inferSelect;
const ISSUER = 'ClinicRelay';

const codeError = (message: string) => badRequest(message, { code: [message] });

const audit = (db: DbOrTx, caller: Caller, eventType: string, details: Record<string, unknown>, at: Date) =>
  writeAudit(db, { eventType, userId: caller.session.userId, userName: caller.session.userName, organizationId: caller.session.organizationId, ip: caller.ip, details }, at);

// The work runs in a transaction that commits even when the answer is a refusal, so a counted try, a used code or a
// lockout row is never rolled back by the error that reports it.
async function inUserTransaction<T>(deps: TwoFactorDeps, caller: Caller, work: (tx: Tx, user: User) => Promise<T | AppError>): Promise<T> {
  const outcome = await deps.db.transaction(async (tx) => {
    const user = await q.lockUser(tx, caller.session.userId);
    if (!user) return unauthorized();
    return work(tx, user);
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}

// GET /api/users/enabletokenauth: a new secret waits (sealed) for its first code; it is shown this once.
export async function startTokenAuth(deps: TwoFactorDeps, caller: Caller): Promise<TokenAuthSetup> {
  const now = deps.now();
  const secret = newTotpSecret();
  const user = await inUserTransaction(deps, caller, async (tx, user) => {
    if (user.twoFactorEnabled) return badRequest(text.alreadyEnabled);
    await q.updateUser(tx, user.id, { twoFactorPendingSecret: sealSecret(deps, user.id, secret) });
    await audit(tx, caller, 'TwoFactorEnrolmentStarted', { method: 'App' }, now);
    return user;
  });
  const label = `${ISSUER}:${user.userName}`;
  const otpAuthUri = `otpauth://totp/${encodeURIComponent(label)}?secret=${secret}&issuer=${ISSUER}&algorithm=SHA1&digits=6&period=30`;
  const svg = await QRCode.toString(otpAuthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { secret, otpAuthUri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

async function enable(deps: TwoFactorDeps, tx: Tx, caller: Caller, user: User, values: Partial<User>, method: 'App' | 'Email', now: Date): Promise<TwoFactorEnabled> {
  await q.updateUser(tx, user.id, { ...values, twoFactorEnabled: true, twoFactorPendingSecret: null, modifiedAt: now });
  const recoveryCodes = await issueRecoveryCodes(tx, user.id, now);
  await audit(tx, caller, 'TwoFactorEnabled', { method }, now);
  return { message: method === 'App' ? text.appEnabled : text.emailEnabled, recoveryCodes };
}

// POST /api/users/enabletokenauth {code}: the first code of the pending secret turns the app method on.
export async function confirmTokenAuth(deps: TwoFactorDeps, caller: Caller, code: string): Promise<TwoFactorEnabled> {
  const now = deps.now();
  const result = await inUserTransaction(deps, caller, async (tx, user) => {
    if (user.twoFactorEnabled) return badRequest(text.alreadyEnabled);
    if (!user.twoFactorPendingSecret) return badRequest(text.notEnrolling);
    const step = acceptTotp(openSecret(deps, user.id, user.twoFactorPendingSecret), code.replace(/\s/g, ''), now, null);
    if (step === null) return codeError(text.codeInvalid);
    // Sealed for this user already: the pending value becomes the secret as it is.
    return enable(deps, tx, caller, user, { twoFactorSecret: user.twoFactorPendingSecret, tokenAuthEnabled: true, lastTotpStep: step }, 'App', now);
  });
  clearSessionCache(deps.db);
  return result;
}

// GET /api/users/sendcode?method=Email: a code to enable email codes, or (enrolled by email) to re-authenticate.
export async function sendCode(deps: TwoFactorDeps, caller: Caller) {
  const now = deps.now();
  return inUserTransaction(deps, caller, async (tx, user) => {
    if (user.twoFactorEnabled && methodOf(user) === 'App') return badRequest(text.alreadyEnabled);
    const sent = await sendEmailCode(deps, tx, user, user.twoFactorEnabled ? 'SignIn' : 'Enable', now, caller.session.organizationId);
    if (!sent) return new AppError(429, text.codeRecentlySent);
    await audit(tx, caller, 'TwoFactorCodeSent', { method: 'Email' }, now);
    return { message: text.codeSent };
  });
}

// GET /api/users/enabletfa?code=: the mailed code turns email two-factor on.
export async function enableEmailTwoFactor(deps: TwoFactorDeps, caller: Caller, code: string): Promise<TwoFactorEnabled> {
  const now = deps.now();
  const result = await inUserTransaction(deps, caller, async (tx, user) => {
    if (user.twoFactorEnabled) return badRequest(text.alreadyEnabled);
    const check = await checkEmailCode(tx, user.id, 'Enable', code.replace(/\s/g, ''), now);
    if (check !== 'ok') return codeError(codeMessage(check));
    return enable(deps, tx, caller, user, { twoFactorSecret: null, tokenAuthEnabled: false, lastTotpStep: null }, 'Email', now);
  });
  // A GET that changes the session's rules: the guard's cache must not keep the enrolment requirement.
  clearSessionCache(deps.db);
  return result;
}

/**
 * POST /api/users/{id}/verifycode {code, disable?}: re-authentication of the signed-in user with a second factor
 * (app code, mailed code, recovery code); with disable, their two-factor is then turned off (the security page).
 * A wrong code counts toward the sign-in lockout like a wrong code at sign-in.
 */
export async function verifyCode(deps: TwoFactorDeps, caller: Caller, id: string, body: { code: string; disable?: boolean | undefined }) {
  if (id !== caller.session.userId) throw notFound();
  const now = deps.now();
  const result = await inUserTransaction(deps, caller, async (tx, user) => {
    if (!user.twoFactorEnabled) return badRequest(text.notEnabled);
    const userName = user.userName.trim().toLowerCase();
    await accountQueries.lockUserName(tx, userName);
    const state = lockState(await accountQueries.findRecentAttempts(tx, userName, lockWindowStart(now)));
    if (state.locked) return codeError(messages.accountLocked);
    const check = await checkSecondFactor(deps, tx, user, body.code, now);
    if (check !== 'ok') {
      const lockout = user.lockoutEnabled && state.failures + 1 >= LOCKOUT_FAILED_ATTEMPTS;
      await accountQueries.insertAttempt(tx, { userName, userId: user.id, ip: caller.ip, outcome: lockout ? 'lockout' : 'failure', succeeded: false, createdAt: now });
      await audit(tx, caller, lockout ? 'AccountLockedOut' : 'TwoFactorCodeRejected', {}, now);
      return codeError(codeMessage(check));
    }
    if (!body.disable) {
      await audit(tx, caller, 'TwoFactorCodeVerified', {}, now);
      return { verified: true as const, message: text.codeVerified };
    }
    await removeSecondFactors(deps, tx, user, now, { self: true });
    await audit(tx, caller, 'TwoFactorDisabled', { by: 'self' }, now);
    return { verified: true as const, message: text.disabled };
  });
  if (body.disable) clearSessionCache(deps.db);
  return result;
}

function removedMail(name: string, by: 'self' | 'administrator') {
  const subject = text.removedMailSubject;
  const what = by === 'self' ? 'You turned off two-factor sign-in on your account.' : 'An administrator turned off two-factor sign-in on your account.';
  const next = 'Your authenticator app codes and recovery codes no longer work. You can turn two-factor sign-in on again from Settings, Security.';
  const warn = 'If you did not expect this, contact your administrator.';
  const body = mailDocument(
    subject,
    html`<p>Hello ${name},</p>
<p>${what}</p>
<p>${next}</p>
<p style="font-size: 13px; color: #495057;">${warn}</p>`,
  );
  return { subject, text: [`Hello ${name},`, '', what, next, '', warn, ''].join('\n'), html: body };
}

/**
 * Turns two-factor off (secret, pending secret, method, codes) and mails the user, inside the caller's transaction;
 * the caller writes its own audit row. Used by the user (verifycode), their Administrator (DELETE
 * /api/users/{id}/authenticators) and a system administrator (POST /api/admin/users/{id}/2fa/disable).
 */
export async function removeSecondFactors(
  deps: { mailFrom: MailAddress },
  tx: DbOrTx,
  user: Pick<User, 'id' | 'email' | 'firstName' | 'lastName'>,
  now: Date,
  by: { self: true } | { administratorId: string; organizationId: string | null },
) {
  const organizationId = 'self' in by ? null : by.organizationId;
  const modifiedBy = 'self' in by ? user.id : by.administratorId;
  await q.updateUser(tx, user.id, { twoFactorEnabled: false, tokenAuthEnabled: false, twoFactorSecret: null, twoFactorPendingSecret: null, lastTotpStep: null, modifiedBy, modifiedAt: now });
  await q.deleteSecondFactors(tx, user.id);
  const name = `${user.firstName} ${user.lastName}`.trim();
  await queueMail(tx, { kind: 'TwoFactorRemoved', organizationId, from: deps.mailFrom, to: { name, address: user.email }, ...removedMail(name, 'self' in by ? 'self' : 'administrator'), queuedAt: now });
}
