import { okResponse } from '@clinicrelay/contracts/account.ts';
import { clientApplication, clientApplicationInput, clientApplicationPage, clientApplicationQuery } from '@clinicrelay/contracts/client-applications.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import { consentDecision, consentDetails, consentParams, consentRedirect, oauthMessages, oauthScopeDescriptions } from '@clinicrelay/contracts/oauth.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { eq } from 'drizzle-orm';
import { organizations } from '../../db/schema/organizations.ts';
import { writeAudit } from '../../platform/audit.ts';
import { adminCaller, auth } from '../../platform/auth/guard.ts';
import { AppError } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import type { OAuthServer } from '../../platform/oauth/server.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-b "Client applications" (issue 29 §1): the catalog's six calls, SysAdmin only.
export function clientApplicationsRoutes(app: App, deps: service.ClientApplicationsDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['clientapplications'];
  const base = '/api/admin/clientapplications';
  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: clientApplicationQuery, response: { 200: clientApplicationPage } },
    handler: (request) => service.listClientApplications(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: base,
    config,
    schema: { tags, body: clientApplicationInput, response: { 200: clientApplication } },
    handler: (request) => service.createClientApplication(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: clientApplication } },
    handler: (request) => service.getClientApplication(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, body: clientApplicationInput, response: { 200: clientApplication } },
    handler: (request) => service.updateClientApplication(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteClientApplication(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: `${base}/:id/credentials`,
    config,
    schema: { tags, params: idParams, response: { 200: clientApplication } },
    handler: (request) => service.regenerateCredentials(deps, adminCaller(request), request.params.id),
  });
}

// The consent screen's calls (apps/web/src/features/oauth): any signed-in user answers an authorization request
// for themselves, within their current organization. Not in the spec (issue 29 §1).
export function oauthConsentRoutes(app: App, deps: { db: service.ClientApplicationsDeps['db']; oauth: OAuthServer }) {
  const config = { roles: 'authenticated' as const };
  const tags = ['oauth'];
  const expired = () => new AppError(404, oauthMessages.consentExpired, { exceptionMessage: oauthMessages.consentExpired });
  app.route({
    method: 'GET',
    url: '/api/oauth/consent/:uid',
    config,
    schema: { tags, params: consentParams, response: { 200: consentDetails } },
    handler: async (request) => {
      const session = auth(request);
      // An application's own token cannot answer an authorization request (guard: no oauthScope here).
      const consent = await deps.oauth.consentRequest(request.params.uid);
      if (!consent) throw expired();
      const [org] = session.organizationId ? await deps.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, session.organizationId)) : [];
      return {
        clientName: consent.clientName,
        logoUrl: consent.logoUrl,
        applicationUrl: consent.applicationUrl,
        scopes: consent.scopes.map((scope) => ({ scope, description: oauthScopeDescriptions[scope as keyof typeof oauthScopeDescriptions] })),
        userName: session.userName,
        organizationName: org?.name ?? null,
      };
    },
  });
  app.route({
    method: 'POST',
    url: '/api/oauth/consent/:uid',
    config,
    schema: { tags, params: consentParams, body: consentDecision, response: { 200: consentRedirect } },
    handler: async (request) => {
      const session = auth(request);
      const consent = await deps.oauth.consentRequest(request.params.uid);
      const redirectTo = await deps.oauth.decide(
        request.params.uid,
        request.body.allow ? { allow: true, userId: session.userId, organizationId: session.organizationId } : { allow: false },
      );
      if (!redirectTo || !consent) throw expired();
      // A security event: who let which application act for them, or refused it.
      await writeAudit(deps.db, {
        eventType: request.body.allow ? 'OAuthConsentGranted' : 'OAuthConsentDenied',
        userId: session.userId,
        userName: session.userName,
        organizationId: session.organizationId,
        ip: request.ip,
        details: { clientId: consent.clientId, application: consent.clientName, scopes: consent.scopes },
      });
      return { redirectTo };
    },
  });
}
