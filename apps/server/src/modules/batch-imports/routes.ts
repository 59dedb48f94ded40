import type { FastifyRequest } from 'fastify';
import {
  batchImportAccepted,
  batchImportMessages as text,
  batchImportMetadata,
  batchStatusPage,
  batchStatusQuery,
  IMPORT_FILE_NAME_MAX,
  MAX_IMPORT_FILE_BYTES,
} from '@clinicrelay/contracts/batch-imports.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { parseBody } from '../../platform/files/logo.ts';
import { type App, closeUnreadBody } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const METADATA_BYTES = 4096;
const tooLarge = () => new AppError(413, text.fileTooLarge, { modelState: { file: [text.fileTooLarge] } });
const fileError = (message: string) => badRequest(message, { file: [message] });

async function refuseOversizedUpload(request: FastifyRequest) {
  if (Number(request.headers['content-length']) > MAX_IMPORT_FILE_BYTES + 64 * 1024) throw tooLarge();
}

// The form: the file (its name checked before a byte is read) and the metadata as one JSON part.
async function readForm(request: FastifyRequest) {
  if (!request.isMultipart()) throw fileError(text.fileRequired);
  const form = await readMultipartForm(request, {
    file: { field: 'file', maxBytes: MAX_IMPORT_FILE_BYTES },
    tooLarge,
    checkFileName: (fileName) => {
      if (fileName.length > IMPORT_FILE_NAME_MAX) throw fileError(text.fileNameTooLong);
      if (!service.fileKindOf(fileName)) throw fileError(text.fileType);
    },
    json: { field: 'metadata', maxBytes: METADATA_BYTES },
    fields: 4,
  });
  const metadata = parseBody(batchImportMetadata, form.json ?? {});
  // An empty file input sends a part with no name and no bytes: no file chosen.
  if (!form.file?.fileName || form.file.bytes.length === 0) throw fileError(text.fileRequired);
  return { metadata, file: form.file };
}

// back-office-b §7 "Batch imports" (issue 29 §2): SysAdmin only.
export function batchImportsRoutes(app: App, deps: service.BatchImportUploadDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['batch-imports'];

  app.route({
    method: 'GET',
    url: '/api/admin/import',
    config,
    schema: { tags, querystring: batchStatusQuery, response: { 200: batchStatusPage } },
    handler: (request) => service.listItems(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: '/api/admin/import/organization',
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: batchImportAccepted } },
    onRequest: refuseOversizedUpload,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      const { metadata, file } = await readForm(request);
      return service.importOrganizations(deps, adminCaller(request), metadata, file);
    },
  });
}
