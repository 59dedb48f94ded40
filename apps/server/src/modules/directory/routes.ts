import {
  directoryContact,
  directoryContactInput,
  directoryContactList,
  directoryContactParams,
  directoryEntityTypes,
  directoryEntry,
  directoryEntryTypes,
  directorySearchRequest,
  directorySearchResponse,
  directorySearchTermParams,
  directoryValidateQuery,
  directoryValidateResponse,
} from '@clinicrelay/contracts/directory.ts';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { pageQuery } from '@clinicrelay/contracts/paging.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { z } from 'zod';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];

// end-user §7 "Directory". /api/addressbook is the organization's own address book (contacts not in NPPES): it answers
// an organization's users, for their organization only (another tenant's entries are 404). It lived at
// /api/kno2directory until issue 29 gave that path the catalog's meaning, the SysAdmin directory service
// (modules/directory-entries).
export function directoryRoutes(app: App, deps: service.DirectoryDeps) {
  const tags = ['directory'];
  const config = { roles: ORG_USERS };

  app.route({
    method: 'POST',
    url: '/api/directory/search',
    config: { ...config, readOnly: true, oauthScope: 'directory.read' },
    schema: { tags, body: directorySearchRequest, response: { 200: directorySearchResponse } },
    handler: (request) => service.search(deps, orgCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: '/api/directory/validate',
    config: { ...config, oauthScope: 'directory.read' },
    schema: { tags, querystring: directoryValidateQuery, response: { 200: directoryValidateResponse } },
    handler: (request) => service.validate(deps, orgCaller(request), request.query.addresses),
  });

  const base = '/api/addressbook';
  app.route({
    method: 'GET',
    url: base,
    config,
    schema: { tags, querystring: pageQuery, response: { 200: directoryContactList } },
    handler: (request) => service.listContacts(deps, orgCaller(request), request.query),
  });
  app.route({
    method: 'POST',
    url: base,
    config,
    schema: { tags, body: directoryContactInput, response: { 200: directoryContact } },
    handler: (request) => service.createContact(deps, orgCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: base,
    config,
    schema: { tags, body: directoryContactInput, response: { 200: directoryContact } },
    handler: (request) => service.updateContact(deps, orgCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: `${base}/entrytypes`,
    config,
    schema: { tags, response: { 200: directoryEntryTypes } },
    handler: async () => directoryEntityTypes.map((t) => ({ ...t })),
  });
  app.route({
    method: 'GET',
    url: `${base}/:tenantId/:id`,
    config,
    schema: { tags, params: directoryContactParams, response: { 200: directoryContact } },
    handler: (request) => service.getContact(deps, orgCaller(request), request.params.tenantId, request.params.id),
  });
  app.route({
    method: 'DELETE',
    url: `${base}/:tenantId/:id`,
    config,
    schema: { tags, params: directoryContactParams, response: { 200: okResponse } },
    handler: (request) => service.deleteContact(deps, orgCaller(request), request.params.tenantId, request.params.id),
  });
  app.route({
    method: 'GET',
    url: `${base}/search/:term`,
    config,
    schema: { tags, params: directorySearchTermParams, response: { 200: z.array(directoryEntry) } },
    handler: (request) => service.searchTerm(deps, orgCaller(request), request.params.term),
  });
}
