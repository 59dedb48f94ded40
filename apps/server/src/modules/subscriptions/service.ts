import {
  STAY_CONNECTED_PLAN,
  subscriptionMessages,
  upgradeFeatureLabels,
  type CurrentSubscription,
  type PlanChangeRequest,
  type SubscriptionPayment,
  type UpgradeFeature,
} from '@clinicrelay/contracts/subscriptions.ts';
import type { Database } from '../../db/client.ts';
import type { subscriptionPayments } from '../../db/schema/onboarding.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { html } from '../../platform/mail/html.ts';
import { mailDocument } from '../../platform/mail/layout.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import type { PaymentProvider } from './payment-provider.ts';
import * as q from './queries.ts';

export interface SubscriptionsDeps {
  db: Database;
  now: () => Date;
  payments: PaymentProvider;
  mailFrom: MailAddress;
}

// Before payments a reactivation was a request recorded as this audit row; GET still reports the latest one.
export const REACTIVATION_REQUESTED = 'ReactivationRequested';
export const UPGRADE_REQUESTED = 'PlanUpgradeRequested';
// A User's repeated upgrade requests within this window answer the same but mail the administrators once.
const UPGRADE_MAIL_WINDOW_MS = 60 * 60_000;

type PaymentRow = typeof subscriptionPayments.$inferSelect;

const paymentOf = (row: PaymentRow): SubscriptionPayment => ({
  reference: row.reference,
  provider: 'sandbox',
  planId: row.planId,
  status: row.status,
  amountCents: row.amountCents,
  cardLast4: row.cardLast4,
  declineReason: row.declineReason,
  createdAt: row.createdAt.toISOString(),
  completedAt: row.completedAt?.toISOString() ?? null,
});

async function organizationOf(deps: SubscriptionsDeps, caller: OrgCaller) {
  const org = await q.findOrganization(deps.db, caller.organizationId);
  if (!org) throw notFound();
  return org;
}

const statusOf = (org: { cancelledAt: Date | null; gracePeriodEndsAt: Date | null }, now: Date) =>
  !org.cancelledAt ? 'Active' : org.gracePeriodEndsAt && org.gracePeriodEndsAt > now ? 'GracePeriod' : 'Cancelled';

// GET /api/subscriptionplans/subscriptions: the same cancelled/grace-period rule as the profile's flags.
export async function currentSubscription(deps: SubscriptionsDeps, caller: OrgCaller): Promise<CurrentSubscription> {
  const org = await organizationOf(deps, caller);
  const now = deps.now();
  const requested = org.cancelledAt ? await q.findLatestEvent(deps.db, org.id, REACTIVATION_REQUESTED, org.cancelledAt) : undefined;
  const last = await q.findLastCompletedPayment(deps.db, org.id);
  return {
    organizationId: org.id,
    organizationName: org.name,
    planId: org.planId,
    subscriptionReference: org.subscriptionReference,
    status: statusOf(org, now),
    cancelledAt: org.cancelledAt?.toISOString() ?? null,
    gracePeriodEndDate: org.gracePeriodEndsAt?.toISOString() ?? null,
    reactivationRequestedAt: requested?.createdAt.toISOString() ?? null,
    plans: await q.findPlans(deps.db),
    userCount: await q.countUsers(deps.db, org.id),
    lastPayment: last ? paymentOf(last) : null,
    paymentProvider: deps.payments.name,
  };
}

