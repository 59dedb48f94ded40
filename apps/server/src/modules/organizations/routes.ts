import type { FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  activationRequest,
  organizationQueueCounts,
  sendingStatus,
  apiCaptureRequest,
  enableRequest,
  npiQuery,
  npiResult,
  organization,
  organizationAdmin,
  organizationChoices,
  organizationGetQuery,
  organizationInput,
  organizationMessages as text,
  organizationOption,
  organizationPage,
  organizationParams,
  organizationQuery,
  organizationRecord,
  organizationType,
  subdomainExistsQuery,
  subdomainIsValidQuery,
  syncResponse,
} from '@clinicrelay/contracts/organizations.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller, orgCaller } from '../../platform/auth/guard.ts';
import { badRequest } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { sendingStatus as readSendingStatus, setActivation } from './activation.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// The organization form's failures carry §5's "Please fill out all required fields." with each field's reason.
function invalidForm(request: FastifyRequest) {
  const error = request.validationError;
  if (!error) return;
  const modelState: Record<string, string[]> = {};
  if (hasZodFastifySchemaValidationErrors(error)) {
    for (const v of error.validation as { instancePath: string; message?: string }[]) (modelState[v.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'request'] ??= []).push(v.message ?? text.invalidForm);
  }
  throw badRequest(text.invalidForm, modelState);
}

// back-office-a §7 "Organizations". Static segments are declared before /:id.
export function organizationsRoutes(app: App, deps: service.OrganizationsDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['organizations'];
  const base = '/api/organizations';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: organizationQuery, response: { 200: organizationPage } },
    handler: (request) => service.listOrganizations(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: `${base}/types`,
    config,
    schema: { tags, response: { 200: z.array(organizationType) } },
    handler: () => service.organizationTypes(deps),
  });
  app.route({
    method: 'GET',
    url: `${base}/subdomain/exists`,
    config,
    schema: { tags, querystring: subdomainExistsQuery, response: { 200: z.boolean() } },
    handler: (request) => service.subdomainExists(deps, request.query.subdomain, request.query.id),
  });
  app.route({
    method: 'GET',
    url: `${base}/subdomain/isvalid`,
    config,
    schema: { tags, querystring: subdomainIsValidQuery, response: { 200: z.boolean() } },
    handler: (request) => service.subdomainIsValid(deps, request.query.subdomain),
  });
  app.route({
    method: 'POST',
    url: base,
    config,
    attachValidation: true,
    schema: { tags, body: organizationInput, response: { 200: organization } },
    handler: (request) => {
      invalidForm(request);
      return service.createOrganization(deps, adminCaller(request), request.body);
    },
  });
  // With `search`, :id is a user's: the organizations that user is not yet a member of (see the contracts).
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config,
    schema: { tags, params: organizationParams, querystring: organizationGetQuery, response: { 200: z.union([organization, z.array(organizationOption)]) } },
    handler: (request) =>
      request.query.search === undefined ? service.getOrganization(deps, request.params.id) : service.organizationsWithoutUser(deps, request.params.id, request.query.search),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id`,
    config,
    attachValidation: true,
    schema: { tags, params: organizationParams, body: organizationInput, response: { 200: organization } },
    handler: (request) => {
      invalidForm(request);
      return service.updateOrganization(deps, adminCaller(request), request.params.id, request.body);
    },
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:id`,
    config,
    schema: { tags, params: organizationParams, response: { 200: okResponse } },
    handler: (request) => service.deleteOrganization(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id/activate`,
    config,
    schema: { tags, params: organizationParams, body: activationRequest, response: { 200: organization } },
    handler: (request) => setActivation(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id/enable`,
    config,
    schema: { tags, params: organizationParams, body: enableRequest, response: { 200: organization } },
    handler: (request) => service.setLoginAbility(deps, adminCaller(request), request.params.id, request.body?.enabled),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id/apicapture`,
    config,
    schema: { tags, params: organizationParams, body: apiCaptureRequest, response: { 200: organization } },
    handler: (request) => service.setApiCapture(deps, adminCaller(request), request.params.id, request.body?.apiCapture),
  });
  app.route({
    method: 'POST',
    url: `${base}/:id/clearcancel`,
    config,
    schema: { tags, params: organizationParams, response: { 200: okResponse } },
    handler: (request) => service.clearCancellation(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: `${base}/:id/sync`,
    config,
    schema: { tags, params: organizationParams, response: { 200: syncResponse } },
    handler: (request) => service.syncOrganization(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id/integrations`,
    config,
    schema: { tags, params: organizationParams, response: { 200: z.array(organizationRecord) } },
    handler: (request) => service.noRecordsYet(deps, request.params.id),
  });

  // Not in the spec (issue 26 §3b): what the caller's activated organization can send and what is still pending.
  app.route({
    method: 'GET',
    url: '/api/organization/sendingstatus',
    config: { roles: ['Administrator'] },
    schema: { tags, response: { 200: sendingStatus } },
    handler: (request) => readSendingStatus(deps, orgCaller(request)),
  });

  const admin = '/api/admin/organizations';
  // Not in the spec (issue 26 §3b): how many organizations wait in each operators' queue, for the dashboard.
  app.route({
    method: 'GET',
    url: `${admin}/queues`,
    config,
    schema: { tags, response: { 200: organizationQueueCounts } },
    handler: () => service.queueCounts(deps),
  });
  app.route({
    method: 'GET',
    url: `${admin}/npi`,
    config,
    schema: { tags, querystring: npiQuery, response: { 200: npiResult } },
    handler: (request) => service.lookUpNpi(deps, request.query.npiNumber),
  });
  app.route({
    method: 'GET',
    url: `${admin}/choices`,
    config,
    schema: { tags, response: { 200: organizationChoices } },
    handler: () => service.choices(deps),
  });
  app.route({
    method: 'GET',
    url: `${admin}/:id/admins`,
    config,
    schema: { tags, params: organizationParams, response: { 200: z.array(organizationAdmin) } },
    handler: (request) => service.administrators(deps, request.params.id),
  });
  // The Licenses list is the licenses module's (GET /api/admin/organizations/{id}/licenses).
  app.route({
    method: 'GET',
    url: `${admin}/:id/devices`,
    config,
    schema: { tags, params: organizationParams, response: { 200: z.array(organizationRecord) } },
    handler: (request) => service.noRecordsYet(deps, request.params.id),
  });
}
