import { attachmentParams } from '@clinicrelay/contracts/attachments.ts';
import { extractionStatus } from '@clinicrelay/contracts/intake.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const caller = orgCaller;

// end-user §7 "Attachments": patient extraction (feature PatientExtractionAPI); the client polls GET
// every EXTRACTION_POLL_MS up to EXTRACTION_MAX_POLLS times while the status is Processing.
export function extractionRoutes(app: App, deps: service.ExtractionDeps) {
  const config = { roles: ORG_USERS };
  const tags = ['attachments'];

  app.route({
    method: 'PUT',
    url: '/api/messages/:id/attachments/:attachmentId/patient/extract',
    config,
    schema: { tags, params: attachmentParams, response: { 200: extractionStatus } },
    handler: (request) => service.start(deps, caller(request), request.params.id, request.params.attachmentId, request.ip),
  });
  app.route({
    method: 'GET',
    url: '/api/messages/:id/attachments/:attachmentId/patient',
    config,
    schema: { tags, params: attachmentParams, response: { 200: extractionStatus } },
    handler: (request) => service.latest(deps, caller(request), request.params.id, request.params.attachmentId, request.ip),
  });
}
