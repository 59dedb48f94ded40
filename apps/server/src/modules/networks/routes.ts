import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import {
  network,
  networkAdministrator,
  networkAdminAssign,
  networkAdminParams,
  networkAdminSearch,
  networkCreate,
  networkFeature,
  networkFeatureSettings,
  networkFeaturesUpdate,
  networkIdParams,
  networkOrganization,
  networkOrganizationAssign,
  networkOrganizationParams,
  networkPage,
  networkQuery,
  networkUpdate,
} from '@clinicrelay/contracts/networks.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §7 "Networks". The organizations and admins calls under /api/admin/networks/{id} list the network's
// own with no search, and with a search answer the modal's typeahead (what may still be added), as the catalog
// says of the admins call.
export function networksRoutes(app: App, deps: service.NetworksDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['networks'];

  app.route({
    method: 'GET',
    url: '/api/networks',
    config,
    schema: { tags, querystring: networkQuery, response: { 200: networkPage } },
    handler: (request) => service.listNetworks(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: '/api/networks',
    config,
    schema: { tags, body: networkCreate, response: { 200: network } },
    handler: (request) => service.createNetwork(deps, adminCaller(request), request.body.name),
  });
  for (const url of ['/api/networks/:id', '/api/admin/networks/:id']) {
    app.route({
      method: 'GET',
      url,
      config,
      schema: { tags, params: idParams, response: { 200: network } },
      handler: (request) => service.getNetwork(deps, request.params.id),
    });
  }
  app.route({
    method: 'PUT',
    url: '/api/networks/:id',
    config,
    schema: { tags, params: idParams, body: networkUpdate, response: { 200: network } },
    handler: (request) => service.updateNetwork(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: '/api/networks/:id',
    config,
    schema: { tags, params: idParams, response: { 200: okResponse } },
    handler: (request) => service.deleteNetwork(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'GET',
    url: '/api/networkfeatures',
    config,
    schema: { tags, response: { 200: z.array(networkFeature) } },
    handler: async () => service.networkFeatures(),
  });

  // end-user §6: a network's administrators (users of its organizations) toggle its features; the service answers
  // 404 to anyone else who is not a system administrator.
  const networkAdmins = { roles: ['SysAdmin', 'Administrator', 'User'] as const };
  app.route({
    method: 'GET',
    url: '/api/networks/:id/features',
    config: networkAdmins,
    schema: { tags, params: idParams, response: { 200: networkFeatureSettings } },
    handler: (request) => service.getFeatureSettings(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'PUT',
    url: '/api/networks/:id/features',
    config: networkAdmins,
    schema: { tags, params: idParams, body: networkFeaturesUpdate, response: { 200: networkFeatureSettings } },
    handler: (request) => service.updateFeatureSettings(deps, adminCaller(request), request.params.id, request.body.enabledNetworkFeatureIds),
  });

  const base = '/api/admin/networks/:networkId';
  app.route({
    method: 'GET',
    url: `${base}/organizations`,
    config,
    schema: { tags, params: networkIdParams, querystring: networkAdminSearch, response: { 200: z.array(networkOrganization) } },
    handler: (request) => service.organizationsOf(deps, request.params.networkId, request.query.search),
  });
  app.route({
    method: 'POST',
    url: `${base}/organizations`,
    config,
    schema: { tags, params: networkIdParams, body: networkOrganizationAssign, response: { 200: okResponse } },
    handler: (request) => service.addOrganization(deps, adminCaller(request), request.params.networkId, request.body.organizationId),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/organizations/:organizationId`,
    config,
    schema: { tags, params: networkOrganizationParams, response: { 200: okResponse } },
    handler: (request) => service.removeOrganization(deps, adminCaller(request), request.params.networkId, request.params.organizationId),
  });
  app.route({
    method: 'GET',
    url: `${base}/admins`,
    config,
    schema: { tags, params: networkIdParams, querystring: networkAdminSearch, response: { 200: z.array(networkAdministrator) } },
    handler: (request) => service.administratorsOf(deps, request.params.networkId, request.query.search),
  });
  app.route({
    method: 'POST',
    url: `${base}/admins`,
    config,
    schema: { tags, params: networkIdParams, body: networkAdminAssign, response: { 200: okResponse } },
    handler: (request) => service.addAdministrator(deps, adminCaller(request), request.params.networkId, request.body.userId),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/admins/:userId`,
    config,
    schema: { tags, params: networkAdminParams, response: { 200: okResponse } },
    handler: (request) => service.removeAdministrator(deps, adminCaller(request), request.params.networkId, request.params.userId),
  });
}