// POST /api/subscriptionplans/subscriptions: a plan change paid through the provider. The charge runs outside a
// transaction (a network call with a real provider); its outcome is then recorded with the change in one.
export async function changePlan(deps: SubscriptionsDeps, caller: OrgCaller, body: PlanChangeRequest) {
  // The organization in the body must be the caller's current one; any other is not found.
  if (body.organizationId !== caller.organizationId) throw notFound();
  const org = await organizationOf(deps, caller);
  const plan = (await q.findPlans(deps.db)).find((p) => p.id === body.planId);
  if (!plan) throw badRequest(subscriptionMessages.unknownPlan, { planId: [subscriptionMessages.unknownPlan] });
  const now = deps.now();
  if (plan.id === org.planId && statusOf(org, now) === 'Active') throw badRequest(subscriptionMessages.samePlan, { planId: [subscriptionMessages.samePlan] });
  const userCount = await q.countUsers(deps.db, org.id);
  if (plan.allowedUsers >= 0 && userCount > plan.allowedUsers) {
    const text = subscriptionMessages.tooManyUsers(plan.allowedUsers, userCount);
    throw badRequest(text, { planId: [text] });
  }
  const charged = plan.priceCents > 0;
  if (charged && !body.card) throw badRequest(subscriptionMessages.cardRequired, { card: [subscriptionMessages.cardRequired] });

  let payment: PaymentRow | null = null;
  let subscriptionReference = org.subscriptionReference;
  if (charged) {
    const result = await deps.payments.charge({ amountCents: plan.priceCents, planId: plan.id, subscriptionReference: org.subscriptionReference, card: body.card ?? null, cardOnFileLast4: null, now });
    if (result.status === 'Invalid') throw badRequest(result.reason, { [result.field === 'number' ? 'card.number' : 'card.expiry']: [result.reason] });
    if (result.status === 'Declined') {
      await deps.db.transaction(async (tx) => {
        await q.insertPayment(tx, { organizationId: org.id, planId: plan.id, provider: deps.payments.name, reference: result.reference, status: 'Declined', amountCents: plan.priceCents, cardLast4: result.cardLast4, declineReason: result.reason, createdBy: caller.session.userId, createdAt: now });
        await writeAudit(tx, { eventType: 'SubscriptionPaymentDeclined', ...auditedBy(caller), correlationId: result.reference, details: { planId: plan.id, cardLast4: result.cardLast4 } }, now);
      });
      throw badRequest(result.reason, { card: [result.reason] });
    }
    subscriptionReference = result.subscriptionReference;
    payment = await q.insertPayment(deps.db, {
      organizationId: org.id,
      planId: plan.id,
      provider: deps.payments.name,
      reference: result.reference,
      status: 'Completed',
      amountCents: plan.priceCents,
      cardLast4: result.cardLast4,
      createdBy: caller.session.userId,
      createdAt: now,
      completedAt: now,
    });
  }
  await deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, org.id);
    // A new plan paid for ends a cancellation too: the organization is subscribed again.
    await q.updateOrganization(tx, org.id, { planId: plan.id, subscriptionReference, cancelledAt: null, gracePeriodEndsAt: null, modifiedAt: now, modifiedBy: caller.session.userId });
    await writeAudit(tx, { eventType: 'SubscriptionPlanChanged', ...auditedBy(caller), correlationId: payment?.reference ?? org.id, details: { fromPlanId: org.planId, planId: plan.id, subscriptionReference } }, now);
  });
  return { message: subscriptionMessages.planChanged(plan.name), payment: payment ? paymentOf(payment) : null };
}

// The end of the month already paid for: the first monthly anniversary of the last payment (or, without one, of the
// organization's creation) after now.
export function paidThrough(anchor: Date, now: Date): Date {
  for (let months = 1; ; months++) {
    const end = new Date(anchor);
    end.setUTCMonth(anchor.getUTCMonth() + months);
    if (end > now) return end;
  }
}

// POST /api/subscriptionplans/cancel: canceled now, usable until the end of the paid month (the grace period).
export async function cancel(deps: SubscriptionsDeps, caller: OrgCaller, cancelReason: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, caller.organizationId);
    const org = await q.findOrganization(tx, caller.organizationId);
    if (!org) throw notFound();
    if (org.cancelledAt) throw new AppError(409, subscriptionMessages.alreadyCancelled);
    const last = await q.findLastCompletedPayment(tx, org.id);
    const end = paidThrough(last?.completedAt ?? org.createdAt, now);
    await q.updateOrganization(tx, org.id, { cancelledAt: now, gracePeriodEndsAt: end, modifiedAt: now, modifiedBy: caller.session.userId });
    await writeAudit(tx, { eventType: 'SubscriptionCancelled', ...auditedBy(caller), correlationId: org.id, details: { planId: org.planId, cancelReason, gracePeriodEndsAt: end.toISOString() } }, now);
    return { message: subscriptionMessages.cancelledUntil(`${String(end.getUTCMonth() + 1).padStart(2, '0')}/${String(end.getUTCDate()).padStart(2, '0')}/${end.getUTCFullYear()}`), gracePeriodEndDate: end.toISOString() };
  });
}

