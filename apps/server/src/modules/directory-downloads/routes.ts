import {
  directoryDownload,
  directoryDownloadLogMessage,
  directoryDownloadMessages as text,
  directoryDownloadPage,
  directoryDownloadQuery,
  directoryDownloadRequest,
} from '@clinicrelay/contracts/directory-downloads.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { badRequest } from '../../platform/errors.ts';
import { type App, contentDisposition } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-b §7 "Directory downloads" (issue 29 §7), SysAdmin only.
export function directoryDownloadsRoutes(app: App, deps: service.DirectoryDownloadsDeps) {
  const tags = ['directory-downloads'];
  const config = { roles: SYS_ADMIN };
  const base = '/api/directory/downloads';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: directoryDownloadQuery, response: { 200: directoryDownloadPage } },
    handler: (request) => service.listDownloads(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id/logmessage`,
    config,
    schema: { tags, params: idParams, response: { 200: directoryDownloadLogMessage } },
    handler: (request) => service.logMessage(deps, request.params.id),
  });
  app.route({
    method: 'POST',
    url: `${base}/request`,
    config,
    // §8: a refused request answers 'The download request was not able to be sent.', the field's own text in modelState.
    schema: { tags, response: { 200: directoryDownload } },
    handler: (request) => {
      const parsed = directoryDownloadRequest.safeParse(request.body ?? {});
      if (!parsed.success) {
        const modelState: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) (modelState[String(issue.path[0] ?? 'request')] ??= []).push(issue.message);
        throw badRequest(text.notSent, modelState);
      }
      return service.requestDownload(deps, adminCaller(request), parsed.data);
    },
  });
  app.route({
    method: 'GET',
    url: `${base}/:id/file`,
    config,
    // No response schema: 200 is the CSV file.
    schema: { tags, params: idParams },
    handler: async (request, reply) => {
      const file = await service.openFile(deps, adminCaller(request), request.params.id);
      if (file.sizeInBytes !== null) reply.header('content-length', file.sizeInBytes);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(file.fileName, 'attachment'))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  });
}
