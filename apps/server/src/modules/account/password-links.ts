import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { adminUserMessages, type setPasswordRequest } from '@clinicrelay/contracts/admin-users.ts';
import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import { passwordMessages } from '@clinicrelay/contracts/passwords.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { refreshTokens, sessions } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { users } from '../../db/schema/users.ts';
import { writeAudit } from '../../platform/audit.ts';
import { passwordProblem } from '../../platform/auth/password-policy.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { createSignedToken, readSignedToken } from '../../platform/auth/signed-link.ts';
import { badRequest } from '../../platform/errors.ts';
import { html } from '../../platform/mail/html.ts';
import { appUrl, linkMail, mailDocument } from '../../platform/mail/layout.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';

// Set-password links of the account-creation and password-reset mails. A link is stateless (platform/auth/signed-link.ts):
// the user, its purpose (the token's kind) and expiry, signed with the token key together with the user's current
// password hash, so setting a password (which changes the hash) uses up every link issued before; no table is
// needed. Issue 14 adds the public "forgot password" request on top of it.

export type PasswordLinkPurpose = 'AccountCreation' | 'PasswordReset';

// A reset link works for an hour (issue 14 §5); an account-creation link for a week, since new users may not
// read their mail on the day their account is made.
const LINK_TTL_MS: Record<PasswordLinkPurpose, number> = { AccountCreation: 7 * 24 * 3_600_000, PasswordReset: 3_600_000 };

export interface PasswordLinkDeps {
  db: Database;
  now: () => Date;
  signingKey: Uint8Array;
  mailFrom: MailAddress;
  publicUrl: string;
}

// The token's HMAC purpose; the link's binding is the password hash ('' before the first password).
const LINK_PURPOSE = 'password-link';

const createToken = (key: Uint8Array, user: { id: string; passwordHash: string | null }, purpose: PasswordLinkPurpose, now: Date) =>
  createSignedToken(key, LINK_PURPOSE, user.id, user.passwordHash ?? '', new Date(now.getTime() + LINK_TTL_MS[purpose]), purpose);

function readToken(token: string) {
  const read = readSignedToken(token);
  const purpose = read?.kind;
  if (!read || (purpose !== 'AccountCreation' && purpose !== 'PasswordReset')) return undefined;
  return { ...read, purpose };
}

export const passwordLink = (publicUrl: string, token: string) => appUrl(publicUrl, `/account/password?token=${encodeURIComponent(token)}`);

function passwordLinkMail(purpose: PasswordLinkPurpose, name: string, link: string) {
  const brand = DEFAULT_BRAND_NAME;
  return purpose === 'AccountCreation'
    ? linkMail({
        subject: `Your ${brand} account`,
        name,
        intro: `An account has been created for you in ${brand}. Choose your password to sign in:`,
        action: 'Create your password',
        link,
        validity: 'The link works once and expires in 7 days.',
      })
    : linkMail({
        subject: `Reset your ${brand} password`,
        name,
        intro: `A password reset was requested for your ${brand} account. Choose a new password:`,
        action: 'Reset your password',
        link,
        validity: 'The link works once and expires in one hour.',
      });
}

/** Queues the mail with a set-password link for the user, inside the caller's transaction; returns the mail's id. */
export async function queuePasswordLinkMail(
  deps: Omit<PasswordLinkDeps, 'db'>,
  tx: DbOrTx,
  user: { id: string; email: string; firstName: string; lastName: string; passwordHash: string | null },
  purpose: PasswordLinkPurpose,
  organizationId: string | null,
) {
  const now = deps.now();
  const name = `${user.firstName} ${user.lastName}`.trim();
  const mail = passwordLinkMail(purpose, name, passwordLink(deps.publicUrl, createToken(deps.signingKey, user, purpose, now)));
  return queueMail(tx, { kind: purpose, organizationId, from: deps.mailFrom, to: { name, address: user.email }, ...mail, queuedAt: now });
}

const linkUserColumns = {
  id: users.id,
  userName: users.userName,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  passwordHash: users.passwordHash,
  isDisabled: users.isDisabled,
  defaultOrganizationId: users.defaultOrganizationId,
};

const signedFor = (key: Uint8Array, token: NonNullable<ReturnType<typeof readToken>>, passwordHash: string | null) => token.verify(key, LINK_PURPOSE, passwordHash ?? '');

/** POST /api/account/password: sets the password of the link's user; the link is then used up. Two-factor sign-in
 * stays as it was: a reset proves control of the mailbox, not of the second factor (issue 14 §5). */
