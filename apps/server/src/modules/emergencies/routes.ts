import { emergency, emergencyInput, emergencyPage, emergencyParams, emergencyQuery, emergencyServiceSettings, emergencyUpdate } from '@clinicrelay/contracts/emergencies.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

export interface EmergenciesRouteDeps extends service.EmergenciesDeps {
  // EMERGENCY_SERVICE_URL: where browsers reach the separate emergency-organization service.
  emergencyServiceUrl: string;
}

// back-office-b §7 "Emergencies" (issue 29 §6). The emergency-organization calls are the separate service's
// (services/carequality-service); the web app learns its address from GET /api/admin/emergencies/service.
export function emergenciesRoutes(app: App, deps: EmergenciesRouteDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['emergencies'];
  const base = '/api/admin/emergencies';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: emergencyQuery, response: { 200: emergencyPage } },
    handler: (request) => service.listEmergencies(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: base,
    config,
    schema: { tags, body: emergencyInput, response: { 200: emergency } },
    handler: (request) => service.createEmergency(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: base,
    config,
    schema: { tags, body: emergencyUpdate, response: { 200: emergency } },
    handler: (request) => service.updateEmergency(deps, adminCaller(request), request.body),
  });
  // Not in the spec: the separate service's base URL, a static segment matched before /:id.
  app.route({
    method: 'GET',
    url: `${base}/service`,
    config,
    schema: { tags, response: { 200: emergencyServiceSettings } },
    handler: async () => ({ baseUrl: deps.emergencyServiceUrl }),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config,
    schema: { tags, params: emergencyParams, response: { 200: emergency } },
    handler: (request) => service.getEmergency(deps, request.params.id),
  });
  for (const action of ['enable', 'disable'] as const) {
    app.route({
      method: 'PUT',
      url: `${base}/:id/${action}`,
      config,
      schema: { tags, params: emergencyParams, response: { 200: emergency } },
      handler: (request) => service.setEmergencyEnabled(deps, adminCaller(request), request.params.id, action === 'enable'),
    });
  }
}
