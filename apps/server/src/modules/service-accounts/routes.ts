import { z } from 'zod';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import {
  addressCountBody,
  clientIpAddressesBody,
  organizationIdParams,
  serviceAccount,
  serviceAccountLimit,
  serviceAccountLimitBody,
  serviceAccountParams,
} from '@clinicrelay/contracts/service-accounts.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §7 "Organizations": the serviceaccount tab's calls; the ipaddresses tab's PUT …/ipaddresses is not in
// the catalog (the spec shows the tab's name only).
export function serviceAccountsRoutes(app: App, deps: service.ServiceAccountsDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['service accounts'];
  const org = '/api/organizations/:id';

  app.route({
    method: 'GET',
    url: `${org}/serviceaccount`,
    config,
    schema: { tags, params: organizationIdParams, response: { 200: z.array(serviceAccount) } },
    handler: (request) => service.accountsOf(deps, request.params.id),
  });
  app.route({
    method: 'GET',
    url: `${org}/serviceaccount/limit`,
    config,
    schema: { tags, params: organizationIdParams, response: { 200: serviceAccountLimit } },
    handler: (request) => service.getLimit(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${org}/serviceaccount/limit`,
    config,
    schema: { tags, params: organizationIdParams, body: serviceAccountLimitBody, response: { 200: serviceAccountLimit } },
    handler: (request) => service.setLimit(deps, adminCaller(request), request.params.id, request.body.count),
  });
  app.route({
    method: 'PUT',
    url: `${org}/serviceaccounts/:accountId/ipaddresses/limit`,
    config,
    schema: { tags, params: serviceAccountParams, body: addressCountBody, response: { 200: serviceAccount } },
    handler: (request) => service.setAddressCount(deps, adminCaller(request), request.params.id, request.params.accountId, request.body.count),
  });
  app.route({
    method: 'PUT',
    url: `${org}/serviceaccounts/:accountId/ipaddresses`,
    config,
    schema: { tags, params: serviceAccountParams, body: clientIpAddressesBody, response: { 200: serviceAccount } },
    handler: (request) => service.setAddresses(deps, adminCaller(request), request.params.id, request.params.accountId, request.body.clientIpAddresses),
  });
}
