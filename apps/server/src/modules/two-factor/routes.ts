import { messageResponse } from '@clinicrelay/contracts/admin-users.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import {
  enableTfaQuery,
  sendCodeQuery,
  tokenAuthConfirm,
  tokenAuthSetup,
  twoFactorEnabled,
  verifyCodeRequest,
  verifyCodeResponse,
} from '@clinicrelay/contracts/two-factor.ts';
import type { FastifyRequest } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const caller = (request: FastifyRequest): service.Caller => ({ session: auth(request), ip: request.ip });

// Issue 14 §6, end-user §7: every signed-in user manages their own two-factor sign-in (system administrators too,
// who have no organization). These calls answer an administrator who must still enrol (twoFactorEnrolment).
export function twoFactorRoutes(app: App, deps: service.TwoFactorDeps & { loginRateLimitPerMinute: number }) {
  const tags = ['users'];
  const config = { roles: 'authenticated' as const, twoFactorEnrolment: true, termsAcceptance: true, rateLimit: { max: deps.loginRateLimitPerMinute, timeWindow: 60_000 } };

  app.route({
    method: 'GET',
    url: '/api/users/enabletokenauth',
    config,
    schema: { tags, response: { 200: tokenAuthSetup } },
    handler: (request) => service.startTokenAuth(deps, caller(request)),
  });
  app.route({
    method: 'POST',
    url: '/api/users/enabletokenauth',
    config,
    schema: { tags, body: tokenAuthConfirm, response: { 200: twoFactorEnabled } },
    handler: (request) => service.confirmTokenAuth(deps, caller(request), request.body.code),
  });
  app.route({
    method: 'GET',
    url: '/api/users/sendcode',
    config,
    schema: { tags, querystring: sendCodeQuery, response: { 200: messageResponse } },
    handler: (request) => service.sendCode(deps, caller(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/users/enabletfa',
    config,
    schema: { tags, querystring: enableTfaQuery, response: { 200: twoFactorEnabled } },
    handler: (request) => service.enableEmailTwoFactor(deps, caller(request), request.query.code),
  });
  app.route({
    method: 'POST',
    url: '/api/users/:id/verifycode',
    config,
    schema: { tags, params: idParams, body: verifyCodeRequest, response: { 200: verifyCodeResponse } },
    handler: (request) => service.verifyCode(deps, caller(request), request.params.id, request.body),
  });
}
