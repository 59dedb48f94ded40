import type { FastifyRequest } from 'fastify';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { messageResponse } from '@clinicrelay/contracts/admin-users.ts';
import {
  acceptTermsRequest,
  currentTerms,
  eula,
  eulaAdminMessages as text,
  eulaCreateFields,
  eulaPage,
  eulaQuery,
  EULA_FILE_NAME_MAX,
  MAX_EULA_FILE_BYTES,
} from '@clinicrelay/contracts/eulas.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller, orgCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { parseBody } from '../../platform/files/logo.ts';
import { type App, closeUnreadBody } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const FORM_FIELDS = ['type', 'brandId', 'version'] as const;
const FIELD_BYTES = 256;
const tooLarge = () => new AppError(413, text.fileTooLarge, { modelState: { file: [text.fileTooLarge] } });

async function refuseOversizedUpload(request: FastifyRequest) {
  if (Number(request.headers['content-length']) > MAX_EULA_FILE_BYTES + 64 * 1024) throw tooLarge();
}

// The create form: the file (checked by name before a byte is read) and the three text parts.
async function readForm(request: FastifyRequest) {
  const form = await readMultipartForm(request, {
    file: { field: 'file', maxBytes: MAX_EULA_FILE_BYTES },
    tooLarge,
    checkFileName: (fileName) => {
      if (fileName.length > EULA_FILE_NAME_MAX) throw badRequest(text.fileNameTooLong, { file: [text.fileNameTooLong] });
      if (!service.isHtmlFileName(fileName)) throw badRequest(text.htmlRequired, { file: [text.htmlRequired] });
    },
    text: { fields: FORM_FIELDS, maxBytes: FIELD_BYTES },
    fields: FORM_FIELDS.length + 2,
  });
  // A missing part reads as '' so the field's own "required" message answers.
  const input = parseBody(eulaCreateFields, { type: form.text.type ?? '', brandId: form.text.brandId ?? '', version: form.text.version ?? '' });
  // An empty file input sends a part with no name and no bytes: no file chosen.
  const file = form.file?.fileName && form.file.bytes.length > 0 ? form.file : undefined;
  return { input, file };
}

// back-office-b "EULA / TOS" (issue 14 §2): system administrators publish terms documents per brand; the end-user calls
// read the active one and record acceptance. The paths are not in the spec (see packages/contracts/src/eulas.ts).
export function eulasRoutes(app: App, deps: service.EulasDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['eulas'];
  const base = '/api/admin/eulas';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: eulaQuery, response: { 200: eulaPage } },
    handler: (request) => service.listEulas(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: base,
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: eula } },
    onRequest: refuseOversizedUpload,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      if (!request.isMultipart()) throw badRequest(text.fileRequired, { file: [text.fileRequired] });
      const { input, file } = await readForm(request);
      return service.createEula(deps, adminCaller(request), input, file);
    },
  });
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: eula } },
    handler: (request) => service.getEula(deps, request.params.id),
  });
  app.route({
    method: 'POST',
    url: `${base}/:id/activate`,
    config,
    schema: { tags, params: idParams, response: { 200: eula } },
    handler: (request) => service.activateEula(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteEula(deps, adminCaller(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: '/api/eulas/current',
    config: { roles: 'authenticated', termsAcceptance: true },
    schema: { tags, response: { 200: currentTerms } },
    handler: (request) => service.currentTerms(deps, orgCaller(request)),
  });
  app.route({
    method: 'POST',
    url: '/api/eulas/:id/accept',
    config: { roles: 'authenticated', termsAcceptance: true },
    schema: { tags, params: idParams, body: acceptTermsRequest, response: { 200: messageResponse } },
    handler: (request) => service.acceptTerms(deps, orgCaller(request), request.params.id),
  });
}
