import { z } from 'zod';
import { auditList, auditParams, auditQuery, auditType, messageEvents, messageEventsQuery } from '@clinicrelay/contracts/audit.ts';
import { auditEntriesParams, auditEntriesQuery, auditEntryDetail, auditEntryPage, auditEntryParams } from '@clinicrelay/contracts/audits.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// end-user §6: message activity is for organization administrators only.
const ADMINS: readonly Role[] = ['Administrator'];
const caller = orgCaller;

// end-user §7 audit calls: the message Activity modal's, GET /api/messages/events, and the organization's entries
// by id, correlation, type and user. Static segments (types, user, entries, events) win over parameters.
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
  app.route({
    method: 'GET',
    url: '/api/audit/user',
    config,
    schema: { tags: ['audits'], querystring: auditEntriesQuery, response: { 200: auditEntryPage } },
    handler: (request) => service.ownEntries(deps, caller(request), request.query),
  });
  app.route({
    method: 'GET',
    url: '/api/audit/entries/:type',
    config,
    schema: { tags: ['audits'], params: auditEntriesParams, querystring: auditEntriesQuery, response: { 200: auditEntryPage } },
    handler: (request) => service.entriesOfType(deps, caller(request), request.params.type, request.query),
  });
  app.route({
    method: 'GET',
    url: '/api/audit/:id',
    config,
    schema: { tags: ['audits'], params: auditEntryParams, response: { 200: auditEntryDetail } },
    handler: (request) => service.entry(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'GET',
    url: '/api/audit/:id/events',
    config,
    schema: { tags: ['audits'], params: auditEntryParams, querystring: auditEntriesQuery, response: { 200: auditEntryPage } },
    handler: (request) => service.entryEvents(deps, caller(request), request.params.id, request.query),
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
