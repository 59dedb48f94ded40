import { z } from 'zod';
import { devicesReportQuery, eventsReportQuery, organizationIdsBody, reportOrganizationOption } from '@clinicrelay/contracts/reports.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { sendCsv } from '../../platform/csv.ts';
import type { App } from '../../platform/http.ts';
import { organizationOptions } from './queries.ts';
import * as service from './service.ts';

// back-office-a §6: reports are for SysAdmin and SysAdminReporting (the catalog's sysadmin+reporting).
export const REPORT_ROLES: readonly Role[] = ['SysAdmin', 'SysAdminReporting'];

// back-office-a §7 "Reports (CSV)". No response schema: 200 is the CSV file.
export function reportsRoutes(app: App, deps: service.ReportsDeps) {
  const config = { roles: REPORT_ROLES };
  const tags = ['reports'];
  const base = '/api/admin/reports';
  const simple = {
    directaddresses: service.directAddresses,
    organizations: service.organizations,
    users: service.users,
    'contacts-usage-statistics': service.contactsUsage,
  } as const;
  for (const [path, make] of Object.entries(simple)) {
    app.route({ method: 'GET', url: `${base}/${path}`, config, schema: { tags }, handler: async (request, reply) => sendCsv(reply, await make(deps, adminCaller(request))) });
  }
  app.route({
    method: 'GET',
    url: `${base}/devices`,
    config,
    schema: { tags, querystring: devicesReportQuery },
    handler: async (request, reply) => sendCsv(reply, await service.devices(deps, adminCaller(request), request.query)),
  });
  app.route({
    method: 'GET',
    url: `${base}/events`,
    config,
    schema: { tags, querystring: eventsReportQuery },
    handler: async (request, reply) => sendCsv(reply, await service.events(deps, adminCaller(request), request.query)),
  });
  app.route({
    method: 'GET',
    url: `${base}/organizationoptions`,
    config,
    schema: { tags, response: { 200: z.array(reportOrganizationOption) } },
    handler: () => organizationOptions(deps.db),
  });
  const byOrganizations = {
    'addresses/unassigned': service.unassignedAddresses,
    intakerules: service.intakeRules,
    downloadprofiles: service.downloadProfiles,
  } as const;
  for (const [path, make] of Object.entries(byOrganizations)) {
    app.route({
      method: 'POST',
      url: `${base}/${path}`,
      config,
      schema: { tags, body: organizationIdsBody },
      handler: async (request, reply) => sendCsv(reply, await make(deps, adminCaller(request), request.body)),
    });
  }
}
