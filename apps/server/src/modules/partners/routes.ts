import { okResponse } from '@clinicrelay/contracts/account.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import { partner, partnerInput, partnerPage, partnerQuery } from '@clinicrelay/contracts/partners.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { parseBody, readLogoForm, refuseOversizedLogoForm, sendLogo } from '../../platform/files/logo.ts';
import { type App, closeUnreadBody } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §7 "Partners". PUT /api/partners is both create (no id) and update (an id); with a logo it is
// multipart (`partner` JSON and a `file`), without one plain JSON.
export function partnersRoutes(app: App, deps: service.PartnersDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['partners'];

  app.route({
    method: 'GET',
    url: '/api/partners',
    config,
    schema: { tags, querystring: partnerQuery, response: { 200: partnerPage } },
    handler: (request) => service.listPartners(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: '/api/partners/:id',
    config,
    schema: { tags, params: idParams, response: { 200: partner } },
    handler: (request) => service.getPartner(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: '/api/partners',
    config,
    // The body is read by readLogoForm: multipart or JSON, checked against partnerInput there.
    schema: { tags, consumes: ['multipart/form-data', 'application/json'], response: { 200: partner } },
    onRequest: refuseOversizedLogoForm,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      const form = await readLogoForm(request, { json: 'partner', file: 'file' });
      return service.savePartner(deps, adminCaller(request), parseBody(partnerInput, form.json), form.logo);
    },
  });
  app.route({
    method: 'DELETE',
    url: '/api/partners/:id',
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deletePartner(deps, adminCaller(request), request.params.id),
  });
  // Public like any brand image: the back-office list shows it in an <img>, which sends no bearer token.
  app.route({
    method: 'GET',
    url: '/api/partners/:id/logo',
    config: { roles: 'public' },
    schema: { tags, params: idParams },
    handler: async (request, reply) => sendLogo(reply, await service.partnerLogo(deps, request.params.id)),
  });
}
