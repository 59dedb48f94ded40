import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { SESSION_ACTIVITY_HEADER } from '@clinicrelay/contracts/constants.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { loggerOptions } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { registerGuard } from '../../platform/auth/guard.ts';
import { registerErrorHandling } from '../../platform/errors.ts';
import { responseSerializerCompiler, type App } from '../../platform/http.ts';
import { recordSecureLog } from '../../platform/secure-logs.ts';
import { registerSecurityHeaders } from '../../platform/security-headers.ts';
import { carequalityServiceRoutes } from './routes.ts';

// The Carequality-type service of back-office-b's emergency organizations (issue 29 §6): the spec puts its calls on a
// separate configured base URL, so it is a second Fastify application with its own port (EMERGENCY_SERVICE_PORT) that
// `npm start` runs in the same process as the main one. Where its data lives: the same database, tables of its own
// (emergency_organizations); its organization search reads the product's organizations, their alternate OIDs and the
// Carequality directory entries where they are. One database means no second store to back up or migrate, and
// PGlite (the embedded default) can only be opened by one process anyway. It shares the main app's error handling,
// security headers and session-token guard, so the same SysAdmin bearer token works on both.

export interface CarequalityServiceDeps {
  config: Config;
  db: Database;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
}

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE';
const ALLOWED_HEADERS = ['authorization', 'content-type', SESSION_ACTIVITY_HEADER].join(', ');
// How long a browser may keep a preflight's answer.
const PREFLIGHT_MAX_AGE_SECONDS = 600;

// CORS for the web app's origins only (config.emergencyService.corsOrigins): the browser calls from the main app's page.
// Set before the guard runs, so a 401 or 403 is readable by the page too.
function registerCors(app: App, origins: readonly string[]) {
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin) return;
    reply.header('vary', 'Origin');
    if (!allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', 'x-request-id, retry-after');
  });
  app.route({
    method: 'OPTIONS',
    url: '/api/*',
    config: { roles: 'public' },
    schema: { hide: true },
    handler: async (request, reply) => {
      // A preflight from another origin gets no permission headers: the browser refuses the call.
      if (request.headers.origin && allowed.has(request.headers.origin)) {
        reply.header('access-control-allow-methods', ALLOWED_METHODS);
        reply.header('access-control-allow-headers', ALLOWED_HEADERS);
        reply.header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
      }
      return reply.status(204).send();
    },
  });
}

export async function buildCarequalityServiceApp(deps: CarequalityServiceDeps): Promise<App> {
  const { config, db } = deps;
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 64 * 1024,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  // Like the main app: every /api route declares who may call it.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && !route.config?.roles) throw new Error(`Route ${String(route.method)} ${route.url} declares no roles`);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  registerErrorHandling(app, { recordSecureLog: (entry) => recordSecureLog(db, entry) });
  registerSecurityHeaders(app, { publicUrl: undefined });
  registerCors(app, config.emergencyService.corsOrigins);
  registerGuard(app, { db, signingKey: config.tokenSigningKey, now, requireAdminTwoFactor: config.requireAdminTwoFactor });

  app.route({
    method: 'GET',
    url: '/api/health',
    config: { roles: 'public' },
    handler: async () => ({ status: 'ok' as const }),
  });
  carequalityServiceRoutes(app, { db, now });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: messages.notFound }));
  return app;
}

/** Builds the service and listens on EMERGENCY_SERVICE_PORT (the caller checked it is not 'off'). */
export async function startCarequalityService(deps: CarequalityServiceDeps & { port: number; host: string }): Promise<App> {
  const app = await buildCarequalityServiceApp(deps);
  await app.listen({ port: deps.port, host: deps.host });
  return app;
}
