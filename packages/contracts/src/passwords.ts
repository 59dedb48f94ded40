import { z } from 'zod';
import { adminUserMessages } from './admin-users.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { text } from './text.ts';

// Issue 14 §5: the password rules and texts shared by the server's policy and the web's strength meter.
export const passwordMessages = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  tooCommon: 'This password is too common. Choose another one.',
  // Issue 26: NIST 800-63B asks to refuse values from breach corpora and guessable word + year patterns.
  breached: 'This password is too common; it appears in lists of breached passwords. Choose another one.',
  wordAndYear: 'A word such as a season, month or product name followed by a year or number is easy to guess. Choose another one.',
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
  if (isWordAndYear(password)) return passwordMessages.wordAndYear;
  if (score < MIN_PASSWORD_SCORE) return passwordMessages.tooCommon;
  return null;
}

// The words people pair with a year or a counter when a rule asks for digits and a symbol (Summer2023!, Admin@123).
const GUESSABLE_WORDS = new Set(
  [
    'spring summer autumn fall winter',
    'january february march april may june july august september october november december',
    'jan feb mar apr jun jul aug sep sept oct nov dec',
    'monday tuesday wednesday thursday friday saturday sunday',
    'welcome welcometo changeme changeit password passwort passwd pass admin administrator letmein login logon',
    'qwerty test testing user guest root secret default temp temporary hello iloveyou master access',
    'clinicrelay clinic relay health healthcare hospital medical doctor nurse patient office',
  ].flatMap((line) => line.split(' ')),
);
// Look-alike characters inside the word (P@ssw0rd), read as the letters they stand for.
const LEET: Record<string, string> = { '@': 'a', $: 's', '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '!': 'i', '|': 'l' };

/** A guessable word (season, month, day, product, "welcome"…) with at most 6 digits and symbols around it. */
export function isWordAndYear(password: string): boolean {
  const lower = password.normalize('NFKC').toLowerCase();
  const match = /^([^\p{L}]*)(\p{L}[\p{L}@$0-9!|]*\p{L}|\p{L})([^\p{L}]*)$/u.exec(lower);
  if (!match) return false;
  const around = match[1]! + match[3]!;
  if (!/[0-9]/.test(around) || around.length > 6) return false;
  const word = [...match[2]!].map((c) => LEET[c] ?? c).join('');
  return GUESSABLE_WORDS.has(word);
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
