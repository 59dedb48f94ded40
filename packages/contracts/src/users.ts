import { z } from 'zod';
import { text } from './text.ts';

// end-user §3 "Invitation", §5 "Invitation", §8: POST /api/users/sendinvitation from the Send an Invite dialog.

// Not in the spec: a limit so the dialog cannot be used to send mail in bulk (apps/server/src/modules/users/invitations.ts).
export const INVITATIONS_PER_HOUR = 20;

export const invitationMessages = {
  sent: 'Invitation has been sent.',
  failed: 'An error occurred while sending the invitation.',
  // Field texts are not in the spec; the spec's rules are "required" and "valid".
  fullNameRequired: 'Full name is required.',
  emailRequired: 'Email address is required.',
  emailInvalid: 'Email address is not valid.',
  directAddressNotOurs: 'Choose one of your organization’s Direct addresses.',
  tooManyInvitations: `You can send at most ${INVITATIONS_PER_HOUR} invitations an hour. Please try again later.`,
} as const;

// A pragmatic email rule (one @, a dotted domain, no spaces): the same in the dialog and at the server.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export const invitationRequest = z.object({
  fullName: text('Full name').trim().min(1, invitationMessages.fullNameRequired).max(100),
  // An empty address is only "required", not also "not valid".
  emailAddress: text('Email address').trim().min(1, { error: invitationMessages.emailRequired, abort: true }).max(254).regex(EMAIL_PATTERN, invitationMessages.emailInvalid),
  // The address value of one of the organization's document sources (§5: "the payload uses its address value").
  directAddress: text('Direct address').trim().max(254).nullish(),
});
export type InvitationRequest = z.input<typeof invitationRequest>;
export const invitationSent = z.object({ message: text() });
