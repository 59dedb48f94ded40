import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  directoryServiceEntry,
  directoryServiceEntryBody,
  directoryServiceEntryPage,
  directoryServiceEntryParams,
  directoryServiceEntryQuery,
  directoryServiceEntryTypeList,
  directoryServiceSearchParams,
} from '@clinicrelay/contracts/directory-entries.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { z } from 'zod';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// The catalog's directory service (/api/kno2directory, issue 29 §7): the entries behind /admin/directory, SysAdmin only.
// The organizations' own address book is /api/addressbook (modules/directory).
export function directoryEntriesRoutes(app: App, deps: service.DirectoryEntriesDeps) {
  const tags = ['directory-entries'];
  const config = { roles: SYS_ADMIN };
  const base = '/api/kno2directory';

  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: directoryServiceEntryQuery, response: { 200: directoryServiceEntryPage } },
    handler: (request) => service.listEntries(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: base,
    config,
    schema: { tags, body: directoryServiceEntryBody, response: { 200: directoryServiceEntry } },
    handler: (request) => service.createEntry(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: base,
    config,
    schema: { tags, body: directoryServiceEntryBody, response: { 200: directoryServiceEntry } },
    handler: (request) => service.updateEntry(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: `${base}/entrytypes`,
    config,
    schema: { tags, response: { 200: directoryServiceEntryTypeList } },
    handler: async () => service.entryTypes(),
  });
  app.route({
    method: 'GET',
    url: `${base}/search/:term`,
    config,
    schema: { tags, params: directoryServiceSearchParams, response: { 200: z.array(directoryServiceEntry) } },
    handler: (request) => service.searchEntries(deps, request.params.term),
  });
  app.route({
    method: 'GET',
    url: `${base}/:tenantId/:id`,
    config,
    schema: { tags, params: directoryServiceEntryParams, response: { 200: directoryServiceEntry } },
    handler: (request) => service.getEntry(deps, request.params.tenantId, request.params.id),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:tenantId/:id`,
    config,
    schema: { tags, params: directoryServiceEntryParams, response: { 200: okResponse } },
    handler: (request) => service.deleteEntry(deps, adminCaller(request), request.params.tenantId, request.params.id),
  });
}
