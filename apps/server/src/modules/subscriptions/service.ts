import { subscriptionMessages, type CurrentSubscription } from '@clinicrelay/contracts/subscriptions.ts';
import type { Database } from '../../db/client.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface SubscriptionsDeps {
  db: Database;
  now: () => Date;
}

// Until payments exist, the request is the audit row: who asked, for which organization, when, from where.
export const REACTIVATION_REQUESTED = 'ReactivationRequested';

async function organizationOf(deps: SubscriptionsDeps, caller: OrgCaller) {
  const org = await q.findOrganization(deps.db, caller.organizationId);
  if (!org) throw notFound();
  return org;
}

// GET /api/subscriptionplans/subscriptions: the same cancelled/grace-period rule as the profile's flags.
export async function currentSubscription(deps: SubscriptionsDeps, caller: OrgCaller): Promise<CurrentSubscription> {
  const org = await organizationOf(deps, caller);
  const now = deps.now();
  const requested = org.cancelledAt ? await q.findLatestEvent(deps.db, org.id, REACTIVATION_REQUESTED, org.cancelledAt) : undefined;
  return {
    organizationId: org.id,
    organizationName: org.name,
    planId: org.planId,
    subscriptionReference: org.subscriptionReference,
    status: !org.cancelledAt ? 'Active' : org.gracePeriodEndsAt && org.gracePeriodEndsAt > now ? 'GracePeriod' : 'Cancelled',
    cancelledAt: org.cancelledAt?.toISOString() ?? null,
    gracePeriodEndDate: org.gracePeriodEndsAt?.toISOString() ?? null,
    reactivationRequestedAt: requested?.createdAt.toISOString() ?? null,
  };
}

// POST /api/subscriptionplans/reactivate: records the request (each press is one row; the modal disables its
// button after one) and answers honestly that it was sent, not that the organization is reactivated.
export async function requestReactivation(deps: SubscriptionsDeps, caller: OrgCaller, planId: string | null | undefined) {
  const org = await organizationOf(deps, caller);
  if (!org.cancelledAt) throw new AppError(409, subscriptionMessages.notCancelled);
  const now = deps.now();
  await writeAudit(
    deps.db,
    {
      eventType: REACTIVATION_REQUESTED,
      ...auditedBy(caller),
      correlationId: org.id,
      details: { planId: planId || org.planId, subscriptionReference: org.subscriptionReference },
    },
    now,
  );
  return { message: subscriptionMessages.reactivationRequested, requestedAt: now.toISOString() };
}
