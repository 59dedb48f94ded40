import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  adminDocumentSource,
  adminDocumentSourcePage,
  adminDocumentSourceQuery,
  documentSourceCreate,
  documentSourceDeleteQuery,
  documentSourceExistsQuery,
  documentSourceGlobalUpdate,
  documentSourceProviderPage,
  documentSourceProviderQuery,
  documentSourceUpdate,
  faxNumberOrdered,
  faxNumberRequest,
  faxStatusUpdate,
} from '@clinicrelay/contracts/document-sources.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { FastifyRequest } from 'fastify';
import { adminCaller, auth, currentOrganizationId } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const SYS_ADMIN_OR_ADMINISTRATOR: readonly Role[] = ['SysAdmin', 'Administrator'];

// A system administrator reaches every organization; an organization's Administrator only the session's current one.
const scopeOf = (request: FastifyRequest): service.Scope => (auth(request).roles.includes('SysAdmin') ? null : currentOrganizationId(request));

// end-user §7 "Fax and other" (catalog area fax): an organization's Direct addresses and fax numbers, for system
// administrators and any organization. Issue 13 §3 opens listing, reading, requesting and removing to an
// organization's Administrator for its own; activation, changes and the fax status stay with system administrators.
export function documentSourcesRoutes(app: App, deps: service.DocumentSourcesDeps) {
  const config = { roles: SYS_ADMIN };
  const orgConfig = { roles: SYS_ADMIN_OR_ADMINISTRATOR };
  const tags = ['document sources'];
  const base = '/api/admin/documentsources';

  app.route({
    method: 'GET',
    url: base,
    config: orgConfig,
    schema: { tags, querystring: adminDocumentSourceQuery, response: { 200: adminDocumentSourcePage } },
    handler: (request) => service.listSources(deps, request.query, scopeOf(request)),
  });
  // Static segments before /:id.
  app.route({
    method: 'GET',
    url: `${base}/exists`,
    config: orgConfig,
    schema: { tags, querystring: documentSourceExistsQuery, response: { 200: z.boolean() } },
    handler: (request) => service.addressExists(deps, request.query.val),
  });
  app.route({
    method: 'GET',
    url: `${base}/documentsourceproviders`,
    config,
    schema: { tags, querystring: documentSourceProviderQuery, response: { 200: documentSourceProviderPage } },
    handler: (request) => service.listProviders(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config: orgConfig,
    schema: { tags, params: idParams, response: { 200: adminDocumentSource } },
    handler: (request) => service.getSource(deps, request.params.id, scopeOf(request)),
  });
  app.route({
    method: 'POST',
    url: base,
    config: orgConfig,
    schema: { tags, body: documentSourceCreate, response: { 200: adminDocumentSource } },
    handler: (request) => service.createSource(deps, adminCaller(request), request.body, scopeOf(request)),
  });
  app.route({
    method: 'POST',
    url: `${base}/faxnumber`,
    config: orgConfig,
    schema: { tags, body: faxNumberRequest, response: { 200: faxNumberOrdered } },
    handler: (request) => service.orderFaxNumber(deps, adminCaller(request), request.body.organizationId, scopeOf(request)),
  });
  app.route({
    method: 'PUT',
    url: base,
    config,
    schema: { tags, body: documentSourceUpdate, response: { 200: adminDocumentSource } },
    handler: (request) => service.updateSource(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id/global`,
    config: orgConfig,
    schema: { tags, params: idParams, body: documentSourceGlobalUpdate, response: { 200: adminDocumentSource } },
    handler: (request) => service.setGlobal(deps, adminCaller(request), request.params.id, request.body.isGlobal, scopeOf(request)),
  });
  app.route({
    method: 'DELETE',
    url: base,
    config: orgConfig,
    schema: { tags, querystring: documentSourceDeleteQuery, response: { 200: okResponse } },
    handler: (request) => service.removeSource(deps, adminCaller(request), request.query.id, scopeOf(request)),
  });
  app.route({
    method: 'POST',
    url: `${base}/activate/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: adminDocumentSource } },
    handler: (request) => service.activateSource(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id/faxstatus`,
    config,
    schema: { tags, params: idParams, body: faxStatusUpdate, response: { 200: adminDocumentSource } },
    handler: (request) => service.setFaxStatus(deps, adminCaller(request), request.params.id, request.body.status),
  });
}
