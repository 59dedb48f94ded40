import { z } from 'zod';
import { adminUserMessages } from './admin-users.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { text } from './text.ts';

// Issue 14 §5: the password rules and texts shared by the server's policy and the web's strength meter.
export const passwordMessages = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  tooCommon: 'This password is too common. Choose another one.',
  containsUserName: 'Password must not contain your user name.',
  currentRequired: 'Current password is required.',
  currentIncorrect: 'The current password is incorrect.',
  sameAsCurrent: 'The new password must be different from the current one.',
  changed: 'Your password has been changed.',
  // The same answer whether or not the account exists (issue 14 §5).
  resetRequested: 'If an account exists for this email address, we have sent a link to reset the password. The link works once and expires in one hour.',
  userNameRequired: 'Email is required.',
  userIdRequired: 'Choose the user whose password to reset.',
} as const;

// zxcvbn scores 0-4; below 2 (fewer than 10^6 guesses) the password is one of the common or breached passwords it
// ships, or a trivial variation of one, so it is refused. The meter shows the score.
export const MIN_PASSWORD_SCORE = 2;
export const passwordStrengthLabels = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

/** The user-name part the rule looks for: the local part of an email, lower-cased; ignored under 3 characters. */
export function userNamePart(userName: string | null | undefined): string | undefined {
  const local = userName?.split('@')[0]?.trim().toLowerCase();
  return local && local.length >= 3 ? local : undefined;
}

/** The one rule, given zxcvbn's score: null when the password may be used, else the message to show. */
export function passwordRuleProblem(password: string, userName: string | null | undefined, score: number): string | null {
  // At least 8 characters as a person counts them (code points), at most 128 as stored (UTF-16 units).
  if ([...password].length < PASSWORD_MIN_LENGTH) return passwordMessages.tooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return passwordMessages.tooLong;
  const local = userNamePart(userName);
  if (local && password.toLowerCase().includes(local)) return passwordMessages.containsUserName;
  if (score < MIN_PASSWORD_SCORE) return passwordMessages.tooCommon;
  return null;
}

// POST /api/account/changepassword (not in the spec: the spec's clients change a password only through the
// reset mail; issue 14 §5 asks for a change with the current password).
export const changePasswordRequest = z
  .object({
    currentPassword: text('Current password').min(1, passwordMessages.currentRequired).max(PASSWORD_MAX_LENGTH),
    newPassword: text('New password').max(PASSWORD_MAX_LENGTH).optional(),
    confirmPassword: text('Confirm password').max(PASSWORD_MAX_LENGTH).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.newPassword) ctx.addIssue({ code: 'custom', path: ['newPassword'], message: adminUserMessages.passwordRequired });
    if (!v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: adminUserMessages.confirmPasswordRequired });
    else if (v.newPassword && v.newPassword !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: adminUserMessages.passwordsDoNotMatch });
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

// POST /api/users/resetpassword without a session: the forgotten-password request (the user name is the email).
export const forgotPasswordRequest = z.object({
  userName: text('Email').trim().min(1, passwordMessages.userNameRequired).max(256),
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

// The route's body: {id} from an administrator (back-office-a's form) or {userName} without a session.
export const resetPasswordAnyRequest = z.object({
  id: text().uuid().optional(),
  userName: text('Email').trim().max(256).optional(),
});
