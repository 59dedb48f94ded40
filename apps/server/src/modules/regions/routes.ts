import type { FastifyRequest } from 'fastify';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import {
  CROSSWALK_MAX_BYTES,
  crosswalkMessages,
  crosswalkResult,
  healthServiceAreaPage,
  healthServiceAreaQuery,
  region,
  regionInput,
  regionPage,
  regionQuery,
} from '@clinicrelay/contracts/regions.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { closeUnreadBody, type App } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const fileRequired = () => badRequest(crosswalkMessages.fileRequired, { file: [crosswalkMessages.fileRequired] });
const tooLarge = () => new AppError(413, crosswalkMessages.tooLarge, { modelState: { file: [crosswalkMessages.tooLarge] } });

async function refuseOversizedUpload(request: FastifyRequest) {
  if (Number(request.headers['content-length']) > CROSSWALK_MAX_BYTES + 64 * 1024) throw tooLarge();
}

// back-office-b §7 "Regions and service areas".
export function regionsRoutes(app: App, deps: service.RegionsDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['regions'];
  const regions = '/api/healthreferralregion';
  app.route({
    method: 'GET',
    url: regions,
    config,
    schema: { tags, querystring: regionQuery, response: { 200: regionPage } },
    handler: (request) => service.listRegions(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: regions,
    config,
    schema: { tags, body: regionInput, response: { 200: region } },
    handler: (request) => service.createRegion(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: `${regions}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: region } },
    handler: (request) => service.getRegion(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${regions}/:id`,
    config,
    schema: { tags, params: idParams, body: regionInput, response: { 200: region } },
    handler: (request) => service.updateRegion(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${regions}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteRegion(deps, adminCaller(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/api/healthserviceareas',
    config,
    schema: { tags, querystring: healthServiceAreaQuery, response: { 200: healthServiceAreaPage } },
    handler: (request) => service.listServiceAreas(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: '/api/healthserviceareas/crosswalk',
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: crosswalkResult } },
    onRequest: refuseOversizedUpload,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      if (!request.isMultipart()) throw fileRequired();
      const form = await readMultipartForm(request, {
        file: { field: 'file', maxBytes: CROSSWALK_MAX_BYTES },
        tooLarge,
        checkFileName: (fileName) => {
          if (!/\.csv$/i.test(fileName)) throw fileRequired();
        },
        fields: 2,
      });
      // An empty file input sends a part with no name and no bytes: no file chosen.
      if (!form.file?.fileName || form.file.bytes.length === 0) throw fileRequired();
      return service.loadCrosswalk(deps, adminCaller(request), form.file);
    },
  });
}
