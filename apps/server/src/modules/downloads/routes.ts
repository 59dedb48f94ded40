import type { FastifyRequest } from 'fastify';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  download,
  downloadInput,
  downloadMessages as text,
  downloadPage,
  downloadQuery,
  DOWNLOAD_DESCRIPTION_MAX,
  DOWNLOAD_FILE_NAME_MAX,
  MAX_DOWNLOAD_FILE_BYTES,
  publishedDownloads,
} from '@clinicrelay/contracts/downloads.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { SCANNER_RETRY_AFTER_SECONDS, ScannerUnavailableError } from '../../platform/antivirus/scanner.ts';
import { adminCaller, auth } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { parseBody } from '../../platform/files/logo.ts';
import { type App, closeUnreadBody, contentDisposition } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
// The text parts of the upload form, named as ASP.NET binds the Downloadable file entity (platform.os, …).
const FORM_FIELDS = ['displayName', 'downloadTag', 'name', 'description', 'brandId', 'platform.os', 'platform.version', 'platform.supportedVersions', 'isDownloadable', 'downloadOnFree', 'isVisible', 'version'] as const;
const BOOLEAN_FIELDS = new Set(['isDownloadable', 'downloadOnFree', 'isVisible']);
// The longest text part is the description, up to 4 bytes a character in UTF-8.
const FIELD_BYTES = DOWNLOAD_DESCRIPTION_MAX * 4;
const tooLarge = () => new AppError(413, text.fileTooLarge);

async function refuseOversizedUpload(request: FastifyRequest) {
  if (Number(request.headers['content-length']) > MAX_DOWNLOAD_FILE_BYTES + FORM_FIELDS.length * FIELD_BYTES + 64 * 1024) throw tooLarge();
}

// The form's text parts as the entity: platform.* nested, 'true'/'false' as booleans (anything else is refused by the schema).
function entityOf(parts: Record<string, string>) {
  const entity: Record<string, unknown> = {};
  const platform: Record<string, string> = {};
  for (const [field, value] of Object.entries(parts)) {
    if (field.startsWith('platform.')) platform[field.slice('platform.'.length)] = value;
    else if (BOOLEAN_FIELDS.has(field)) entity[field] = value === 'true' ? true : value === 'false' ? false : value;
    else entity[field] = value;
  }
  if (Object.keys(platform).length) entity.platform = platform;
  return entity;
}

/** The upload form (multipart: the entity's fields and a `file`), or, for an update without a new file, plain JSON. */
async function readForm(request: FastifyRequest): Promise<{ input: service.DownloadFields; file: service.DownloadFile | undefined }> {
  if (!request.isMultipart()) return { input: parseBody(downloadInput, request.body ?? {}), file: undefined };
  const form = await readMultipartForm(request, {
    file: { field: 'file', maxBytes: MAX_DOWNLOAD_FILE_BYTES },
    tooLarge,
    checkFileName: (fileName) => {
      if (fileName.length > DOWNLOAD_FILE_NAME_MAX) throw badRequest(text.fileNameTooLong, { file: [text.fileNameTooLong] });
    },
    text: { fields: FORM_FIELDS, maxBytes: FIELD_BYTES },
    fields: FORM_FIELDS.length,
  });
  const input = parseBody(downloadInput, entityOf(form.text));
  // An empty file input sends a part with no name and no bytes: no file chosen.
  const file = form.file?.fileName && form.file.bytes.length > 0 ? form.file : undefined;
  return { input, file };
}

// Refused, never stored unscanned; why clamd failed is for the operator's log, not the administrator.
const scannerDown = (request: FastifyRequest) => (error: unknown) => {
  if (!(error instanceof ScannerUnavailableError)) throw error;
  request.log.warn({ reason: error.message }, 'download upload refused: the virus scanner is unavailable');
  throw new AppError(503, text.scannerUnavailable, {}, SCANNER_RETRY_AFTER_SECONDS);
};

const reader = (request: FastifyRequest): service.DownloadReader => {
  const session = auth(request);
  return { organizationId: session.organizationId, isSystemAdmin: session.roles.includes('SysAdmin') };
};

// end-user §7 "Fax and other" (downloads) and back-office-b §2 "Downloads" (issue 13 §7).
export function downloadsRoutes(app: App, deps: service.DownloadsDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['downloads'];
  const base = '/api/downloads';

  app.route({
    method: 'GET',
    url: base,
    config: { roles: 'authenticated' },
    schema: { tags, response: { 200: publishedDownloads } },
    handler: (request) => service.listPublished(deps, reader(request)),
  });
  app.route({
    method: 'GET',
    url: `${base}/getpaged`,
    config,
    schema: { tags, querystring: downloadQuery, response: { 200: downloadPage } },
    handler: (request) => service.listDownloads(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: download } },
    handler: (request) => service.getDownload(deps, request.params.id),
  });
  app.route({
    method: 'POST',
    url: `${base}/upload`,
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: download } },
    onRequest: refuseOversizedUpload,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      if (!request.isMultipart()) throw badRequest(text.fileRequired, { file: [text.fileRequired] });
      const { input, file } = await readForm(request);
      return service.uploadDownload(deps, adminCaller(request), input, file).catch(scannerDown(request));
    },
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id/update`,
    config,
    // The body is read by readForm: multipart with an optional new file, or JSON, checked against downloadInput there.
    schema: { tags, params: idParams, consumes: ['multipart/form-data', 'application/json'], response: { 200: download } },
    onRequest: refuseOversizedUpload,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      const { input, file } = await readForm(request);
      return service.updateDownload(deps, adminCaller(request), request.params.id, input, file).catch(scannerDown(request));
    },
  });
  for (const [action, isActive] of [['activate', true], ['deactivate', false]] as const) {
    app.route({
      method: 'PUT',
      url: `${base}/:id/${action}`,
      config,
      schema: { tags, params: idParams, response: { 200: download } },
      handler: (request) => service.setDownloadActive(deps, adminCaller(request), request.params.id, isActive),
    });
  }
  app.route({
    method: 'DELETE',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteDownload(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id/download`,
    config: { roles: 'authenticated' },
    // No response schema: 200 is the file's bytes.
    schema: { tags, params: idParams },
    handler: async (request, reply) => {
      const file = await service.downloadFile(deps, reader(request), request.params.id);
      return reply
        .type(file.contentType)
        .header('content-disposition', contentDisposition(file.fileName, 'attachment'))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(file.bytes));
    },
  });
}
