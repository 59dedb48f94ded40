import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyServerOptions } from 'fastify';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { MAX_ATTACHMENT_BYTES } from '@clinicrelay/contracts/attachments.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerGuard } from './platform/auth/guard.ts';
import { registerHub } from './platform/realtime/hub.ts';
import { createBlobStore } from './platform/blobs/blob-store.ts';
import { sharedWorkerPool } from './platform/workers/worker-pool.ts';
import { clamdScanner } from './platform/antivirus/clamd.ts';
import { noScanner } from './platform/antivirus/scanner.ts';
import { AppError, registerErrorHandling, serializeError } from './platform/errors.ts';
import { recordSecureLog } from './platform/secure-logs.ts';
import { responseSerializerCompiler, type App, type RouteRoles } from './platform/http.ts';
import { registerSecurityHeaders } from './platform/security-headers.ts';
import { sandboxCustomerMessaging } from './platform/customer-messaging.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { registrationRoutes } from './modules/registration/routes.ts';
import { adminUsersRoutes } from './modules/admin-users/routes.ts';
import { attachmentsRoutes } from './modules/attachments/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { auditsRoutes } from './modules/audits/routes.ts';
import { secureLogsRoutes } from './modules/secure-logs/routes.ts';
import { conversationsRoutes } from './modules/conversations/routes.ts';
import { deliveryRoutes } from './modules/delivery/routes.ts';
import { createDirectDeps } from './transports/direct/direct-deps.ts';
import { deliverySummaryRoutes } from './modules/delivery-summary/routes.ts';
import { extractionRoutes } from './modules/extraction/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { identityProofingRoutes } from './modules/identity-proofing/routes.ts';
import { sandboxIdentityProofing } from './modules/identity-proofing/provider.ts';
import { failedMessagesRoutes } from './modules/intake/failed-messages.ts';
import { intakeRoutes } from './modules/intake/routes.ts';
import { intakeRuleRoutes } from './modules/intake/rules-routes.ts';
import { messageBrowserRoutes } from './modules/message-browser/routes.ts';
import { messagesRoutes } from './modules/messages/routes.ts';
import { organizationSettingsRoutes } from './modules/organization-settings/routes.ts';
import { registerPresence } from './modules/presence/service.ts';
import { sessionRoutes } from './modules/session/routes.ts';
import { paymentProviderFor } from './modules/subscriptions/payment-provider.ts';
import { subscriptionsRoutes } from './modules/subscriptions/routes.ts';
import { directoryRoutes } from './modules/directory/routes.ts';
import { networksRoutes } from './modules/networks/routes.ts';
import { carequalityRoutes } from './modules/carequality/routes.ts';
import { documentSourcesRoutes } from './modules/document-sources/routes.ts';
import { faxAccountsRoutes } from './modules/fax-accounts/routes.ts';
import { sandboxFaxAccountProvider } from './modules/fax-accounts/provider.ts';
import { serviceAccountsRoutes } from './modules/service-accounts/routes.ts';
import { partnersRoutes } from './modules/partners/routes.ts';
import { resellersRoutes } from './modules/resellers/routes.ts';
import { brandsRoutes } from './modules/brands/routes.ts';
import { contactsRoutes } from './modules/contacts/routes.ts';
import { webhooksRoutes } from './modules/webhooks/routes.ts';
import { notificationsRoutes } from './modules/notifications/routes.ts';
import { downloadsRoutes } from './modules/downloads/routes.ts';
import { routingRulesRoutes } from './modules/routing-rules/routes.ts';
import { eulasRoutes } from './modules/eulas/routes.ts';
import { directoryEntriesRoutes } from './modules/directory-entries/routes.ts';
import { directoryDownloadsRoutes } from './modules/directory-downloads/routes.ts';
import { connectorsRoutes } from './modules/connectors/routes.ts';
import { organizationsRoutes } from './modules/organizations/routes.ts';
import { reportsRoutes } from './modules/reports/routes.ts';
import { siftMetricsRoutes } from './modules/sift-metrics/routes.ts';
import { generatedReportsRoutes } from './modules/generated-reports/routes.ts';
import { referenceDataRoutes } from './modules/reference-data/routes.ts';
import { certificatesRoutes } from './modules/certificates/routes.ts';
import { trustAnchorsRoutes } from './modules/trust-anchors/routes.ts';
import { messagingDashboardRoutes } from './modules/messaging-dashboard/routes.ts';
import { neverSignedInRoutes } from './modules/users/never-signed-in.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { twoFactorRoutes } from './modules/two-factor/routes.ts';
import { utilitiesRoutes } from './modules/utilities/routes.ts';
import { workflowsRoutes } from './modules/workflows/routes.ts';
import { SEND_WORKFLOW } from './modules/delivery/service.ts';
import { RECEIVE_DIRECT_WORKFLOW } from './transports/direct/inbound.ts';
import { workflowLaneTypes } from './platform/workflows/registry.ts';
import { registerApiCapture } from './modules/api-capture/recorder.ts';
import { registerMetricsRoute, registerRequestMetrics } from './platform/metrics/metrics.ts';
import { workflowLogFields } from './platform/workflows/log-context.ts';
import { apiCaptureRoutes } from './modules/api-capture/routes.ts';
import { batchImportsRoutes } from './modules/batch-imports/routes.ts';
import { licensesRoutes } from './modules/licenses/routes.ts';
import { emergenciesRoutes } from './modules/emergencies/routes.ts';
import { clientApplicationsRoutes, oauthConsentRoutes } from './modules/client-applications/routes.ts';
import { createOAuthServer } from './platform/oauth/server.ts';
import { clientRateLimiter } from './platform/oauth/rate-limit.ts';
import { oauthOpenApi, oauthRouteSecurity } from './platform/oauth/openapi.ts';
import { featureTogglesRoutes } from './modules/feature-toggles/routes.ts';
import { regionsRoutes } from './modules/regions/routes.ts';