// POST /api/subscriptionplans/reactivate(/): with a subscription reference, the provider charges the card on file
// (the last completed payment's card and amount, else the plan's price) and the organization is active at once.
export async function reactivate(deps: SubscriptionsDeps, caller: OrgCaller, planId: string | null | undefined) {
  const org = await organizationOf(deps, caller);
  if (!org.cancelledAt) throw new AppError(409, subscriptionMessages.notCancelled);
  if (!org.subscriptionReference) throw new AppError(409, subscriptionMessages.noSubscription);
  const plans = await q.findPlans(deps.db);
  const plan = plans.find((p) => p.id === (planId || org.planId));
  if (!plan) throw badRequest(subscriptionMessages.unknownPlan, { planId: [subscriptionMessages.unknownPlan] });
  const now = deps.now();
  const last = await q.findLastCompletedPayment(deps.db, org.id);
  const amountCents = last && last.planId === plan.id ? last.amountCents : plan.priceCents;
  const result = await deps.payments.charge({ amountCents, planId: plan.id, subscriptionReference: org.subscriptionReference, card: null, cardOnFileLast4: last?.cardLast4 ?? null, now });
  if (result.status !== 'Completed') {
    const reason = result.reason;
    if (result.status === 'Declined') {
      await q.insertPayment(deps.db, { organizationId: org.id, planId: plan.id, provider: deps.payments.name, reference: result.reference, status: 'Declined', amountCents, cardLast4: result.cardLast4, declineReason: reason, createdBy: caller.session.userId, createdAt: now });
    }
    throw badRequest(reason);
  }
  const payment = await deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, org.id);
    const row = await q.insertPayment(tx, {
      organizationId: org.id,
      planId: plan.id,
      provider: deps.payments.name,
      reference: result.reference,
      status: 'Completed',
      amountCents,
      cardLast4: result.cardLast4,
      createdBy: caller.session.userId,
      createdAt: now,
      completedAt: now,
    });
    await q.updateOrganization(tx, org.id, { planId: plan.id, cancelledAt: null, gracePeriodEndsAt: null, modifiedAt: now, modifiedBy: caller.session.userId });
    await writeAudit(tx, { eventType: 'OrganizationReactivated', ...auditedBy(caller), correlationId: result.reference, details: { planId: plan.id, subscriptionReference: org.subscriptionReference } }, now);
    return row;
  });
  return { message: subscriptionMessages.reactivated, payment: paymentOf(payment) };
}

// GET /api/subscriptionplans/fastspring/{id}: a payment (order) of the caller's organization by its reference, or its
// latest payment by the subscription reference; anything else is not found.
export async function findPayment(deps: SubscriptionsDeps, caller: OrgCaller, reference: string) {
  const org = await organizationOf(deps, caller);
  const row = await q.findPaymentByReference(deps.db, org.id, reference, org.subscriptionReference);
  if (!row) throw notFound();
  return paymentOf(row);
}

// POST /api/subscriptionplans/upgraderequest: a User of a Stay Connected organization asks its Administrators for an
// upgrade (end-user §6). Each request is an audit row; the administrators are mailed at most once an hour per user.
export async function requestUpgrade(deps: SubscriptionsDeps, caller: OrgCaller, feature: UpgradeFeature | null | undefined) {
  const org = await organizationOf(deps, caller);
  if (org.planId !== STAY_CONNECTED_PLAN) throw new AppError(409, subscriptionMessages.notStayConnected);
  const now = deps.now();
  const userId = caller.session.userId;
  const recent = await q.findLatestEvent(deps.db, org.id, UPGRADE_REQUESTED, new Date(now.getTime() - UPGRADE_MAIL_WINDOW_MS), userId);
  const user = await q.findUser(deps.db, userId);
  if (!user) throw notFound();
  const administrators = recent ? [] : await q.findAdministrators(deps.db, org.id);
  const requester = `${user.firstName} ${user.lastName}`.trim() || user.userName;
  const featureText = feature ? upgradeFeatureLabels[feature] : null;
  await deps.db.transaction(async (tx) => {
    for (const admin of administrators.filter((a) => a.email)) {
      const subject = `${requester} asks to upgrade the subscription plan of ${org.name}`;
      const lines = [
        `Hello ${admin.firstName},`,
        '',
        `${requester} (${user.userName}) asks you to upgrade the subscription plan of ${org.name}.`,
        ...(featureText ? [`${featureText} is not included in the Stay Connected plan.`] : []),
        '',
        'Sign in and open Settings, Subscription to choose a plan.',
        '',
      ];
      await queueMail(tx, {
        kind: 'PlanUpgradeRequest',
        organizationId: org.id,
        from: deps.mailFrom,
        to: { name: `${admin.firstName} ${admin.lastName}`.trim(), address: admin.email },
        replyTo: user.email || null,
        subject,
        text: lines.join('\n'),
        html: mailDocument(
          subject,
          html`<p>Hello ${admin.firstName},</p>
<p><strong>${requester}</strong> (${user.userName}) asks you to upgrade the subscription plan of <strong>${org.name}</strong>.</p>
${featureText ? html`<p>${featureText} is not included in the Stay Connected plan.</p>` : ''}
<p>Sign in and open Settings, Subscription to choose a plan.</p>`,
        ),
        queuedAt: now,
      });
    }
    await writeAudit(tx, { eventType: UPGRADE_REQUESTED, ...auditedBy(caller), correlationId: org.id, details: { feature: feature ?? null, mailed: administrators.length } }, now);
  });
  return { message: subscriptionMessages.upgradeRequested };
}
