import { z } from 'zod';
import { text } from './text.ts';

// Issue 14 §6, end-user §7 "Session and users": two-factor sign-in. The spec names the calls, not their bodies.
// Meaning of the user's flags: twoFactorEnabled = a second factor is required at sign-in; tokenAuthEnabled = the
// method is the authenticator app (TOTP); two-factor without it = codes by email.

export const twoFactorMethods = ['App', 'Email'] as const;
export type TwoFactorMethod = (typeof twoFactorMethods)[number];

export const RECOVERY_CODE_COUNT = 10;
export const EMAIL_CODE_MINUTES = 10;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
// Sending is rate-limited per user: one code a minute (the login page's "Send the code again" included).
export const EMAIL_CODE_RESEND_SECONDS = 60;

export const twoFactorText = {
  codeRequired: 'Enter the verification code.',
  codeInvalid: 'The verification code is not valid.',
  codeExpired: 'The verification code has expired. Ask for a new code.',
  codeAttemptsExceeded: 'Too many wrong codes. Ask for a new code.',
  codeSent: 'A verification code was sent to your email address.',
  codeRecentlySent: 'A code was sent less than a minute ago. Please wait before asking for another one.',
  alreadyEnabled: 'Two-factor sign-in is already on. Turn it off first to change the method.',
  notEnrolling: 'Start the set-up again: no authenticator app is waiting for confirmation.',
  appEnabled: 'Two-factor sign-in with an authenticator app is on.',
  emailEnabled: 'Two-factor sign-in with codes by email is on.',
  notEnabled: 'Two-factor sign-in is not on.',
  codeVerified: 'The code is verified.',
  disabled: 'Two-factor sign-in is off.',
  emailCodeMailSubject: 'Your ClinicRelay verification code',
  removedMailSubject: 'Two-factor sign-in was turned off on your ClinicRelay account',
} as const;

// A code as typed: a 6-digit TOTP or email code, or a recovery code (XXXXX-XXXXX); spaces are ignored.
export const verificationCode = text('Verification code')
  .trim()
  .min(1, twoFactorText.codeRequired)
  .max(16, twoFactorText.codeInvalid);

export const sendCodeQuery = z.object({ method: z.enum(['Email']) });
export const enableTfaQuery = z.object({ code: verificationCode });
export const tokenAuthConfirm = z.object({ code: verificationCode });
// POST /api/users/{id}/verifycode: re-authentication of the signed-in user; with disable, their own two-factor
// is turned off once the code checks out (the security page's Turn off).
export const verifyCodeRequest = z.object({ code: verificationCode, disable: z.boolean().optional() });
export const verifyCodeResponse = z.object({ verified: z.literal(true), message: text() });

// GET /api/users/enabletokenauth: the pending secret, shown once, as text, as an otpauth:// URI and as a QR code.
export const tokenAuthSetup = z.object({
  secret: text(),
  otpAuthUri: text(),
  // data:image/svg+xml;base64,… (the CSP allows data: images).
  qrCode: text(),
});
export type TokenAuthSetup = z.infer<typeof tokenAuthSetup>;

// Enrolment confirmed: ten one-time recovery codes, shown once (only their hashes are kept).
export const twoFactorEnabled = z.object({ message: text(), recoveryCodes: z.array(text()) });
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabled>;
