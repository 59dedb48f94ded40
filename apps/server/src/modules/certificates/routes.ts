import type { FastifyRequest } from 'fastify';
import {
  certificate,
  certificateEnable,
  certificateMessages,
  certificateNameParams,
  certificatePage,
  certificateQuery,
  certificateUploadFields,
  CERTIFICATE_FILE_EXTENSIONS,
  CERTIFICATE_PASSWORD_MAX,
  MAX_CERTIFICATE_FILE_BYTES,
} from '@clinicrelay/contracts/certificates.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { type App, closeUnreadBody } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const FORM_FIELDS = ['name', 'password', 'useExistingName'] as const;
// The longest text field is the password (CERTIFICATE_PASSWORD_MAX characters, up to 4 bytes each in UTF-8).
const FIELD_BYTES = CERTIFICATE_PASSWORD_MAX * 4;
const tooLarge = () => new AppError(413, certificateMessages.fileTooLarge);
const fileRequired = () => badRequest(certificateMessages.fileRequired, { file: [certificateMessages.fileRequired] });

async function refuseOversizedUpload(request: FastifyRequest) {
  if (Number(request.headers['content-length']) > MAX_CERTIFICATE_FILE_BYTES + FORM_FIELDS.length * FIELD_BYTES + 16 * 1024) throw tooLarge();
}

// The form of back-office-b §7: name, file (.pfx or .p12), password, useExistingName.
async function readUpload(request: FastifyRequest): Promise<service.CertificateUpload> {
  if (!request.isMultipart()) throw fileRequired();
  const form = await readMultipartForm(request, {
    file: { field: 'file', maxBytes: MAX_CERTIFICATE_FILE_BYTES },
    tooLarge,
    checkFileName: (fileName) => {
      if (!CERTIFICATE_FILE_EXTENSIONS.some((extension) => fileName.toLowerCase().endsWith(extension))) throw fileRequired();
    },
    text: { fields: FORM_FIELDS, maxBytes: FIELD_BYTES },
    fields: FORM_FIELDS.length,
  });
  const fields = certificateUploadFields.safeParse(form.text);
  if (!fields.success) {
    const modelState: Record<string, string[]> = {};
    for (const issue of fields.error.issues) (modelState[issue.path.join('.')] ??= []).push(issue.message);
    const texts = Object.values(modelState).flat();
    throw badRequest(texts.length === 1 ? texts[0]! : messages.invalidRequest, modelState);
  }
  if (!form.file?.fileName || form.file.bytes.length === 0) throw fileRequired();
  return { ...fields.data, file: form.file };
}

// back-office-b §7 "Certificates" and issue 12 §1: the Direct certificates of this HISP.
export function certificatesRoutes(app: App, deps: service.CertificatesDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['certificates'];
  const base = '/api/configuration/certificates';

  app.route({
    method: 'POST',
    url: base,
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: certificate } },
    onRequest: refuseOversizedUpload,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => service.uploadCertificate(deps, adminCaller(request), await readUpload(request)),
  });
  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: certificateQuery, response: { 200: certificatePage } },
    handler: (request) => service.listCertificates(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: `${base}/:name`,
    config,
    schema: { tags, params: certificateNameParams, response: { 200: certificate } },
    handler: (request) => service.getCertificate(deps, request.params.name),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:name/enable`,
    config,
    schema: { tags, params: certificateNameParams, body: certificateEnable, response: { 200: certificate } },
    handler: (request) => service.setCertificateEnabled(deps, adminCaller(request), request.params.name, request.body.enabled),
  });
}
