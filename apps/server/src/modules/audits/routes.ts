import { adminAuditList, adminAuditsSearch } from '@clinicrelay/contracts/audits.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { sendCsv } from '../../platform/csv.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// back-office-b Audits: system administrators only (SysAdminReporting sees dashboard, reports and sift metrics).
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

export function auditsRoutes(app: App, deps: service.AuditsDeps) {
  app.route({
    method: 'POST',
    url: '/api/admin/audits',
    config: { roles: SYS_ADMIN, readOnly: true },
    // 200 is the page as JSON, or with Accept: text/csv the whole search as a CSV file.
    schema: { tags: ['audits'], body: adminAuditsSearch },
    handler: async (request, reply) => {
      if ((request.headers.accept ?? '').includes('text/csv')) return sendCsv(reply, await service.exportCsv(deps, adminCaller(request), request.body));
      return adminAuditList.parse(await service.search(deps, request.body));
    },
  });
}
