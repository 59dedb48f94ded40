import { z } from 'zod';
import {
  cancelled,
  cancelRequest,
  currentSubscription,
  planChanged,
  planChangeRequest,
  reactivated,
  reactivationRequest,
  subscriptionPayment,
  upgradeRequest,
  upgradeRequested,
} from '@clinicrelay/contracts/subscriptions.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { text } from '@clinicrelay/contracts/text.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ADMINS: readonly Role[] = ['Administrator'];
const ORG_USERS: readonly Role[] = ['Administrator', 'User'];

// end-user §7 "Subscriptions". Plans are managed by organization administrators only (§6), and these answer while
// the organization is canceled: that is when reactivation is needed. The router ignores a trailing slash, so the
// spec's '/reactivate/' reaches the same route.
export function subscriptionsRoutes(app: App, deps: service.SubscriptionsDeps) {
  const config = { roles: ADMINS, cancelledOrganization: true as const };
  const tags = ['subscriptions'];
  app.route({
    method: 'GET',
    url: '/api/subscriptionplans/subscriptions',
    config,
    schema: { tags, response: { 200: currentSubscription } },
    handler: (request) => service.currentSubscription(deps, orgCaller(request)),
  });
  app.route({
    method: 'POST',
    url: '/api/subscriptionplans/subscriptions',
    config,
    schema: { tags, body: planChangeRequest, response: { 200: planChanged } },
    handler: (request) => service.changePlan(deps, orgCaller(request), request.body),
  });
  app.route({
    method: 'POST',
    url: '/api/subscriptionplans/cancel',
    config,
    schema: { tags, body: cancelRequest, response: { 200: cancelled } },
    handler: (request) => service.cancel(deps, orgCaller(request), request.body.cancelReason),
  });
  app.route({
    method: 'POST',
    url: '/api/subscriptionplans/reactivate',
    config,
    // The web may send no body at all.
    schema: { tags, body: reactivationRequest.nullish(), response: { 200: reactivated } },
    handler: (request) => service.reactivate(deps, orgCaller(request), request.body?.planId),
  });
  app.route({
    method: 'GET',
    url: '/api/subscriptionplans/fastspring/:id',
    config,
    schema: { tags, params: z.object({ id: text('Reference').trim().min(1).max(100) }), response: { 200: subscriptionPayment } },
    handler: (request) => service.findPayment(deps, orgCaller(request), request.params.id),
  });
  // Not in the spec: the User's side of the upgrade prompt (its Administrators are asked by mail).
  app.route({
    method: 'POST',
    url: '/api/subscriptionplans/upgraderequest',
    config: { roles: ORG_USERS },
    schema: { tags, body: upgradeRequest.nullish(), response: { 200: upgradeRequested } },
    handler: (request) => service.requestUpgrade(deps, orgCaller(request), request.body?.feature),
  });
}
