import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import {
  routingChildId,
  routingEndpointCreate,
  routingEndpointUpdate,
  routingRule,
  routingRuleInput,
  routingRulePage,
  routingRuleQuery,
  routingSenderCreate,
  routingSenderUpdate,
} from '@clinicrelay/contracts/routing-rules.ts';
import { text } from '@clinicrelay/contracts/text.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
// The catalog writes create as POST /{id}: the id a new rule's form holds (empty, 0 or a blank GUID) is not used.
const anyId = z.object({ id: text().max(64) });

// back-office-b §7 "Routing rules" (issue 29 §3). The catalog does not place the ids of /endpoints and /senders: the
// body names the rule (routingRuleId) and, for PUT, the endpoint or sender (id); DELETE takes ?id=.
export function routingRulesRoutes(app: App, deps: service.RoutingRulesDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['routing-rules'];
  const base = '/api/admin/routingrules';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: routingRuleQuery, response: { 200: routingRulePage } },
    handler: (request) => service.listRules(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: base,
    config,
    schema: { tags, body: routingRuleInput, response: { 200: routingRule } },
    handler: (request) => service.createRule(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'POST',
    url: `${base}/:id`,
    config,
    schema: { tags, params: anyId, body: routingRuleInput, response: { 200: routingRule } },
    handler: (request) => service.createRule(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: routingRule } },
    handler: (request) => service.getRule(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, body: routingRuleInput, response: { 200: routingRule } },
    handler: (request) => service.updateRule(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteRule(deps, adminCaller(request), request.params.id),
  });

  // Endpoints and senders answer the whole rule after a save, so the modal shows the list as stored.
  app.route({
    method: 'POST',
    url: `${base}/endpoints`,
    config,
    schema: { tags, body: routingEndpointCreate, response: { 200: routingRule } },
    handler: (request) => service.createEndpoint(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: `${base}/endpoints`,
    config,
    schema: { tags, body: routingEndpointUpdate, response: { 200: routingRule } },
    handler: (request) => service.updateEndpoint(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/endpoints`,
    config,
    schema: { tags, querystring: routingChildId, response: { 200: okResponse } },
    handler: (request) => service.deleteEndpoint(deps, adminCaller(request), request.query.id),
  });
  app.route({
    method: 'POST',
    url: `${base}/senders`,
    config,
    schema: { tags, body: routingSenderCreate, response: { 200: routingRule } },
    handler: (request) => service.createSender(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: `${base}/senders`,
    config,
    schema: { tags, body: routingSenderUpdate, response: { 200: routingRule } },
    handler: (request) => service.updateSender(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/senders`,
    config,
    schema: { tags, querystring: routingChildId, response: { 200: okResponse } },
    handler: (request) => service.deleteSender(deps, adminCaller(request), request.query.id),
  });
}
