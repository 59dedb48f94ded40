import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  emergencyOrganization,
  emergencyOrganizationInput,
  emergencyOrganizationPage,
  emergencyOrganizationParams,
  emergencyOrganizationQuery,
  organizationSearchBody,
  organizationSearchResult,
} from '@clinicrelay/contracts/emergencies.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-b §7 "Emergencies", the separate service's calls (catalog: "separate configured base URL").
export function carequalityServiceRoutes(app: App, deps: service.CarequalityServiceDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['emergency organizations'];
  const base = '/api/emergencies/organizations';

  app.route({
    method: 'POST',
    url: '/api/organization/admin/_search',
    // A search: it changes nothing, so the session cache stays.
    config: { ...config, readOnly: true },
    schema: { tags, body: organizationSearchBody, response: { 200: organizationSearchResult } },
    handler: (request) => service.searchOrganizations(deps, request.body.orgId),
  });
  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: emergencyOrganizationQuery, response: { 200: emergencyOrganizationPage } },
    handler: (request) => service.listOrganizations(deps, request.query),
  });
  app.route({
    method: 'PUT',
    url: base,
    config: { ...config, keepsSessions: true },
    schema: { tags, body: emergencyOrganizationInput, response: { 200: emergencyOrganization } },
    handler: (request) => service.saveOrganization(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: `${base}/:oid`,
    config,
    schema: { tags, params: emergencyOrganizationParams, response: { 200: emergencyOrganization } },
    handler: (request) => service.getOrganization(deps, request.params.oid),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:oid`,
    config: { ...config, keepsSessions: true },
    schema: { tags, params: emergencyOrganizationParams, response: { 200: okResponse } },
    handler: (request) => service.deleteOrganization(deps, adminCaller(request), request.params.oid),
  });
}
