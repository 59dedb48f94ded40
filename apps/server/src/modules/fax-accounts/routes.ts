import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  efaxAccountResult,
  efaxAccountSave,
  faxAccounts,
  westfaxAccountResult,
  westfaxAccountSave,
  westfaxNumberAdd,
  westfaxNumberParams,
  westfaxParams,
} from '@clinicrelay/contracts/fax-accounts.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// end-user §7 "Fax and other" (PUT/POST /api/efax/account/kno2, the /api/westfax/account calls) for the efax and
// westfax tabs of an organization. An organization has at most one account per provider, so a WestFax {id} is the
// organization's id.
export function faxAccountsRoutes(app: App, deps: service.FaxAccountsDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['fax accounts'];

  // Not in the catalog: what the two tabs show.
  app.route({
    method: 'GET',
    url: '/api/organizations/:id/faxaccounts',
    config,
    schema: { tags, params: westfaxParams, response: { 200: faxAccounts } },
    handler: (request) => service.accountsOf(deps, request.params.id),
  });
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: '/api/efax/account/kno2',
      config,
      schema: { tags, body: efaxAccountSave, response: { 200: efaxAccountResult } },
      handler: (request) => service.saveEfaxAccount(deps, adminCaller(request), request.body),
    });
  }
  app.route({
    method: 'PUT',
    url: '/api/westfax/account',
    config,
    schema: { tags, body: westfaxAccountSave, response: { 200: westfaxAccountResult } },
    handler: (request) => service.saveWestfaxAccount(deps, adminCaller(request), request.body.organizationId),
  });
  app.route({
    method: 'POST',
    url: '/api/westfax/account/:id/sync',
    config,
    schema: { tags, params: westfaxParams, response: { 200: westfaxAccountResult } },
    handler: (request) => service.syncWestfaxAccount(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'DELETE',
    url: '/api/westfax/account/:id',
    config,
    schema: { tags, params: westfaxParams, response: { 200: okResponse } },
    handler: (request) => service.deleteWestfaxAccount(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/westfax/account/:id',
    config,
    schema: { tags, params: westfaxParams, body: westfaxNumberAdd, response: { 200: westfaxAccountResult } },
    handler: (request) => service.addWestfaxNumber(deps, adminCaller(request), request.params.id, request.body.number),
  });
  app.route({
    method: 'DELETE',
    url: '/api/westfax/account/:id/:number',
    config,
    schema: { tags, params: westfaxNumberParams, response: { 200: westfaxAccountResult } },
    handler: (request) => service.removeWestfaxNumber(deps, adminCaller(request), request.params.id, request.params.number),
  });
}
