import { okResponse } from '@clinicrelay/contracts/account.ts';
import { connectorMessages as text, esignatureAccountParams, esignatureAccounts, externalLoginResponse } from '@clinicrelay/contracts/connectors.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { text as textField } from '@clinicrelay/contracts/text.ts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import { CLOSE_WINDOW_SCRIPT, sandboxSignInPage, signInResultPage } from './pages.ts';
import { createSandboxEsignatureConnector, SANDBOX_APPROVE_PATH, SANDBOX_SIGN_IN_PATH } from './sandbox-provider.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const CLOSE_SCRIPT_PATH = '/api/connectors/close-window.js';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const html = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

const signInQuery = z.object({
  redirect_uri: textField().max(2000),
  state: textField().max(4000),
  response_type: textField().max(20).optional(),
  client_id: textField().max(100).optional(),
  scope: textField().max(200).optional(),
});
const approveQuery = z.object({
  redirect_uri: textField().max(2000),
  state: textField().max(4000),
  accountName: textField().trim().max(100).default(''),
  email: textField().trim().max(254).default(''),
  decision: z.enum(['accept', 'cancel']).default('cancel'),
});
const callbackQuery = z.object({
  code: textField().max(4000).optional(),
  state: textField().max(4000).default(''),
  error: textField().max(100).optional(),
});

export interface ConnectorsRouteDeps {
  db: service.ConnectorsDeps['db'];
  now: () => Date;
  appUrl: string;
  signingKey: Uint8Array;
}

// back-office-b §7 "E-signature connector" (/admin/docusign, issue 29 §7): the accounts and the sign-in, SysAdmin
// only; the sign-in window's pages (the sandbox provider's and the callback) are public, as a provider's are, and
// trust nothing but the signed state and code they carry.
export function connectorsRoutes(app: App, routeDeps: ConnectorsRouteDeps) {
  const tags = ['connectors'];
  const config = { roles: SYS_ADMIN };
  const sandbox = createSandboxEsignatureConnector({ appUrl: routeDeps.appUrl, signingKey: routeDeps.signingKey });
  const deps: service.ConnectorsDeps = { ...routeDeps, connector: sandbox };
  const callbackUrl = service.CALLBACK_PATH;

  app.route({
    method: 'GET',
    url: '/api/connectors/externallogin',
    config,
    schema: { tags, response: { 200: externalLoginResponse } },
    handler: (request) => service.externalLogin(deps, adminCaller(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/connectors/organization-accounts',
    config,
    schema: { tags, response: { 200: esignatureAccounts } },
    handler: () => service.listAccounts(deps),
  });
  app.route({
    method: 'DELETE',
    url: '/api/connectors/organization-accounts/:id',
    config,
    schema: { tags, params: esignatureAccountParams, response: { 200: okResponse } },
    handler: (request) => service.deleteAccount(deps, adminCaller(request), request.params.id),
  });

  // The sign-in window. Only our own callback is a valid redirect URI (no open redirect).
  app.route({
    method: 'GET',
    url: SANDBOX_SIGN_IN_PATH,
    config: { roles: 'public' },
    schema: { tags, querystring: signInQuery },
    handler: (request, reply) => {
      if (request.query.redirect_uri !== callbackUrl) return html(reply, signInResultPage({ ok: false, message: text.signInExpired }, CLOSE_SCRIPT_PATH), 400);
      return html(reply, sandboxSignInPage({ action: SANDBOX_APPROVE_PATH, redirectUri: request.query.redirect_uri, state: request.query.state, accountName: 'Sandbox Test Account', email: 'esign-sandbox@example.org' }));
    },
  });
  app.route({
    method: 'GET',
    url: SANDBOX_APPROVE_PATH,
    config: { roles: 'public' },
    schema: { tags, querystring: approveQuery },
    handler: async (request, reply) => {
      const { redirect_uri: redirectUri, state, accountName, email, decision } = request.query;
      if (redirectUri !== callbackUrl) return html(reply, signInResultPage({ ok: false, message: text.signInExpired }, CLOSE_SCRIPT_PATH), 400);
      const back = new URL(redirectUri, routeDeps.appUrl);
      back.searchParams.set('state', state);
      if (decision === 'cancel') {
        back.searchParams.set('error', 'access_denied');
        return reply.redirect(`${back.pathname}${back.search}`, 302);
      }
      const error = !accountName ? text.accountNameRequired : !EMAIL.test(email) ? text.emailInvalid : undefined;
      if (error) return html(reply, sandboxSignInPage({ action: SANDBOX_APPROVE_PATH, redirectUri, state, accountName, email, error }), 400);
      back.searchParams.set('code', await sandbox.issueCode({ accountName, email, redirectUri }));
      return reply.redirect(`${back.pathname}${back.search}`, 302);
    },
  });
  app.route({
    method: 'GET',
    url: service.CALLBACK_PATH,
    config: { roles: 'public' },
    schema: { tags, querystring: callbackQuery },
    handler: async (request, reply) => {
      const { code, state, error } = request.query;
      if (error || !code) return html(reply, signInResultPage({ ok: false, message: text.signInDenied }, CLOSE_SCRIPT_PATH));
      const account = await service.completeSignIn(deps, { code, state, ip: request.ip }).catch((e: unknown) => {
        request.log.warn({ reason: e instanceof Error ? e.message : 'unknown' }, 'e-signature sign-in refused');
        return null;
      });
      if (!account) return html(reply, signInResultPage({ ok: false, message: text.signInExpired }, CLOSE_SCRIPT_PATH), 400);
      return html(reply, signInResultPage({ ok: true, accountName: account.accountName, email: account.email }, CLOSE_SCRIPT_PATH));
    },
  });
  app.route({
    method: 'GET',
    url: CLOSE_SCRIPT_PATH,
    config: { roles: 'public' },
    schema: { tags },
    handler: (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(CLOSE_WINDOW_SCRIPT),
  });
}
