import type { FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  issuedLicenses,
  licenseFeed,
  licenseIssueRequest,
  licenseMessages as text,
  licenseType,
  licenseTypeExistsQuery,
  licenseTypeInput,
  licenseTypePage,
  licenseTypeParams,
  licenseTypeQuery,
  organizationLicense,
} from '@clinicrelay/contracts/licenses.ts';
import { organizationParams } from '@clinicrelay/contracts/organizations.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { text as textValue } from '@clinicrelay/contracts/text.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { badRequest } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// back-office-b §6: licenses and license types are SysAdmin pages.
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const FORM_BODY_LIMIT = 16 * 1024;

// §8 "Error generating licenses: ...": a refused field is named after the prefix, and under its name in modelState.
function refuseInvalidIssue(request: FastifyRequest) {
  const error = request.validationError;
  if (!error) return;
  const modelState: Record<string, string[]> = {};
  if (hasZodFastifySchemaValidationErrors(error)) {
    for (const v of error.validation as { instancePath: string; message?: string }[]) (modelState[v.instancePath.replace(/^\//, '') || 'request'] ??= []).push(v.message ?? text.invalidFields);
  }
  const reasons = Object.values(modelState).flat();
  throw badRequest(text.generateError(reasons.length ? reasons.join(' ') : text.invalidFields), modelState);
}

// back-office-b §7 "Licenses" and "License types" (issue 29 §4).
export function licensesRoutes(app: App, deps: service.LicensesDeps) {
  const config = { roles: SYS_ADMIN };
  const typeTags = ['license types'];
  const types = '/api/admin/licensetypes';

  app.route({
    method: 'GET',
    url: types,
    config,
    schema: { tags: typeTags, querystring: licenseTypeQuery, response: { 200: licenseTypePage } },
    handler: (request) => service.listLicenseTypes(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: types,
    config,
    schema: { tags: typeTags, body: licenseTypeInput, response: { 200: licenseType } },
    handler: (request) => service.createLicenseType(deps, adminCaller(request), request.body),
  });
  // Static segments before /:id.
  app.route({
    method: 'GET',
    url: `${types}/appnames`,
    config,
    schema: { tags: typeTags, response: { 200: z.array(textValue()) } },
    handler: () => service.appNames(deps),
  });
  app.route({
    method: 'GET',
    url: `${types}/exists`,
    config,
    schema: { tags: typeTags, querystring: licenseTypeExistsQuery, response: { 200: z.boolean() } },
    handler: (request) => service.licenseTypeExists(deps, request.query.name, request.query.id),
  });
  app.route({
    method: 'GET',
    url: `${types}/:id`,
    config,
    schema: { tags: typeTags, params: licenseTypeParams, response: { 200: licenseType } },
    handler: (request) => service.getLicenseType(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${types}/:id`,
    config,
    schema: { tags: typeTags, params: licenseTypeParams, body: licenseTypeInput, response: { 200: licenseType } },
    handler: (request) => service.updateLicenseType(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${types}/:id`,
    config,
    schema: { tags: typeTags, params: licenseTypeParams, response: { 200: okResponse } },
    handler: (request) => service.deleteLicenseType(deps, adminCaller(request), request.params.id),
  });

  const tags = ['licenses'];
  app.route({
    method: 'GET',
    url: '/api/adminlicenses',
    config,
    // The query options are read by the OData compiler (platform/odata.ts), which names what it refuses.
    schema: { tags, response: { 200: licenseFeed } },
    handler: async (request, reply) => {
      reply.header('odata-version', '4.0');
      return service.readLicenseFeed(deps, '/api/adminlicenses', request.query as Record<string, unknown>);
    },
  });
  // The organization edit page's Licenses list (back-office-a §7 "/licenses").
  app.route({
    method: 'GET',
    url: '/api/admin/organizations/:id/licenses',
    config,
    schema: { tags, params: organizationParams, response: { 200: z.array(organizationLicense) } },
    handler: (request) => service.organizationLicenses(deps, request.params.id),
  });

  // §7: the issue call is form-encoded. The parser is this scope's own, so it meets no other module's.
  void app.register(async (scope: App) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.route({
      method: 'POST',
      url: '/api/licenses/issue',
      config,
      attachValidation: true,
      schema: { tags, consumes: ['application/x-www-form-urlencoded', 'application/json'], body: licenseIssueRequest, response: { 200: issuedLicenses } },
      handler: (request) => {
        refuseInvalidIssue(request);
        return service.issueLicenses(deps, adminCaller(request), request.body);
      },
    });
  });
}
