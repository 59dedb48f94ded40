import { organizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { currentOrganizationId } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];

// Not a call the spec names: the settings Release and Intake read (fax option defaults, delivery summary,
// brand, interoperability).
export function organizationSettingsRoutes(app: App, deps: service.OrganizationSettingsDeps) {
  app.route({
    method: 'GET',
    url: '/api/organizationsettings',
    config: { roles: ORG_USERS },
    schema: { tags: ['organizations'], response: { 200: organizationSettings } },
    handler: (request) => service.getSettings(deps, currentOrganizationId(request)),
  });
}
