import type { Role } from '@clinicrelay/contracts/roles.ts';
import {
  mailMessageObjectIdResult,
  mailMessageObjectIdsInput,
  messageLookupList,
  objectIdResult,
  objectIdsInput,
  utilityLookupQuery,
} from '@clinicrelay/contracts/utilities.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §2 Message utilities, §7 Utilities and diagnostics (/admin/utils). SysAdmin only.
export function utilitiesRoutes(app: App, deps: service.UtilitiesDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['utilities'];

  app.route({
    method: 'GET',
    url: '/api/utilities',
    config,
    schema: { tags, querystring: utilityLookupQuery, response: { 200: messageLookupList } },
    handler: (request) => service.lookup(deps, request.query.id),
  });
  app.route({
    method: 'POST',
    url: '/api/utilities/mailmessages/objectids',
    config,
    schema: { tags, body: mailMessageObjectIdsInput, response: { 200: mailMessageObjectIdResult } },
    handler: (request) => service.decodeMailMessageIds(deps, request.body.objectIds),
  });
  app.route({
    method: 'POST',
    url: '/api/utilities/objectids',
    config,
    schema: { tags, body: objectIdsInput, response: { 200: objectIdResult } },
    handler: (request) => service.decodeObjectIds(request.body),
  });
}
