import { z } from 'zod';
import { text } from './text.ts';

// The one error shape every non-2xx API response has (DESIGN.md "Errors").
export const errorResponse = z.object({
  message: text(),
  modelState: z.record(text(), z.array(text())).optional(),
  exceptionMessage: text().optional(),
  twoFactorRequired: z.boolean().optional(),
  // With twoFactorRequired: 'App' (authenticator app) or 'Email' (a code was mailed), issue 14 §6.
  twoFactorMethod: z.enum(['App', 'Email']).optional(),
  // A refused send of a message never saved as a draft: the draft that send's save made is gone (issue 9).
  draftDiscarded: z.boolean().optional(),
  // An answer 500: the id the full error is kept under (back-office-a Secure logs), also named in the message.
  referenceId: text().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

// User-visible texts, spec wording where the spec gives one (end-user §8).
export const messages = {
  // Any invalid form (back-office-b §5).
  invalidFields: 'There are invalid fields on this page.',
  tokenRevokedOrExpired: 'Token revoked or expired.',
  // The spec names no text for a session ended by inactivity or its time limit; shown on the way to sign-in.
  sessionExpired: 'Your session has expired. Please sign in again.',
  organizationCancelled: 'Organization is currently canceled',
  notAuthorized: 'You are not authorized to view this resource.',
  notFound: 'The resource you are looking for was not found.',
  invalidRequest: 'The request is invalid.',
  invalidCredentials: 'Invalid user name or password.',
  accountLocked: 'Your account is locked for 10 minutes after 3 failed login attempts.',
  lockoutTooltip: 'For your security, your account is locked for 10 minutes after 3 failed login attempts.',
  userDisabled: 'Your account has been disabled. Please contact your administrator.',
  organizationLoginDisabled: 'Sign-in is disabled for your organization. Please contact support.',
  twoFactorRequired: 'A verification code is required.',
  // Issue 14 §6: an administrator without two-factor sign-in while REQUIRE_ADMIN_TWO_FACTOR is on.
  twoFactorEnrolmentRequired: 'Administrators must set up two-factor sign-in before continuing.',
  // Issue 26: a new version of the terms is active; every call but the terms, profile and sign-out waits for it.
  termsAcceptanceRequired: 'Please accept the current terms and conditions to continue.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  serverError: 'An unexpected error occurred. Please try again or contact support.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again in a moment.',
  emptyList: 'There are no results matching your criteria.',
} as const;

// The text of an answer 500: the user reads the reference id to support, who finds the error at /admin/securelogs.
export const serverErrorWithReference = (referenceId: string) => `${messages.serverError} Reference id: ${referenceId}.`;
