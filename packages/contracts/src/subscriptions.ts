import { z } from 'zod';
import { text } from './text.ts';

// end-user §7 "Subscriptions" (§2, §4 "Organization status", §6 plans). Payments go through a payment-provider
// interface; the only provider today is the sandbox, which behaves like FastSpring/Stripe test mode (test cards below).

export const subscriptionStatuses = ['Active', 'GracePeriod', 'Cancelled'] as const;
export const paymentProviders = ['sandbox'] as const;
export const paymentStatuses = ['Pending', 'Completed', 'Declined'] as const;

// The plan whose organizations get the upgrade prompt (§6 "Stay Connected plan").
export const STAY_CONNECTED_PLAN = 'stay-connected';

// A plan as the plan page offers it: allowedUsers -1 is unlimited; priceCents per month.
export const planOffer = z.object({
  id: text(),
  name: text(),
  allowedUsers: z.number().int(),
  allowedUsersDescription: text(),
  isFree: z.boolean(),
  priceCents: z.number().int(),
});
export type PlanOffer = z.infer<typeof planOffer>;

// A payment or order of the provider (GET /api/subscriptionplans/fastspring/{id}); never a card number, only its last 4.
export const subscriptionPayment = z.object({
  reference: text(),
  provider: z.enum(paymentProviders),
  planId: text(),
  status: z.enum(paymentStatuses),
  amountCents: z.number().int(),
  cardLast4: text().nullable(),
  declineReason: text().nullable(),
  createdAt: text(),
  completedAt: text().nullable(),
});
export type SubscriptionPayment = z.infer<typeof subscriptionPayment>;

// GET /api/subscriptionplans/subscriptions (Administrator; answers while the organization is canceled): the
// current organization's plan. reactivationRequestedAt: the latest request since the cancellation (before payments,
// a reactivation was a request; kept for those rows). Not in the spec, for the plan page: the plans on offer, the
// organization's user count (a plan must allow it), the last completed payment (the card on file) and the provider.
export const currentSubscription = z.object({
  organizationId: text(),
  organizationName: text(),
  planId: text().nullable(),
  subscriptionReference: text().nullable(),
  status: z.enum(subscriptionStatuses),
  cancelledAt: text().nullable(),
  gracePeriodEndDate: text().nullable(),
  reactivationRequestedAt: text().nullable(),
  plans: z.array(planOffer),
  userCount: z.number().int(),
  lastPayment: subscriptionPayment.nullable(),
  paymentProvider: z.enum(paymentProviders),
});
export type CurrentSubscription = z.infer<typeof currentSubscription>;

// The card of the sandbox checkout. Not in the spec (FastSpring's popup takes it there): number with or without
// spaces, expiry month and 4-digit year, security code. Only the last 4 digits are ever stored.
export const cardDetails = z.object({
  number: text('Card number').trim().min(1, 'Enter your card number.').max(32),
  expiryMonth: z.coerce.number({ error: 'Enter the expiry month.' }).int('Enter the expiry month.').min(1, 'Enter the expiry month.').max(12, 'Enter the expiry month.'),
  expiryYear: z.coerce.number({ error: 'Enter the expiry year.' }).int('Enter the expiry year.').min(2000, 'Enter the expiry year.').max(2100, 'Enter the expiry year.'),
  cvc: text('Security code').trim().regex(/^\d{3,4}$/, 'Enter the 3 or 4 digit security code.'),
  nameOnCard: text('Name on card').trim().max(100).nullish(),
});
export type CardDetails = z.infer<typeof cardDetails>;

// POST /api/subscriptionplans/subscriptions: planId and organizationId as the spec names them (the organization
// must be the caller's current one); card: required unless the plan is free.
export const planChangeRequest = z.object({
  planId: text('Plan').trim().min(1, 'Choose a plan.').max(64),
  organizationId: text('Organization').trim().min(1).max(64),
  card: cardDetails.nullish(),
});
export type PlanChangeRequest = z.infer<typeof planChangeRequest>;
export const planChanged = z.object({ message: text(), payment: subscriptionPayment.nullable() });

// POST /api/subscriptionplans/cancel
export const CANCEL_REASON_MAX = 1000;
export const cancelRequest = z.object({
  cancelReason: text('Reason')
    .trim()
    .min(1, 'Tell us why you are canceling.')
    .max(CANCEL_REASON_MAX, `The reason must be at most ${CANCEL_REASON_MAX} characters.`),
});
export const cancelled = z.object({ message: text(), gracePeriodEndDate: text() });

// POST /api/subscriptionplans/reactivate (and /reactivate/; Administrator of a canceled organization): planId as
// the spec names it; the current plan when absent.
export const reactivationRequest = z.object({ planId: text('Plan').trim().max(64).nullish() });
export const reactivated = z.object({ message: text(), payment: subscriptionPayment });

// Not in the spec (its guard "sends a request to the Administrator"): POST /api/subscriptionplans/upgraderequest by a
// User of a Stay Connected organization; feature names what was tried, for the administrators' mail.
export const upgradeFeatures = ['ForwardReply', 'Release', 'Triage', 'EmrForwarding', 'CdaDownload'] as const;
export type UpgradeFeature = (typeof upgradeFeatures)[number];
export const upgradeFeatureLabels: Record<UpgradeFeature, string> = {
  ForwardReply: 'Forward and reply',
  Release: 'Release (sending documents)',
  Triage: 'Triage',
  EmrForwarding: 'EMR forwarding',
  CdaDownload: 'XDS-SD/CDA download',
};
export const upgradeRequest = z.object({ feature: z.enum(upgradeFeatures).nullish() });
export const upgradeRequested = z.object({ message: text() });

export const subscriptionMessages = {
  // end-user §9.
  reactivated: 'Organization successfully reactivated.',
  upgradeRequested: 'Your plan upgrade request has been sent.',
  // Not in the spec.
  notCancelled: 'Your organization is not canceled, so there is nothing to reactivate.',
  noSubscription: 'Your organization has no subscription to reactivate. Contact support to subscribe again.',
  alreadyCancelled: 'Your organization is already canceled.',
  planChanged: (name: string) => `Your subscription plan is now ${name}.`,
  cancelledUntil: (date: string) => `Your subscription has been canceled. Your organization can use it until ${date}.`,
  unknownPlan: 'Choose one of the plans offered.',
  samePlan: 'Your organization is already on this plan.',
  tooManyUsers: (allowed: number, count: number) => `This plan allows ${allowed} users and your organization has ${count}. Disable users or choose a larger plan.`,
  cardRequired: 'Enter the card to pay with.',
  notStayConnected: 'Your organization’s plan already includes this feature.',
  // The server's refusal of an action the Stay Connected plan does not include (end-user §6).
  upgradeRequired: 'Your subscription plan does not include this feature. Upgrade your subscription plan to use it.',
  // end-user §5 "Release send", §6: plan-restricted organizations (settings.planRestricted) send only to fax or phone
  // numbers or to Direct addresses on this installation (the product's domain). Shown per To address.
  planRestrictedRecipient: 'Your plan allows sending only to fax or phone numbers or to addresses on this service.',
} as const;

// The sandbox test cards (like Stripe's test mode); the sandbox accepts no other card.
export const sandboxCardMessages = {
  invalidNumber: 'Your card number is invalid.',
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
  notATestCard: 'Your card was declined. This is the sandbox (test mode): use a test card number.',
} as const;