export async function setPasswordFromLink(deps: Omit<PasswordLinkDeps, 'publicUrl'> & { publicUrl: string }, body: z.output<typeof setPasswordRequest>, ip: string) {
  const invalid = () => badRequest(adminUserMessages.linkInvalid, { token: [adminUserMessages.linkInvalid] });
  const token = readToken(body.token);
  const now = deps.now();
  if (!token || token.expiresAt <= now) throw invalid();
  // The link is checked before the password, so a used or forged link never learns anything about the rules' outcome.
  const [before] = await deps.db.select(linkUserColumns).from(users).where(eq(users.id, token.subjectId));
  if (!before || before.isDisabled || !signedFor(deps.signingKey, token, before.passwordHash)) throw invalid();
  const problem = await passwordProblem(body.password!, before.userName);
  if (problem) throw badRequest(problem, { password: [problem] });
  const passwordHash = await hashPassword(body.password!);
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.select(linkUserColumns).from(users).where(eq(users.id, token.subjectId)).for('update');
    // Checked again under the lock: two requests with the same link, only the first sets the password.
    if (!user || user.isDisabled || !signedFor(deps.signingKey, token, user.passwordHash)) throw invalid();
    await tx.update(users).set({ passwordHash, passwordChangedAt: now, modifiedAt: now }).where(eq(users.id, user.id));
    // A new password ends every session that began with the old one.
    await revokeSessionsOf(tx, user.id, 'password-set', now);
    await writeAudit(tx, { eventType: token.purpose === 'AccountCreation' ? 'PasswordCreated' : 'PasswordReset', userId: user.id, userName: user.userName, ip }, now);
    if (token.purpose === 'PasswordReset') await queuePasswordChangedMail(deps, tx, user, now);
  });
  return { message: adminUserMessages.passwordSet };
}

/** The notice after a change or a reset: when, and what to do if it was not the user. No link with a token, no password. */
export async function queuePasswordChangedMail(
  deps: Pick<PasswordLinkDeps, 'mailFrom'> & { publicUrl: string },
  tx: DbOrTx,
  user: { email: string; firstName: string; lastName: string; defaultOrganizationId: string | null },
  at: Date,
) {
  const brand = DEFAULT_BRAND_NAME;
  const name = `${user.firstName} ${user.lastName}`.trim();
  const when = `${at.toISOString().slice(5, 7)}/${at.toISOString().slice(8, 10)}/${at.toISOString().slice(0, 4)} at ${at.toISOString().slice(11, 16)} UTC`;
  const forgot = appUrl(deps.publicUrl, '/account/forgot-password');
  const subject = `Your ${brand} password was changed`;
  const intro = `The password of your ${brand} account was changed on ${when}.`;
  const warning = `If you did not change it, reset your password now and tell your organization's administrator:`;
  const text = [`Hello ${name},`, '', intro, '', warning, forgot, ''].join('\n');
  const body = mailDocument(
    subject,
    html`<p>Hello ${name},</p>
<p>${intro}</p>
<p>${warning} <a href="${forgot}">${forgot}</a></p>`,
  );
  return queueMail(tx, { kind: 'PasswordChanged', organizationId: user.defaultOrganizationId, from: deps.mailFrom, to: { name, address: user.email }, subject, text, html: body, queuedAt: at });
}

// The public reset request answers no sooner than this, whether a mail was queued or not, so its timing does not
// tell whether the account exists; a reset mail to the same user at most once a minute stops mailbox flooding.
const RESET_ANSWER_FLOOR_MS = 400;
const RESET_MAIL_INTERVAL_MS = 60_000;

/** POST /api/users/resetpassword without a session {userName}: the "Forgot your password?" request. */
export async function requestPasswordReset(deps: PasswordLinkDeps, userName: string, ip: string) {
  const started = performance.now();
  const name = userName.trim().toLowerCase();
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.select(linkUserColumns).from(users).where(eq(users.userName, name));
    let outcome = 'unknown-or-disabled';
    if (user && !user.isDisabled) {
      const [recent] = await tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.kind, 'PasswordReset'), eq(mailOutbox.toAddress, user.email), gt(mailOutbox.createdAt, new Date(now.getTime() - RESET_MAIL_INTERVAL_MS))))
        .limit(1);
      outcome = recent ? 'throttled' : 'mail-queued';
      if (!recent) await queuePasswordLinkMail(deps, tx, user, 'PasswordReset', user.defaultOrganizationId);
    }
    await writeAudit(tx, { eventType: 'PasswordResetRequested', userId: user?.id ?? null, userName: name, ip, details: { outcome } }, now);
  });
  await sleep(Math.max(0, RESET_ANSWER_FLOOR_MS - (performance.now() - started)));
  return { message: passwordMessages.resetRequested };
}

/** Ends every live session of the user (or only sessionIds of them) and burns their refresh tokens (disable, password change, a removed application). */
export async function revokeSessionsOf(tx: DbOrTx, userId: string, reason: string, at: Date, sessionIds?: string[]) {
  if (sessionIds?.length === 0) return 0;
  const revoked = await tx
    .update(sessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), sessionIds ? inArray(sessions.id, sessionIds) : undefined))
    .returning({ id: sessions.id });
  // Deleted rather than marked used: a used token presented again reads as theft (account/service.ts refresh).
  if (revoked.length > 0) await tx.delete(refreshTokens).where(inArray(refreshTokens.sessionId, revoked.map((r) => r.id)));
  return revoked.length;
}