export interface AppDeps {
  config: Config;
  db: Database;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
}

export interface RouteEntry {
  method: string;
  url: string;
  roles: RouteRoles;
  // Open to users of a cancelled organization (guard.ts); the authorization test walks the rest.
  cancelledOrganization?: true;
  // Public without a bearer token (guard.ts): the authorization test expects the anonymous form's answer.
  anonymousWithoutToken?: true;
}

declare module 'fastify' {
  interface FastifyInstance {
    // Every /api and /odata route with its declared roles: the authorization test walks this table.
    apiRoutes: RouteEntry[];
  }
}

// Logs carry the request id, method and path only: query strings and bodies may hold PHI or secrets.
export const loggerOptions = (level: string): FastifyServerOptions['logger'] => ({
  level,
  redact: ['req.headers.authorization', 'req.headers.cookie', 'password', 'refreshToken', 'accessToken'],
  // Issue 27 §5: a line written while a workflow runs names it (platform/workflows/log-context.ts).
  mixin: workflowLogFields,
  serializers: {
    req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, path: req.url.split('?')[0], ip: req.ip }),
    // A failed query's error carries its parameters and the row's values: logged as code and constraint only.
    err: serializeError,
  },
});

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    // A load balancer's request id is kept when it looks like one; otherwise a fresh UUID.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorate('apiRoutes', [] as RouteEntry[]);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') && !route.url.startsWith('/odata')) return;
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, roles: ['SysAdmin'], docsCookie: true };
    // Issue 29: the OpenAPI document says which OAuth scope a route takes.
    if (route.config?.oauthScope) route.schema = { ...route.schema, security: oauthRouteSecurity(route.config.oauthScope) };
    const roles = route.config?.roles;
    if (!roles) throw new Error(`Route ${String(route.method)} ${route.url} declares no roles`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        app.apiRoutes.push({
          method,
          url: route.url,
          roles,
          ...(route.config?.cancelledOrganization ? { cancelledOrganization: true as const } : {}),
          ...(route.config?.anonymousWithoutToken ? { anonymousWithoutToken: true as const } : {}),
        });
      }
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });

  registerErrorHandling(app, { recordSecureLog: (entry) => recordSecureLog(db, entry) });
  // The web app also calls the emergency-organization service (issue 29 §6) at its own origin.
  registerSecurityHeaders(app, { publicUrl: config.publicUrl, connectOrigins: [new URL(config.emergencyService.url).origin] });
  // Issue 29 §1: the OAuth 2.0 authorization server (oidc-provider) and its access tokens beside the sessions'.
  const oauth = await createOAuthServer({ db, issuer: config.appUrl, cookieSecret: config.tokenSigningKey, trustProxy: config.trustProxy !== false, settings: config.oauth, now });
  const oauthTokens = { verify: (token: string) => oauth.verify(token), allow: clientRateLimiter(config.oauth.rateLimitPerMinute) };
  registerGuard(app, { db, signingKey: config.tokenSigningKey, now, requireAdminTwoFactor: config.requireAdminTwoFactor, oauth: oauthTokens });
  registerRequestMetrics(app);
  registerMetricsRoute(app, { db, token: config.metrics.token, servedHere: config.metrics.port === undefined });
  // Issue 27 §3: the calls of organizations whose API capture is on, redacted and written after their responses.
  registerApiCapture(app, { db, now, signingKey: config.tokenSigningKey, retentionDays: config.apiCapture.retentionDays });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, messages.tooManyRequests),
  });
  await app.register(multipart, { limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'ClinicRelay API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, ...oauthOpenApi() } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Issue 29 §1: "Authorize" with a client application's credentials (authorization code with PKCE, or client credentials).
    initOAuth: { usePkceWithAuthorizationCodeGrant: true },
    // Swagger UI sets inline styles at run time.
    transformStaticCSP: (header) => header.replace("style-src 'self' https:", "style-src 'self' https: 'unsafe-inline'"),
  });

  app.route({
    method: 'GET',
    url: '/api/openapi.json',
    config: { roles: ['SysAdmin'] },
    schema: { hide: true },
    handler: async () => app.swagger(),
  });

  await oauth.mount(app, { rateLimitPerMinute: config.loginRateLimitPerMinute * 10 });
  clientApplicationsRoutes(app, { db, now });
  oauthConsentRoutes(app, { db, oauth });

  const scanner = config.clamd ? clamdScanner(config.clamd) : noScanner;
  healthRoutes(app, { db, scanner });
  accountRoutes(app, {
    db,
    signingKey: config.tokenSigningKey,
    now,
    loginRateLimitPerMinute: config.loginRateLimitPerMinute,
    mailFrom: config.mailFrom,
    // Links in mails: PUBLIC_URL, else this server's own port (config.appUrl).
    publicUrl: config.appUrl,
    masterKey: config.blobEncryptionKey,
    sessionIdleMinutes: config.sessionIdleMinutes,
    sessionMaxHours: config.sessionMaxHours,
    secureCookies: config.publicUrl?.startsWith('https:') ?? false,
  });
  registrationRoutes(app, { db, now, signingKey: config.tokenSigningKey, mailFrom: config.mailFrom, publicUrl: config.appUrl, loginRateLimitPerMinute: config.loginRateLimitPerMinute });
  sessionRoutes(app, { db, now, publicUrl: config.publicUrl });
  messagesRoutes(app, { db, now });
  intakeRoutes(app, { db, now });
  intakeRuleRoutes(app, { db, now });
  failedMessagesRoutes(app, { db, now });
  neverSignedInRoutes(app, { db, now });
  const blobs = createBlobStore({ db, dataDir: config.dataDir, key: config.blobEncryptionKey });
  deliveryRoutes(app, { db, now, faxProvider: config.faxProvider, direct: createDirectDeps({ config, db, blobs, now }) });
  // The customer-messaging service (Intercom in the spec): only its sandbox exists (platform/customer-messaging.ts).
  const customerMessaging = sandboxCustomerMessaging();
  attachmentsRoutes(app, { db, now, scanner, files: sharedWorkerPool(config.fileWorkers), blobs });
  extractionRoutes(app, { db, now });
  organizationSettingsRoutes(app, { db });
  deliverySummaryRoutes(app, { db, now });
  conversationsRoutes(app, { db, now });
  auditRoutes(app, { db });
  auditsRoutes(app, { db, now });
  secureLogsRoutes(app, { db });
  subscriptionsRoutes(app, { db, now, payments: paymentProviderFor(config.paymentProvider), mailFrom: config.mailFrom });
  directoryRoutes(app, { db, now });
  referenceDataRoutes(app, { db, now });
  certificatesRoutes(app, { db, now, masterKey: config.blobEncryptionKey });
  trustAnchorsRoutes(app, { db, now });
  messagingDashboardRoutes(app, { db, scanner, dataDir: config.dataDir });
  networksRoutes(app, { db });
  documentSourcesRoutes(app, { db });
  faxAccountsRoutes(app, { db, now, provider: sandboxFaxAccountProvider });
  serviceAccountsRoutes(app, { db });
  carequalityRoutes(app, { db, now });
  adminUsersRoutes(app, { db, now, signingKey: config.tokenSigningKey, mailFrom: config.mailFrom, publicUrl: config.appUrl, blobs, customerMessaging });
  twoFactorRoutes(app, { db, now, masterKey: config.blobEncryptionKey, mailFrom: config.mailFrom, loginRateLimitPerMinute: config.loginRateLimitPerMinute });
  usersRoutes(app, { db, now, signingKey: config.tokenSigningKey, mailFrom: config.mailFrom, publicUrl: config.appUrl, blobs, customerMessaging, loginRateLimitPerMinute: config.loginRateLimitPerMinute });
  partnersRoutes(app, { db, now, blobs });
  resellersRoutes(app, { db, now, blobs, publicUrl: config.appUrl });
  brandsRoutes(app, { db });
  contactsRoutes(app, { db });
  webhooksRoutes(app, { db, now, secretKey: config.blobEncryptionKey, allowLoopback: config.webhooks.allowLoopback });
  notificationsRoutes(app, { db, now });
  downloadsRoutes(app, { db, now, blobs, scanner });
  directoryEntriesRoutes(app, { db, now });
  directoryDownloadsRoutes(app, { db, now, blobs });
  // ESIGNATURE_PROVIDER: only the sandbox so far (modules/connectors/sandbox-provider.ts).
  connectorsRoutes(app, { db, now, appUrl: config.appUrl, signingKey: config.tokenSigningKey });
  routingRulesRoutes(app, { db, now });
  // config.identityProofingProvider is 'sandbox': the only provider so far.
  identityProofingRoutes(app, { db, now, blobs, scanner, files: sharedWorkerPool(config.fileWorkers), provider: sandboxIdentityProofing(), mailFrom: config.mailFrom, publicUrl: config.appUrl });
  eulasRoutes(app, { db, now, files: sharedWorkerPool(config.fileWorkers) });
  messageBrowserRoutes(app, { db });
  apiCaptureRoutes(app, { db, now, retentionDays: config.apiCapture.retentionDays });
  organizationsRoutes(app, { db, now, mailFrom: config.mailFrom, publicUrl: config.publicUrl, appUrl: config.appUrl, customerMessaging });
  batchImportsRoutes(app, { db, now, files: sharedWorkerPool(config.fileWorkers) });
  workflowsRoutes(app, {
    db,
    now,
    types: { send: SEND_WORKFLOW, receive: RECEIVE_DIRECT_WORKFLOW, attachments: workflowLaneTypes.files, events: [...workflowLaneTypes.mail, ...workflowLaneTypes.webhooks, ...workflowLaneTypes.background] },
  });
  utilitiesRoutes(app, { db });
  reportsRoutes(app, { db, now });
  siftMetricsRoutes(app, { db });
  generatedReportsRoutes(app, { db, blobs });
  licensesRoutes(app, { db, now });
  emergenciesRoutes(app, { db, now, emergencyServiceUrl: config.emergencyService.url });
  featureTogglesRoutes(app, { db, now });
  regionsRoutes(app, { db, now, files: sharedWorkerPool(config.fileWorkers) });
  registerPresence(await registerHub(app, { db, signingKey: config.tokenSigningKey, now, publicUrl: config.publicUrl }), { db });

  registerWebApp(app, config.webDistDir);
  return app;
}

