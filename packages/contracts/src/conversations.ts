import { z } from 'zod';
import { text } from './text.ts';

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
  responseToMessageId: text().uuid(),
  responseType: z.enum(referralOutcomes),
  // Free text: what was done (for example "Appointment scheduled for 12/02").
  responseAction: text().trim().max(255).nullish(),
});
export type RespondRequest = z.infer<typeof respondRequest>;

export const conversation = z.object({
  conversationId: text(),
  type: text(),
  conversationStatus: text(),
  responseType: text().nullable(),
  responseAction: text().nullable(),
  respondedAt: text().nullable(),
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
  messageId: text(),
  subject: text(),
  toAddress: text(),
  patientName: text().nullable(),
  sentDate: text().nullable(),
});
export const trackedList = z.object({ items: z.array(trackedReferral), totalCount: z.number().int() });
