import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { text } from './text.ts';
import { orgUserName } from './users.ts';

// Issue 14 §1: self sign-up of a new organization (/account/register, /register/{urlCode}). The spec shows neither the
// fields nor the calls: POST /api/account/register, POST /api/account/verify and /verify/resend, and the public reads
// the page needs (username check, reseller branding, invitation prefill) are named in the style of /api/account/*.

export const registrationMessages = {
  organizationNameRequired: 'Organization name is required.',
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  passwordRequired: 'Password is required.',
  confirmPasswordRequired: 'Confirm password is required.',
  passwordsDoNotMatch: 'The password and confirm password do not match.',
  // A reseller link whose code no reseller has (any more): the page says so instead of registering without it.
  resellerNotFound: 'This registration link is not valid. Please check the address or register without it.',
  invitationNotFound: 'This invitation link is not valid. You can still register below.',
  registered: 'Thank you for registering. We sent you an email with a link to confirm your email address.',
  checkEmail: 'Check your email',
  // The same answer whether or not an account waits for confirmation (never reveals which addresses exist).
  resent: 'If an account with this email address is waiting for confirmation, we sent it a new link.',
  emailConfirmed: 'Your email address is confirmed. You can sign in now.',
  linkInvalid: 'This confirmation link is invalid, has expired or has already been used. Sign in or ask for a new link below.',
  // Sign-in of an account whose email is not confirmed yet (after the password was checked: reveals nothing).
  emailNotConfirmed: 'Please confirm your email address: we sent you a link. You can ask for a new one on the registration page.',
  emailRequired: 'Email address is required.',
} as const;

// A verification link works for 48 hours; a new one can be asked for at any time.
export const VERIFICATION_LINK_TTL_HOURS = 48;

const name = (label: string, required: string) => text(label).trim().min(1, required).max(100);

// The email is the user name (end-user §5 "Username"): the same rule and texts as the username check.
export const registrationRequest = z
  .object({
    organizationName: text('Organization name').trim().min(1, registrationMessages.organizationNameRequired).max(200),
    firstName: name('First name', registrationMessages.firstNameRequired),
    lastName: name('Last name', registrationMessages.lastNameRequired),
    email: orgUserName,
    // Length and content are passwordProblem's (the server's policy), so the same rule answers everywhere.
    password: text('Password').min(1, registrationMessages.passwordRequired).max(PASSWORD_MAX_LENGTH),
    confirmPassword: text('Confirm password').min(1, registrationMessages.confirmPasswordRequired).max(PASSWORD_MAX_LENGTH),
    // The reseller link's code (/register/{urlCode}) and the invitation mail's code (/account/register?invitation=).
    urlCode: text('Url Code').trim().max(100).nullish(),
    invitation: text('Invitation').trim().max(100).nullish(),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: registrationMessages.passwordsDoNotMatch });

export type RegistrationRequest = z.input<typeof registrationRequest>;

export const registrationResponse = z.object({ message: text() });

// No public username check (issue 26): registering an existing address answers as a new one and mails that address.

// GET /api/account/register/reseller/{urlCode}: what the branded page shows, nothing else of the reseller.
export const registrationResellerParams = z.object({ urlCode: text('Url Code').trim().min(1).max(100) });
export const registrationReseller = z.object({
  name: text(),
  logoUrl: text().nullable(),
  // A hex colour without '#' (the reseller modal's choices), null for none.
  logoBackgroundColor: text().nullable(),
  welcomeText: text().nullable(),
  registrationText: text().nullable(),
});
export type RegistrationReseller = z.infer<typeof registrationReseller>;

// GET /api/account/register/invitation?code=: the invitation's name and address, to prefill the form, and the
// inviting organization's name (invitedBy) for the page's greeting. The code is
// the unguessable one of the invitation mail's link (/account/register?invitation=…), so it is not signed again.
export const registrationInvitationQuery = z.object({ code: text('Invitation').trim().min(1).max(100) });
export const registrationInvitation = z.object({ firstName: text(), lastName: text(), email: text(), invitedBy: text() });
export type RegistrationInvitation = z.infer<typeof registrationInvitation>;

export const verifyEmailRequest = z.object({ token: text('Token').trim().min(1, registrationMessages.linkInvalid).max(512) });
export const resendVerificationRequest = z.object({
  email: text('Email address').trim().toLowerCase().min(1, registrationMessages.emailRequired).max(256),
});
export const verificationResponse = z.object({ message: text() });