const isSourceMap = (pathname: string) => /\.map$/i.test(pathname);

// The SPA: files from the web build, and index.html for every other non-API path so deep links work.
function registerWebApp(app: App, distDir: string) {
  const hasWeb = existsSync(path.join(distDir, 'index.html'));
  if (hasWeb) {
    void app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      cacheControl: false,
      // The build writes .br and .gz beside each asset (apps/web/scripts/precompress.ts).
      preCompressed: true,
      // Source maps stay on disk for reading reported stack traces; browsers never get them.
      allowedPath: (pathname) => !isSourceMap(pathname),
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // @fastify/static 9 picks the encoding by Accept-Encoding without saying so to caches.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const urlPath = request.url.split('?')[0]!.toLowerCase();
    if (urlPath === '/api' || urlPath.startsWith('/api/') || !['GET', 'HEAD'].includes(request.method)) {
      return reply.status(404).send({ message: messages.notFound });
    }
    // A build file that is not there (a lazy chunk of an older build) must fail as a script, not load the page.
    if (urlPath.startsWith('/assets/') || isSourceMap(urlPath)) {
      return reply.status(404).type('text/plain').send('Not found.');
    }
    if (!hasWeb) return reply.status(404).type('text/plain').send('The web app is not built: run `npm run build`.');
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
