import { apiCaptureConfig, apiCapturePage, apiCaptureQuery } from '@clinicrelay/contracts/api-capture.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// back-office-b §6: the capture log is for SysAdmin only (SysAdminReporting sees the dashboard, reports and sift
// metrics). The configuration is the organization Administrator's (api-catalog: Integrations, admin).
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const ADMINS: readonly Role[] = ['Administrator'];

export function apiCaptureRoutes(app: App, deps: service.ApiCaptureDeps) {
  app.route({
    method: 'GET',
    url: '/api/diagnostics/apicapture',
    config: { roles: SYS_ADMIN },
    schema: { tags: ['api-capture'], querystring: apiCaptureQuery, response: { 200: apiCapturePage } },
    handler: (request) => service.capturePage(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: '/api/apicaptureconfig',
    config: { roles: ADMINS },
    schema: { tags: ['integrations'], response: { 200: apiCaptureConfig } },
    handler: (request) => service.captureConfig(deps, orgCaller(request)),
  });
}
