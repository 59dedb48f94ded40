import type { FastifyReply, FastifyRequest } from 'fastify';
import { loginRequest, okResponse, refreshRequest, tokenResponse, type TokenResponse } from '@clinicrelay/contracts/account.ts';
import { messageResponse, setPasswordRequest } from '@clinicrelay/contracts/admin-users.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from '@clinicrelay/contracts/constants.ts';
import { changePasswordRequest } from '@clinicrelay/contracts/passwords.ts';
import { auth, DOCS_COOKIE, isUserActivity } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import { changePassword } from './change-password.ts';
import { setPasswordFromLink, type PasswordLinkDeps } from './password-links.ts';
import * as service from './service.ts';

const caller = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

// The browsable API docs cannot send a bearer header, so they get the access token in a cookie that
// only /api/docs receives (HttpOnly, SameSite=Strict).
function setDocsCookie(reply: FastifyReply, secure: boolean, token: string | null) {
  const attrs = ['Path=/api/docs', 'HttpOnly', 'SameSite=Strict', `Max-Age=${token ? ACCESS_TOKEN_TTL_SECONDS : 0}`];
  if (secure) attrs.push('Secure');
  reply.header('set-cookie', `${DOCS_COOKIE}=${token ?? ''}; ${attrs.join('; ')}`);
}

export function accountRoutes(
  app: App,
  deps: service.AccountDeps & Pick<PasswordLinkDeps, 'mailFrom' | 'publicUrl'> & { loginRateLimitPerMinute: number; secureCookies: boolean },
) {
  const issued = (reply: FastifyReply, tokens: TokenResponse) => {
    setDocsCookie(reply, deps.secureCookies, tokens.accessToken);
    return tokens;
  };

  app.route({
    method: 'POST',
    url: '/api/account/login',
    config: { roles: 'public', rateLimit: { max: deps.loginRateLimitPerMinute, timeWindow: 60_000 } },
    schema: { tags: ['account'], body: loginRequest, response: { 200: tokenResponse } },
    handler: async (request, reply) => issued(reply, await service.login(deps, request.body, caller(request))),
  });

  app.route({
    method: 'POST',
    url: '/api/account/refresh',
    config: { roles: 'public', rateLimit: { max: deps.loginRateLimitPerMinute * 2, timeWindow: 60_000 } },
    schema: { tags: ['account'], body: refreshRequest, response: { 200: tokenResponse } },
    handler: async (request, reply) => issued(reply, await service.refresh(deps, request.body.refreshToken, caller(request), isUserActivity(request))),
  });

  // The set-password page of the account-creation and reset mails (password-links.ts).
  app.route({
    method: 'POST',
    url: '/api/account/password',
    config: { roles: 'public', rateLimit: { max: deps.loginRateLimitPerMinute, timeWindow: 60_000 } },
    schema: { tags: ['account'], body: setPasswordRequest, response: { 200: messageResponse } },
    handler: (request) => setPasswordFromLink(deps, request.body, request.ip),
  });

  // Issue 14 §5, not in the spec: any signed-in user changes their own password (the web's /settings/password).
  app.route({
    method: 'POST',
    url: '/api/account/changepassword',
    config: { roles: 'authenticated', cancelledOrganization: true, rateLimit: { max: deps.loginRateLimitPerMinute, timeWindow: 60_000 } },
    schema: { tags: ['account'], body: changePasswordRequest, response: { 200: messageResponse } },
    handler: (request) => changePassword(deps, auth(request), request.body, caller(request)),
  });

  app.route({
    method: 'POST',
    url: '/api/account/logout',
    config: { roles: 'authenticated', cancelledOrganization: true, twoFactorEnrolment: true, termsAcceptance: true },
    schema: { tags: ['account'], response: { 200: okResponse } },
    handler: async (request, reply) => {
      await service.logout(deps, auth(request), caller(request));
      setDocsCookie(reply, deps.secureCookies, null);
      return { ok: true as const };
    },
  });
}
