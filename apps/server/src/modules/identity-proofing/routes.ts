import type { FastifyRequest } from 'fastify';
import { attachmentFileName, attachmentMessages } from '@clinicrelay/contracts/attachments.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import {
  identityDocumentResult,
  identityMessages,
  identityProofingResult,
  identityProofingStatus,
  identityRequest,
  MAX_ID_DOCUMENT_BYTES,
  quizAnswers,
} from '@clinicrelay/contracts/identity-proofing.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { SCANNER_RETRY_AFTER_SECONDS, ScannerUnavailableError } from '../../platform/antivirus/scanner.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { type App, closeUnreadBody } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

// end-user §6: identity proofing runs only for the organization's administrators (isAdmin).
const ADMINISTRATORS: readonly Role[] = ['Administrator'];
const FORM_ALLOWANCE_BYTES = 64 * 1024;

const tooLarge = () => new AppError(413, identityMessages.documentTooLarge);

async function refuseOversized(request: FastifyRequest) {
  if (Number(request.headers['content-length']) > MAX_ID_DOCUMENT_BYTES + FORM_ALLOWANCE_BYTES) throw tooLarge();
}

async function readDocument(request: FastifyRequest): Promise<service.UploadedDocument> {
  if (!request.isMultipart()) throw badRequest(identityMessages.documentRequired, { file: [identityMessages.documentRequired] });
  const form = await readMultipartForm(request, {
    file: { field: 'file', maxBytes: MAX_ID_DOCUMENT_BYTES },
    tooLarge,
    checkFileName: (fileName) => {
      const name = attachmentFileName.safeParse(fileName);
      if (!name.success) throw badRequest(messages.invalidRequest, { file: name.error.issues.map((i) => i.message) });
    },
    fields: 2,
  });
  if (!form.file?.fileName || form.file.bytes.length === 0) throw badRequest(identityMessages.documentRequired, { file: [identityMessages.documentRequired] });
  return form.file;
}

export function identityProofingRoutes(app: App, deps: service.IdentityProofingDeps) {
  const config = { roles: ADMINISTRATORS };
  const tags = ['identity-proofing'];
  const base = '/api/identityproofing';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, response: { 200: identityProofingStatus } },
    handler: (request) => service.status(deps, orgCaller(request)),
  });
  app.route({
    method: 'POST',
    url: `${base}/identity`,
    config,
    schema: { tags, body: identityRequest, response: { 200: identityProofingResult } },
    handler: (request) => service.submitIdentity(deps, orgCaller(request), request.body),
  });
  app.route({
    method: 'POST',
    url: `${base}/answers`,
    config,
    schema: { tags, body: quizAnswers, response: { 200: identityProofingResult } },
    handler: (request) => service.answerQuiz(deps, orgCaller(request), request.body),
  });
  app.route({
    method: 'POST',
    url: `${base}/document`,
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: identityDocumentResult } },
    onRequest: refuseOversized,
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: (request) =>
      service.submitDocument(deps, orgCaller(request), () => readDocument(request)).catch((error: unknown) => {
        if (!(error instanceof ScannerUnavailableError)) throw error;
        request.log.warn({ reason: error.message }, 'identity document refused: the virus scanner is unavailable');
        throw new AppError(503, attachmentMessages.scannerUnavailable, {}, SCANNER_RETRY_AFTER_SECONDS);
      }),
  });
}
