import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import {
  ANCHOR_FILE_EXTENSIONS,
  BUNDLE_FILE_EXTENSIONS,
  MAX_ANCHOR_FILE_BYTES,
  MAX_BUNDLE_BYTES,
  TRUST_URL_MAX,
  trustAnchorListItem,
  trustAnchorMessages as text,
  trustAnchorPage,
  trustAnchorQuery,
  trustAnchorUpdate,
  trustAnchorUploadFields,
  trustBundle,
  trustBundlePage,
  trustBundleQuery,
  trustBundleUpdate,
  trustBundleUploadFields,
  trustIdParams,
} from '@clinicrelay/contracts/trust-anchors.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { type App, closeUnreadBody } from '../../platform/http.ts';
import { readMultipartForm } from '../../platform/multipart.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const ANCHOR_FIELDS = ['name', 'domain', 'incoming', 'outgoing'] as const;
const BUNDLE_FIELDS = ['name', 'url', 'domain', 'incoming', 'outgoing', 'refreshIntervalMinutes'] as const;
// The longest text field is the URL (up to 4 bytes a character in UTF-8).
const FIELD_BYTES = TRUST_URL_MAX * 4;
const FORM_OVERHEAD_BYTES = 16 * 1024;

interface UploadKind<Fields extends z.ZodType> {
  fields: Fields;
  names: readonly string[];
  maxFileBytes: number;
  extensions: readonly string[];
  tooLarge: string;
  fileRequired: string;
}

const anchorUpload = {
  fields: trustAnchorUploadFields,
  names: ANCHOR_FIELDS,
  maxFileBytes: MAX_ANCHOR_FILE_BYTES,
  extensions: ANCHOR_FILE_EXTENSIONS,
  tooLarge: text.anchorFileTooLarge,
  fileRequired: text.anchorFileRequired,
};
const bundleUpload = {
  fields: trustBundleUploadFields,
  names: BUNDLE_FIELDS,
  maxFileBytes: MAX_BUNDLE_BYTES,
  extensions: BUNDLE_FILE_EXTENSIONS,
  tooLarge: text.bundleFileTooLarge,
  fileRequired: text.bundleSourceRequired,
};

const refuseOversized = (kind: UploadKind<z.ZodType>) => async (request: FastifyRequest) => {
  if (Number(request.headers['content-length']) > kind.maxFileBytes + kind.names.length * FIELD_BYTES + FORM_OVERHEAD_BYTES) throw new AppError(413, kind.tooLarge);
};

// A multipart form of text fields (checked by the contract's schema, each reason under its field) and one file.
async function readUpload<Fields extends z.ZodType>(request: FastifyRequest, kind: UploadKind<Fields>) {
  const fileRequired = () => badRequest(kind.fileRequired, { file: [kind.fileRequired] });
  if (!request.isMultipart()) throw fileRequired();
  const form = await readMultipartForm(request, {
    file: { field: 'file', maxBytes: kind.maxFileBytes },
    tooLarge: () => new AppError(413, kind.tooLarge),
    checkFileName: (fileName) => {
      if (!kind.extensions.some((extension) => fileName.toLowerCase().endsWith(extension))) throw fileRequired();
    },
    text: { fields: kind.names, maxBytes: FIELD_BYTES },
    fields: kind.names.length,
  });
  const fields = kind.fields.safeParse(form.text);
  if (!fields.success) {
    const modelState: Record<string, string[]> = {};
    for (const issue of fields.error.issues) (modelState[issue.path.join('.')] ??= []).push(issue.message);
    const texts = Object.values(modelState).flat();
    throw badRequest(texts.length === 1 ? texts[0]! : messages.invalidRequest, modelState);
  }
  const file = form.file?.fileName && form.file.bytes.length > 0 ? form.file : undefined;
  return { fields: fields.data, file, fileRequired };
}

// Issue 12 §1: the trust anchors and bundles of this HISP, beside the certificates calls (not in the spec).
export function trustAnchorsRoutes(app: App, deps: service.TrustAnchorsDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['trust anchors'];
  const anchors = '/api/configuration/anchors';
  const bundles = '/api/configuration/bundles';

  app.route({
    method: 'GET',
    url: anchors,
    config,
    schema: { tags, querystring: trustAnchorQuery, response: { 200: trustAnchorPage } },
    handler: (request) => service.listAnchors(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: anchors,
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: trustAnchorListItem } },
    onRequest: refuseOversized(anchorUpload),
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      const { fields, file, fileRequired } = await readUpload(request, anchorUpload);
      if (!file) throw fileRequired();
      return service.addAnchor(deps, adminCaller(request), { ...fields, file });
    },
  });
  app.route({
    method: 'PUT',
    url: `${anchors}/:id`,
    config,
    schema: { tags, params: trustIdParams, body: trustAnchorUpdate, response: { 200: trustAnchorListItem } },
    handler: (request) => service.updateAnchor(deps, adminCaller(request), request.params.id, request.body),
  });
  // The anchor as a PEM file: what another HISP (or `npm run demo:peer`) imports to trust this one's certificates.
  app.route({
    method: 'GET',
    url: `${anchors}/:id/certificate`,
    config,
    schema: { tags, params: trustIdParams },
    handler: async (request, reply) => {
      const anchor = await service.anchorCertificatePem(deps, request.params.id);
      reply.header('content-disposition', `attachment; filename="${anchor.fileName}"`);
      return reply.type('application/x-pem-file').send(anchor.pem);
    },
  });
  app.route({
    method: 'DELETE',
    url: `${anchors}/:id`,
    config,
    schema: { tags, params: trustIdParams, response: { 200: okResponse } },
    handler: (request) => service.deleteAnchor(deps, adminCaller(request), request.params.id),
  });

  app.route({
    method: 'GET',
    url: bundles,
    config,
    schema: { tags, querystring: trustBundleQuery, response: { 200: trustBundlePage } },
    handler: (request) => service.listBundles(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: bundles,
    config,
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: trustBundle } },
    onRequest: refuseOversized(bundleUpload),
    onSend: async (request, reply) => closeUnreadBody(request, reply),
    handler: async (request) => {
      const { fields, file } = await readUpload(request, bundleUpload);
      return service.addBundle(deps, adminCaller(request), { ...fields, file });
    },
  });
  app.route({
    method: 'PUT',
    url: `${bundles}/:id`,
    config,
    schema: { tags, params: trustIdParams, body: trustBundleUpdate, response: { 200: trustBundle } },
    handler: (request) => service.updateBundle(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'POST',
    url: `${bundles}/:id/refresh`,
    config,
    schema: { tags, params: trustIdParams, response: { 200: trustBundle } },
    handler: (request) => service.refreshBundleNow(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'DELETE',
    url: `${bundles}/:id`,
    config,
    schema: { tags, params: trustIdParams, response: { 200: okResponse } },
    handler: (request) => service.deleteBundle(deps, adminCaller(request), request.params.id),
  });
}
