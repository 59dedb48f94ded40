import {
  changeOrganizationRequest,
  currentUser,
  featuresResponse,
  ipAddressResponse,
  profile,
  userPreferences,
  userPreferencesUpdate,
} from '@clinicrelay/contracts/session.ts';
import { auth } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// end-user §7 "Session and users", plus the features and preferences loads the spec does not show.
// cancelledOrganization: what the cancelled and reactivation dialogs need (the shell loads profile,
// features and preferences; the user may switch to another organization); everything else answers 403.
// twoFactorEnrolment: the same calls serve the shell of an administrator who must enrol first (issue 14 §6).
export function sessionRoutes(app: App, deps: service.SessionDeps) {
  const tags = ['session'];
  app.route({
    method: 'GET',
    url: '/api/users/profiledata',
    config: { roles: 'authenticated', cancelledOrganization: true, twoFactorEnrolment: true, termsAcceptance: true },
    schema: { tags, response: { 200: profile } },
    handler: (request) => service.getProfile(deps, auth(request), request.host),
  });
  app.route({
    method: 'GET',
    url: '/api/users/current',
    config: { roles: 'authenticated', cancelledOrganization: true, twoFactorEnrolment: true, termsAcceptance: true },
    schema: { tags, response: { 200: currentUser } },
    handler: (request) => service.getCurrentUser(deps, auth(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/users/ipaddress',
    config: { roles: 'authenticated' },
    schema: { tags, response: { 200: ipAddressResponse } },
    handler: async (request) => ({ ipAddress: request.ip }),
  });
  app.route({
    method: 'POST',
    url: '/api/account/change',
    config: { roles: 'authenticated', cancelledOrganization: true, twoFactorEnrolment: true, termsAcceptance: true },
    schema: { tags, body: changeOrganizationRequest, response: { 200: profile } },
    handler: (request) => service.changeOrganization(deps, auth(request), request.body.orgId, request.ip, request.host),
  });
  app.route({
    method: 'GET',
    url: '/api/features',
    config: { roles: 'authenticated', cancelledOrganization: true, twoFactorEnrolment: true, termsAcceptance: true },
    schema: { tags, response: { 200: featuresResponse } },
    handler: (request) => service.getFeatures(deps, auth(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/users/preferences',
    config: { roles: 'authenticated', cancelledOrganization: true, twoFactorEnrolment: true, termsAcceptance: true },
    schema: { tags, response: { 200: userPreferences } },
    handler: (request) => service.getPreferences(deps, auth(request)),
  });
  app.route({
    method: 'PUT',
    url: '/api/users/preferences',
    config: { roles: 'authenticated' },
    schema: { tags, body: userPreferencesUpdate, response: { 200: userPreferences } },
    handler: (request) => service.updatePreferences(deps, auth(request), request.body),
  });
}
