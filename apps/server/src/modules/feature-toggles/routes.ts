import { idParams } from '@clinicrelay/contracts/messages.ts';
import { feature, featureInput, featurePage, featureQuery } from '@clinicrelay/contracts/feature-toggles.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import { listenForFeatureChanges } from './cache.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
const BASE = '/api/admin/features';

// back-office-b §2 "Feature toggles" (/admin/featureToggle); the calls are this product's (contracts/feature-toggles.ts).
export function featureTogglesRoutes(app: App, deps: service.FeatureTogglesDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['features'];
  app.route({
    method: 'GET',
    url: BASE,
    config,
    schema: { tags, querystring: featureQuery, response: { 200: featurePage } },
    handler: (request) => service.listFeatures(deps, request.query),
  });
  app.route({
    method: 'GET',
    url: `${BASE}/:id`,
    config,
    schema: { tags, params: idParams, response: { 200: feature } },
    handler: (request) => service.getFeature(deps, request.params.id),
  });
  app.route({
    method: 'POST',
    url: BASE,
    config,
    schema: { tags, body: featureInput, response: { 200: feature } },
    handler: (request) => service.createFeature(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: `${BASE}/:id`,
    config,
    schema: { tags, params: idParams, body: featureInput, response: { 200: feature } },
    handler: (request) => service.updateFeature(deps, adminCaller(request), request.params.id, request.body),
  });

  // The features every process holds in memory follow each change at once (cache.ts).
  const log = app.log.child({ module: 'feature-toggles' });
  let listener: Awaited<ReturnType<typeof listenForFeatureChanges>> | undefined;
  app.addHook('onReady', async () => {
    listener = await listenForFeatureChanges(deps.db, log);
  });
  app.addHook('onClose', async () => {
    await listener?.stop().catch(() => undefined);
  });
}
