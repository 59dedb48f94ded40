import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  alternateOid,
  alternateOidSave,
  directoryEntry,
  directoryEntryList,
  directoryEntrySave,
  directorySyncBody,
  directorySyncResult,
  oidParams,
  organizationParams,
} from '@clinicrelay/contracts/carequality.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §7 "Organizations": the carequality tab's alternate OIDs and directory entries.
export function carequalityRoutes(app: App, deps: service.CarequalityDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['carequality'];
  const base = '/api/admin/organizations/:id';

  app.route({
    method: 'GET',
    url: `${base}/oids`,
    config,
    schema: { tags, params: organizationParams, response: { 200: z.array(alternateOid) } },
    handler: (request) => service.oidsOf(deps, request.params.id),
  });
  for (const [method, mode] of [['POST', 'create'], ['PUT', 'update']] as const) {
    app.route({
      method,
      url: `${base}/oids`,
      config,
      schema: { tags, params: organizationParams, body: alternateOidSave, response: { 200: alternateOid } },
      handler: (request) => service.saveOid(deps, adminCaller(request), request.params.id, request.body, mode),
    });
  }
  app.route({
    method: 'DELETE',
    url: `${base}/oids/:oidId`,
    config,
    schema: { tags, params: oidParams, response: { 200: okResponse } },
    handler: (request) => service.deleteOid(deps, adminCaller(request), request.params.id, request.params.oidId),
  });
  app.route({
    method: 'GET',
    url: `${base}/directoryentries`,
    config,
    schema: { tags, params: organizationParams, response: { 200: directoryEntryList } },
    handler: (request) => service.entriesOf(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: `${base}/directoryentries`,
    config,
    schema: { tags, params: organizationParams, body: directoryEntrySave, response: { 200: directoryEntry } },
    handler: (request) => service.saveEntry(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'POST',
    url: `${base}/directoryentries/sync`,
    config,
    schema: { tags, params: organizationParams, body: directorySyncBody, response: { 200: directorySyncResult } },
    handler: (request) => service.syncEntries(deps, adminCaller(request), request.params.id, request.body.oids),
  });
}
