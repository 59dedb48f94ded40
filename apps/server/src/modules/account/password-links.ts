import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { adminUserMessages, type setPasswordRequest } from '@clinicrelay/contracts/admin-users.ts';
import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { refreshTokens, sessions } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';
import { writeAudit } from '../../platform/audit.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { badRequest } from '../../platform/errors.ts';
import { html } from '../../platform/mail/html.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';

// Set-password links of the account-creation and password-reset mails. A link is stateless: the user, its purpose
// and expiry, signed with the token key together with the user's current password hash, so setting a password
// (which changes the hash) uses up every link issued before; no table is needed. Issue 14 adds the public
// "forgot password" request on top of it.

export type PasswordLinkPurpose = 'AccountCreation' | 'PasswordReset';

// A reset link works for an hour (issue 14 §5); an account-creation link for a week, since new users may not
// read their mail on the day their account is made.
const LINK_TTL_MS: Record<PasswordLinkPurpose, number> = { AccountCreation: 7 * 24 * 3_600_000, PasswordReset: 3_600_000 };

export interface PasswordLinkDeps {
  db: Database;
  now: () => Date;
  signingKey: Uint8Array;
  mailFrom: MailAddress;
  publicUrl: string | undefined;
}

const signature = (key: Uint8Array, payload: string, passwordHash: string | null) =>
  createHmac('sha256', key).update(`password-link\n${payload}\n${passwordHash ?? ''}`).digest('base64url');

function createToken(key: Uint8Array, user: { id: string; passwordHash: string | null }, purpose: PasswordLinkPurpose, now: Date) {
  const payload = `${user.id}.${purpose}.${now.getTime() + LINK_TTL_MS[purpose]}`;
  return `${Buffer.from(payload).toString('base64url')}.${signature(key, payload, user.passwordHash)}`;
}

function readToken(token: string) {
  const [encoded, sig] = token.split('.');
  if (!encoded || !sig) return undefined;
  const payload = Buffer.from(encoded, 'base64url').toString();
  const [userId, purpose, expires] = payload.split('.');
  if (!userId || !/^[0-9a-f-]{36}$/i.test(userId) || (purpose !== 'AccountCreation' && purpose !== 'PasswordReset')) return undefined;
  return { payload, sig, userId, purpose, expiresAt: Number(expires) };
}

export const passwordLink = (publicUrl: string | undefined, token: string) =>
  `${(publicUrl ?? 'http://localhost:8080').replace(/\/+$/, '')}/account/password?token=${encodeURIComponent(token)}`;

function linkMail(purpose: PasswordLinkPurpose, name: string, link: string) {
  const brand = DEFAULT_BRAND_NAME;
  const creation = purpose === 'AccountCreation';
  const subject = creation ? `Your ${brand} account` : `Reset your ${brand} password`;
  const intro = creation ? `An account has been created for you in ${brand}. Choose your password to sign in:` : `A password reset was requested for your ${brand} account. Choose a new password:`;
  const validity = creation ? 'The link works once and expires in 7 days.' : 'The link works once and expires in one hour.';
  const action = creation ? 'Create your password' : 'Reset your password';
  const text = [`Hello ${name},`, '', intro, link, '', validity, ''].join('\n');
  const body = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;">
<p>Hello ${name},</p>
<p>${intro}</p>
<p><a href="${link}" style="display: inline-block; padding: 10px 18px; background: #1c7ed6; color: #ffffff; text-decoration: none; border-radius: 4px;">${action}</a></p>
<p style="font-size: 13px; color: #495057;">Or open this link: <a href="${link}">${link}</a></p>
<p style="font-size: 13px; color: #495057;">${validity}</p>
</body>
</html>
`;
  return { subject, text, html: body };
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
  const mail = linkMail(purpose, name, passwordLink(deps.publicUrl, createToken(deps.signingKey, user, purpose, now)));
  return queueMail(tx, { kind: purpose, organizationId, from: deps.mailFrom, to: { name, address: user.email }, ...mail, queuedAt: now });
}

/** POST /api/account/password: sets the password of the link's user; the link is then used up. */
export async function setPasswordFromLink(deps: Pick<PasswordLinkDeps, 'db' | 'now' | 'signingKey'>, body: z.output<typeof setPasswordRequest>, ip: string) {
  const invalid = () => badRequest(adminUserMessages.linkInvalid, { token: [adminUserMessages.linkInvalid] });
  const token = readToken(body.token);
  const now = deps.now();
  if (!token || !(token.expiresAt > now.getTime())) throw invalid();
  const passwordHash = await hashPassword(body.password!);
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id, userName: users.userName, passwordHash: users.passwordHash, isDisabled: users.isDisabled }).from(users).where(eq(users.id, token.userId)).for('update');
    if (!user || user.isDisabled) throw invalid();
    const expected = Buffer.from(signature(deps.signingKey, token.payload, user.passwordHash));
    const given = Buffer.from(token.sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    await tx.update(users).set({ passwordHash, modifiedAt: now }).where(eq(users.id, user.id));
    // A new password ends every session that began with the old one.
    await revokeSessionsOf(tx, user.id, 'password-set', now);
    await writeAudit(tx, { eventType: token.purpose === 'AccountCreation' ? 'PasswordCreated' : 'PasswordReset', userId: user.id, userName: user.userName, ip }, now);
  });
  return { message: adminUserMessages.passwordSet };
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
