import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  EMAIL_CODE_MAX_ATTEMPTS,
  EMAIL_CODE_MINUTES,
  EMAIL_CODE_RESEND_SECONDS,
  RECOVERY_CODE_COUNT,
  twoFactorText,
  type TwoFactorMethod,
} from '@clinicrelay/contracts/two-factor.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { users } from '../../db/schema/users.ts';
import { acceptTotp } from '../../platform/auth/totp.ts';
import { html } from '../../platform/mail/html.ts';
import { mailDocument } from '../../platform/mail/layout.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import { openText, sealText } from '../../platform/sealed-text.ts';
import * as q from './queries.ts';

// The second factors (issue 14 §6) as sign-in and the two-factor calls check them. No rule here reads the
// request: the callers hold the user's row lock (sign-in: the user-name lock; the calls: SELECT … FOR UPDATE).

export interface SecondFactorDeps {
  // BLOB_ENCRYPTION_KEY: the TOTP secrets are sealed under a key derived from it for this purpose alone.
  masterKey: Uint8Array;
  mailFrom: MailAddress;
}

type User = typeof users.$inferSelect;

const SECRET_PURPOSE = 'totp-secret';
export const sealSecret = (deps: SecondFactorDeps, userId: string, secret: string) => sealText(deps.masterKey, SECRET_PURPOSE, secret, userId);
export const openSecret = (deps: SecondFactorDeps, userId: string, stored: string) => openText(deps.masterKey, SECRET_PURPOSE, stored, userId);

// A secret without tokenAuthEnabled is a row from before issue 14 (the app was then the only method).
export const methodOf = (user: Pick<User, 'tokenAuthEnabled' | 'twoFactorSecret'>): TwoFactorMethod =>
  user.tokenAuthEnabled || user.twoFactorSecret ? 'App' : 'Email';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const base32 = (bytes: Buffer) => [...bytes].map((b) => BASE32[b & 31]).join('');

// 160 bits, as RFC 4226 recommends: 32 base32 characters.
export const newTotpSecret = () => base32(randomBytes(32)).slice(0, 32);

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const emailCodeHash = (userId: string, code: string) => sha256(`${userId}:${code}`);
const recoveryHash = (code: string) => sha256(code.replace(/[\s-]/g, '').toUpperCase());

// Ten codes of 10 base32 characters (50 bits each), shown as XXXXX-XXXXX; only their hashes are kept.
export async function issueRecoveryCodes(tx: DbOrTx, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = base32(randomBytes(10));
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await q.replaceRecoveryCodes(tx, userId, codes.map(recoveryHash), now);
  return codes;
}

const DIGITS = /^\d{6}$/;
const RECOVERY = /^[A-Z2-7]{10}$/;
const compact = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();
export const isRecoveryCode = (code: string) => RECOVERY.test(compact(code));

function emailCodeMail(name: string, code: string) {
  const subject = twoFactorText.emailCodeMailSubject;
  const lines = [`Hello ${name},`, '', `Your verification code is ${code}.`, `It expires in ${EMAIL_CODE_MINUTES} minutes and works once.`, '', 'If you did not try to sign in, change your password and tell your administrator.', ''];
  const body = mailDocument(
    subject,
    html`<p>Hello ${name},</p>
<p>Your verification code is <strong style="font-size: 20px; letter-spacing: 2px;">${code}</strong>.</p>
<p style="font-size: 13px; color: #495057;">It expires in ${EMAIL_CODE_MINUTES} minutes and works once.</p>
<p style="font-size: 13px; color: #495057;">If you did not try to sign in, change your password and tell your administrator.</p>`,
  );
  return { subject, text: lines.join('\n'), html: body };
}

/**
 * Mails a new 6-digit code (10 minutes, once, 5 tries) unless one was sent less than a minute ago: false then.
 * The mail goes through the outbox in the caller's transaction.
 */
export async function sendEmailCode(deps: SecondFactorDeps, tx: DbOrTx, user: User, purpose: q.CodePurpose, now: Date, organizationId: string | null = null) {
  const latest = await q.findLatestCode(tx, user.id, purpose);
  if (latest && latest.createdAt.getTime() > now.getTime() - EMAIL_CODE_RESEND_SECONDS * 1000) return false;
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  await q.insertCode(tx, { userId: user.id, purpose, codeHash: emailCodeHash(user.id, code), createdAt: now, expiresAt: new Date(now.getTime() + EMAIL_CODE_MINUTES * 60_000) });
  const name = `${user.firstName} ${user.lastName}`.trim();
  await queueMail(tx, { kind: 'TwoFactorCode', organizationId, from: deps.mailFrom, to: { name, address: user.email }, ...emailCodeMail(name, code), queuedAt: now });
  return true;
}

export type CodeCheck = 'ok' | 'invalid' | 'expired' | 'attempts';

// The newest code of the purpose; a used one is invalid, an old one expired, the sixth try refused.
export async function checkEmailCode(tx: DbOrTx, userId: string, purpose: q.CodePurpose, code: string, now: Date): Promise<CodeCheck> {
  const latest = await q.findLatestCode(tx, userId, purpose);
  if (!latest || latest.usedAt) return 'invalid';
  if (latest.expiresAt <= now) return 'expired';
  const attempts = await q.countAttempt(tx, latest.id, EMAIL_CODE_MAX_ATTEMPTS);
  if (attempts === null) return 'attempts';
  const expected = Buffer.from(latest.codeHash);
  const given = Buffer.from(emailCodeHash(userId, code));
  if (expected.length === given.length && timingSafeEqual(expected, given) && (await q.markCodeUsed(tx, latest.id, now))) return 'ok';
  return attempts >= EMAIL_CODE_MAX_ATTEMPTS ? 'attempts' : 'invalid';
}

/**
 * A second factor of an enrolled user: a code of the authenticator app (its time step recorded, so it never works
 * again), the newest sign-in code mailed to them, or one of their recovery codes (used up). 'ok' or why not.
 */
export async function checkSecondFactor(deps: SecondFactorDeps, tx: DbOrTx, user: User, code: string, now: Date): Promise<CodeCheck> {
  const given = compact(code);
  if (RECOVERY.test(given)) return (await q.useRecoveryCode(tx, user.id, recoveryHash(given), now)) ? 'ok' : 'invalid';
  if (!DIGITS.test(given)) return 'invalid';
  if (methodOf(user) === 'Email') return checkEmailCode(tx, user.id, 'SignIn', given, now);
  if (!user.twoFactorSecret) return 'invalid';
  const step = acceptTotp(openSecret(deps, user.id, user.twoFactorSecret), given, now, user.lastTotpStep);
  if (step === null) return 'invalid';
  await q.updateUser(tx, user.id, { lastTotpStep: step });
  return 'ok';
}

export const codeMessage = (check: Exclude<CodeCheck, 'ok'>) =>
  check === 'expired' ? twoFactorText.codeExpired : check === 'attempts' ? twoFactorText.codeAttemptsExceeded : twoFactorText.codeInvalid;
