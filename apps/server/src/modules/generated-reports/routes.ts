import { generatedReportPage, generatedReportParams, generatedReportQuery } from '@clinicrelay/contracts/reports.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import * as q from './queries.ts';

// back-office-b §6: generated reports are SysAdmin's (the catalog's sysadmin); SysAdminReporting has the CSV reports.
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-b §7 "Generated reports": GET /api/admin/generated_reports and /{id} (the file).
export function generatedReportsRoutes(app: App, deps: { db: DbOrTx; blobs: BlobStore }) {
  const config = { roles: SYS_ADMIN };
  const tags = ['generated-reports'];
  app.route({
    method: 'GET',
    url: '/api/admin/generated_reports',
    config,
    schema: { tags, querystring: generatedReportQuery, response: { 200: generatedReportPage } },
    handler: async (request) => {
      const page = await q.findPage(deps.db, request.query);
      return { ...page, items: page.items.map((r) => ({ ...r, createDate: r.createDate.toISOString() })) };
    },
  });
  app.route({
    method: 'GET',
    url: '/api/admin/generated_reports/:id',
    config,
    schema: { tags, params: generatedReportParams },
    handler: async (request, reply) => {
      const report = await q.findById(deps.db, request.params.id);
      if (!report) throw notFound();
      const bytes = await deps.blobs.get(report.blobId);
      await writeAudit(deps.db, { eventType: 'ReportDownloaded', ...auditedByAdmin(adminCaller(request)), details: { report: 'generated', id: report.id } });
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${report.fileName}"`)
        .type('text/csv; charset=utf-8')
        .send(Buffer.from(bytes));
    },
  });
}
