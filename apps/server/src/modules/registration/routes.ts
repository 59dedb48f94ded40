import {
  registrationInvitation,
  registrationInvitationQuery,
  registrationRequest,
  registrationReseller,
  registrationResellerParams,
  registrationResponse,
  resendVerificationRequest,
  verificationResponse,
  verifyEmailRequest,
} from '@clinicrelay/contracts/registration.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// Issue 14 §1: self sign-up. Every call is public and rate-limited per address like /api/account/login.
export function registrationRoutes(app: App, deps: service.RegistrationDeps & { loginRateLimitPerMinute: number }) {
  const tags = ['account'];
  const limited = { roles: 'public' as const, rateLimit: { max: deps.loginRateLimitPerMinute, timeWindow: 60_000 } };
  // The page's reads (branding, prefill) come more often than submits.
  const reads = { ...limited, readOnly: true, rateLimit: { max: deps.loginRateLimitPerMinute * 6, timeWindow: 60_000 } };

  app.route({
    method: 'POST',
    url: '/api/account/register',
    config: limited,
    schema: { tags, body: registrationRequest, response: { 200: registrationResponse } },
    handler: (request) => service.register(deps, request.body, { ip: request.ip }),
  });
  // No public username check (issue 26: it told anyone whether an account exists): POST /api/users/find is for
  // Administrators, and registering an existing address mails that address (service.ts accountExists).
  app.route({
    method: 'GET',
    url: '/api/account/register/reseller/:urlCode',
    config: reads,
    schema: { tags, params: registrationResellerParams, response: { 200: registrationReseller } },
    handler: (request) => service.resellerBranding(deps, request.params.urlCode),
  });
  app.route({
    method: 'GET',
    url: '/api/account/register/invitation',
    config: reads,
    schema: { tags, querystring: registrationInvitationQuery, response: { 200: registrationInvitation } },
    handler: (request) => service.invitationPrefill(deps, request.query.code),
  });
  app.route({
    method: 'POST',
    url: '/api/account/verify',
    config: limited,
    schema: { tags, body: verifyEmailRequest, response: { 200: verificationResponse } },
    handler: (request) => service.verifyEmail(deps, request.body.token, { ip: request.ip }),
  });
  app.route({
    method: 'POST',
    url: '/api/account/verify/resend',
    config: limited,
    schema: { tags, body: resendVerificationRequest, response: { 200: verificationResponse } },
    handler: (request) => service.resendVerification(deps, request.body.email, { ip: request.ip }),
  });
}
