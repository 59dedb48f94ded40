import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { namedValue, webhookBody, webhookDetail, webhookParams, webhookSaved, webhookSummary } from '@clinicrelay/contracts/webhooks.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ADMINISTRATOR: readonly Role[] = ['Administrator'];

// end-user §7 "Fax and other" webhooks (issue 13 §6): the caller's organization's webhooks, for its Administrators.
// The spec writes the list and save paths with a trailing slash; the router ignores it.
export function webhooksRoutes(app: App, deps: service.WebhooksDeps) {
  const config = { roles: ADMINISTRATOR };
  const tags = ['webhooks'];
  const base = '/api/webhooks';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, response: { 200: z.array(webhookSummary) } },
    handler: (request) => service.list(deps, orgCaller(request)),
  });
  app.route({
    method: 'PUT',
    url: base,
    config,
    schema: { tags, body: webhookBody, response: { 200: webhookSaved } },
    handler: (request) => service.save(deps, orgCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: `${base}/events`,
    config,
    schema: { tags, response: { 200: z.array(namedValue) } },
    handler: async () => service.eventTypes(),
  });
  app.route({
    method: 'GET',
    url: `${base}/authenticationtypes`,
    config,
    schema: { tags, response: { 200: z.array(namedValue) } },
    handler: async () => service.authenticationTypes(),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config,
    schema: { tags, params: webhookParams, response: { 200: webhookDetail } },
    handler: (request) => service.get(deps, orgCaller(request), request.params.id),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:id`,
    config,
    schema: { tags, params: webhookParams, response: { 200: okResponse } },
    handler: async (request) => {
      await service.remove(deps, orgCaller(request), request.params.id);
      return { ok: true as const };
    },
  });
}
