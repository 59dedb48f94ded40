import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  attachmentFileName,
  attachmentMessages,
  attachmentMetaInput,
  attachmentContentQuery,
  attachmentParams,
  attachmentsUpdateBody,
  convertQuery,
  extensionsResponse,
  MAX_ATTACHMENT_BYTES,
  previewMessages,
  previewPending,
  supportedExtensions,
  transformsBody,
  uploadQuery,
} from '@clinicrelay/contracts/attachments.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { attachmentSummary, idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import { SCANNER_RETRY_AFTER_SECONDS, ScannerUnavailableError } from '../../platform/antivirus/scanner.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { type App, closeUnreadBody, contentDisposition } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const caller = orgCaller;
const textMessage = z.object({ message: z.string() });
// Besides the file an upload form holds attachmentMeta (small JSON) and the part headers.
const UPLOAD_FIELDS = 4;
const UPLOAD_FIELD_BYTES = 64 * 1024;
const UPLOAD_FORM_ALLOWANCE_BYTES = UPLOAD_FIELDS * UPLOAD_FIELD_BYTES + 64 * 1024;

// A declared body no valid upload can have is refused before any of it is read.
async function refuseOversizedUpload(request: FastifyRequest) {
  const declared = Number(request.headers['content-length']);
  if (declared > MAX_ATTACHMENT_BYTES + UPLOAD_FORM_ALLOWANCE_BYTES) throw new AppError(413, attachmentMessages.tooLarge);
}

// The multipart body of an upload: one `file` and an optional `attachmentMeta` JSON field. Past
// MAX_ATTACHMENT_BYTES the read stops and the reply is 413 (the onSend hook then closes the connection).
async function readUpload(request: FastifyRequest): Promise<service.UploadedFile> {
  if (!request.isMultipart()) throw badRequest(attachmentMessages.noFile);
  const form = await readMultipartForm(request, {
    file: { field: 'file', maxBytes: MAX_ATTACHMENT_BYTES },
    tooLarge: () => new AppError(413, attachmentMessages.tooLarge),
    checkFileName: (fileName) => {
      const name = attachmentFileName.safeParse(fileName);
      if (!name.success) throw badRequest(messages.invalidRequest, { file: name.error.issues.map((i) => i.message) });
    },
    json: { field: 'attachmentMeta', maxBytes: UPLOAD_FIELD_BYTES },
    fields: UPLOAD_FIELDS,
  });
  if (!form.file?.fileName) throw badRequest(attachmentMessages.noFile);
  let meta: service.UploadedFile['meta'] = null;
  if (form.json !== undefined) {
    const parsed = attachmentMetaInput.nullable().safeParse(form.json);
    if (!parsed.success) {
      const modelState: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (modelState[['attachmentMeta', ...issue.path].join('.')] ??= []).push(issue.message);
      throw badRequest(messages.invalidRequest, modelState);
    }
    meta = parsed.data;
  }
  return { ...form.file, meta };
}

// end-user §7 "Attachments". Patient extraction and the optional preview and batch alternatives are not built.
export function attachmentsRoutes(app: App, deps: service.AttachmentsDeps) {
  const config = { roles: ORG_USERS };
  const tags = ['attachments'];

  app.route({
    method: 'GET',
    url: '/api/attachments/extensions',
    config,
    schema: { tags, response: { 200: extensionsResponse } },
    handler: async () => [...supportedExtensions],
  });
  app.route({
    method: 'POST',
    url: '/api/messages/:id/attachments',
    config,
    schema: { tags, params: idParams, querystring: uploadQuery, consumes: ['multipart/form-data'], response: { 200: attachmentSummary } },
    onRequest: refuseOversizedUpload,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: (request) =>
      service.upload(deps, caller(request), request.params.id, () => readUpload(request)).catch((error: unknown) => {
        if (!(error instanceof ScannerUnavailableError)) throw error;
        // Refused, never stored unscanned; why clamd failed is for the operator's log, not the user.
        request.log.warn({ reason: error.message }, 'upload refused: the virus scanner is unavailable');
        throw new AppError(503, attachmentMessages.scannerUnavailable, {}, SCANNER_RETRY_AFTER_SECONDS);
      }),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/attachments',
    config,
    schema: { tags, params: idParams, body: attachmentsUpdateBody, response: { 200: z.array(attachmentSummary) } },
    handler: (request) => service.updateList(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'GET',
    url: '/api/messages/:id/attachments/:attachmentId',
    config,
    // No response schema: 200 is the file's bytes; the 202 body is parsed by its contract below.
    schema: { tags, params: attachmentParams, querystring: attachmentContentQuery },
    handler: async (request, reply) => {
      const found = await service.content(deps, caller(request), request.params.id, request.params.attachmentId, request.ip, request.query.native === 'true');
      reply.header('cache-control', 'no-store');
      // The client retries every 0.5 s while the header is present (end-user §4 "Attachments").
      if (found.kind === 'processing') return reply.status(202).header('retry-after', '1').send(previewPending.parse({ message: previewMessages.processing, previewAvailable: 'Processing' }));
      // A native file (XML may carry XHTML script) is only ever downloaded, never shown in our origin.
      reply.header('content-disposition', contentDisposition(found.fileName, found.kind === 'file' ? 'attachment' : 'inline'));
      const type = found.kind === 'file' ? found.mimeType : found.kind === 'pdf' ? 'application/pdf' : 'text/plain; charset=utf-8';
      return reply.type(type).send(Buffer.from(found.bytes));
    },
  });
  app.route({
    method: 'DELETE',
    url: '/api/messages/:id/attachments/:attachmentId',
    config,
    schema: { tags, params: attachmentParams, response: { 200: textMessage } },
    handler: (request) => service.remove(deps, caller(request), request.params.id, request.params.attachmentId),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/attachments/:attachmentId/restore',
    config,
    schema: { tags, params: attachmentParams, response: { 200: textMessage } },
    handler: (request) => service.restore(deps, caller(request), request.params.id, request.params.attachmentId),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/attachments/:attachmentId/transforms',
    config,
    schema: { tags, params: attachmentParams, body: transformsBody, response: { 200: attachmentSummary } },
    handler: (request) => service.transform(deps, caller(request), request.params.id, request.params.attachmentId, request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/attachments/:attachmentId/convert',
    config,
    schema: { tags, params: attachmentParams, querystring: convertQuery, response: { 200: attachmentSummary } },
    handler: (request) => service.convert(deps, caller(request), request.params.id, request.params.attachmentId, request.query.type),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/attachments/:attachmentId/generatePreview',
    config,
    schema: { tags, params: attachmentParams, response: { 200: attachmentSummary } },
    handler: (request) => service.generatePreview(deps, caller(request), request.params.id, request.params.attachmentId),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/attachments/:attachmentId/read',
    config,
    schema: { tags, params: attachmentParams, response: { 200: attachmentSummary } },
    handler: (request) => service.markRead(deps, caller(request), request.params.id, request.params.attachmentId),
  });
}
