import { z } from 'zod';

// Tracked referrals (end-user §4): a message sent with fax tracking opens a conversation in status
// Draft; the sender chooses its outcome once. Outcome values are not named in the spec: they are the
// conversation statuses a referral ends in.
export const referralOutcomes = ['Accepted', 'Declined', 'Completed'] as const;
export type ReferralOutcome = (typeof referralOutcomes)[number];

export const conversationMessages = {
  outcomeSaved: 'The referral outcome has been saved.',
  outcomeAlreadyChosen: 'An outcome has already been chosen for this referral.',
  outcomeFailure: 'Unable to save the referral outcome.',
} as const;

// POST /api/conversations/{id}/respond
export const respondRequest = z.object({
  responseToMessageId: z.string().uuid(),
  responseType: z.enum(referralOutcomes),
  // Free text: what was done (for example "Appointment scheduled for 12/02").
  responseAction: z.string().trim().max(255).nullish(),
});
export type RespondRequest = z.infer<typeof respondRequest>;

export const conversation = z.object({
  conversationId: z.string(),
  type: z.string(),
  conversationStatus: z.string(),
  responseType: z.string().nullable(),
  responseAction: z.string().nullable(),
  respondedAt: z.string().nullable(),
});
export type Conversation = z.infer<typeof conversation>;

// POST /api/conversations/tracked: the body is not named in the spec; a page of the organization's
// tracked referrals, newest first, optionally only those in some statuses.
export const trackedRequest = z.object({
  pageStart: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(30),
  statuses: z.array(z.enum(['Draft', 'Open', 'Accepted', 'Declined', 'Completed'])).max(5).optional(),
});
export const trackedReferral = conversation.extend({
  messageId: z.string(),
  subject: z.string(),
  toAddress: z.string(),
  patientName: z.string().nullable(),
  sentDate: z.string().nullable(),
});
export const trackedList = z.object({ items: z.array(trackedReferral), totalCount: z.number().int() });
