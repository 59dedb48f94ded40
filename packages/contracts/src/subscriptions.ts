import { z } from 'zod';
import { text } from './text.ts';

// end-user §7 "Subscriptions", the two calls the reactivation modal makes (§2, §4 "Organization status").
// Payments do not exist yet, so a reactivation is a request that support acts on; the other calls of §7
// (plan change, cancel, card payments) arrive with payments.

export const subscriptionStatuses = ['Active', 'GracePeriod', 'Cancelled'] as const;

// GET /api/subscriptionplans/subscriptions (Administrator; answers while the organization is canceled): the
// current organization's plan. reactivationRequestedAt: the latest request since the cancellation, so the
// modal can say it was already sent.
export const currentSubscription = z.object({
  organizationId: text(),
  organizationName: text(),
  planId: text().nullable(),
  subscriptionReference: text().nullable(),
  status: z.enum(subscriptionStatuses),
  cancelledAt: text().nullable(),
  gracePeriodEndDate: text().nullable(),
  reactivationRequestedAt: text().nullable(),
});
export type CurrentSubscription = z.infer<typeof currentSubscription>;

// POST /api/subscriptionplans/reactivate (Administrator of a canceled organization): planId as the spec names
// it; the current plan when absent.
export const reactivationRequest = z.object({ planId: text('Plan').trim().max(64).nullish() });
export const reactivationRequested = z.object({ message: text(), requestedAt: text() });

export const subscriptionMessages = {
  // Not the spec's 'Organization successfully reactivated.': nothing is reactivated when the button is pressed
  // (no payments yet); the request is recorded for support, and the organization stays canceled until then.
  reactivationRequested: 'Your reactivation request has been sent. Your organization stays canceled until our support team reactivates it.',
  // Not in the spec.
  notCancelled: 'Your organization is not canceled, so there is nothing to reactivate.',
} as const;
