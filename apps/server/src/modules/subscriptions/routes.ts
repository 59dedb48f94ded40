import { currentSubscription, reactivationRequest, reactivationRequested } from '@clinicrelay/contracts/subscriptions.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ADMINS: readonly Role[] = ['Administrator'];

// end-user §7 "Subscriptions": what the reactivation modal calls. Reactivation is offered only to organization
// administrators (§6), and these answer while the organization is canceled: that is when they are needed.
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
    url: '/api/subscriptionplans/reactivate',
    config,
    // The web may send no body at all.
    schema: { tags, body: reactivationRequest.nullish(), response: { 200: reactivationRequested } },
    handler: (request) => service.requestReactivation(deps, orgCaller(request), request.body?.planId),
  });
}
