import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import { reseller, resellerInput, resellerPage, resellerQuery, urlCodeQuery, urlCodeResponse, urlExistsQuery } from '@clinicrelay/contracts/resellers.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { FastifyRequest } from 'fastify';
import { adminCaller } from '../../platform/auth/guard.ts';
import { parseBody, readLogoForm, refuseOversizedLogoForm, sendLogo } from '../../platform/files/logo.ts';
import { type App, closeUnreadBody } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// The `reseller` JSON and an optional `logo` (multipart, §7), or the reseller as plain JSON.
async function readResellerForm(request: FastifyRequest) {
  const form = await readLogoForm(request, { json: 'reseller', file: 'logo' });
  return { input: parseBody(resellerInput, form.json), logo: form.logo };
}

// back-office-a §7 "Resellers".
export function resellersRoutes(app: App, deps: service.ResellersDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['resellers'];
  const upload = {
    onRequest: refuseOversizedLogoForm,
    onSend: async (request: FastifyRequest, reply: Parameters<typeof closeUnreadBody>[1]) => closeUnreadBody(request, reply),
  };

  app.route({
    method: 'GET',
    url: '/api/resellers',
    config,
    schema: { tags, querystring: resellerQuery, response: { 200: resellerPage } },
    handler: (request) => service.listResellers(deps, request.query),
  });
  // Static segments before /:id.
  app.route({
    method: 'GET',
    url: '/api/resellers/urlexists',
    config,
    schema: { tags, querystring: urlExistsQuery, response: { 200: z.boolean() } },
    handler: (request) => service.urlCodeExists(deps, request.query.code, request.query.id),
  });
  app.route({
    method: 'GET',
    url: '/api/resellers/urlcode',
    config,
    schema: { tags, querystring: urlCodeQuery, response: { 200: urlCodeResponse } },
    handler: (request) => service.urlCodeUrl(deps, request.query.urlCode),
  });
  app.route({
    method: 'GET',
    url: '/api/resellers/:id',
    config,
    schema: { tags, params: idParams, response: { 200: reseller } },
    handler: (request) => service.getReseller(deps, request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/resellers',
    config,
    schema: { tags, consumes: ['multipart/form-data', 'application/json'], response: { 200: reseller } },
    ...upload,
    handler: async (request) => {
      const { input, logo } = await readResellerForm(request);
      return service.saveReseller(deps, adminCaller(request), undefined, input, logo);
    },
  });
  app.route({
    method: 'PUT',
    url: '/api/resellers/:id',
    config,
    schema: { tags, params: idParams, consumes: ['multipart/form-data', 'application/json'], response: { 200: reseller } },
    ...upload,
    handler: async (request) => {
      const { input, logo } = await readResellerForm(request);
      return service.saveReseller(deps, adminCaller(request), request.params.id, input, logo);
    },
  });
  app.route({
    method: 'DELETE',
    url: '/api/resellers/:id',
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteReseller(deps, adminCaller(request), request.params.id),
  });
  // Public: the register page (a later issue) shows the reseller's logo to visitors who are not signed in.
  app.route({
    method: 'GET',
    url: '/api/resellers/:id/logo',
    config: { roles: 'public' },
    schema: { tags, params: idParams },
    handler: async (request, reply) => sendLogo(reply, await service.resellerLogo(deps, request.params.id)),
  });
}
