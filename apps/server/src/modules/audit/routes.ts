import { z } from 'zod';
import { auditList, auditParams, auditQuery, auditType, messageEvents, messageEventsQuery } from '@clinicrelay/contracts/audit.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// end-user §6: message activity is for organization administrators only.
const ADMINS: readonly Role[] = ['Administrator'];
const caller = orgCaller;

// end-user §7 audit calls that back the message Activity modal, and GET /api/messages/events. The other
// audit calls (/{id}/events, /{id}, /entries/{type}, /user) are not built yet.
export function auditRoutes(app: App, deps: service.AuditDeps) {
  const config = { roles: ADMINS };

  app.route({
    method: 'GET',
    url: '/api/audit/types',
    config,
    schema: { tags: ['audits'], response: { 200: z.array(auditType) } },
    handler: async () => service.auditTypes(),
  });
  app.route({
    method: 'GET',
    url: '/api/audit/:type/:correlationId',
    config,
    schema: { tags: ['audits'], params: auditParams, querystring: auditQuery, response: { 200: auditList } },
    handler: (request) => service.activity(deps, caller(request), request.params, request.query),
  });
  // A static segment: find-my-way matches it before GET /api/messages/:id.
  app.route({
    method: 'GET',
    url: '/api/messages/events',
    config,
    schema: { tags: ['messages'], querystring: messageEventsQuery, response: { 200: messageEvents } },
    handler: (request) => service.recentMessageEvents(deps, caller(request), request.query),
  });
}
