import type { z } from 'zod';
import { type AdminAuditEntry, type AdminAuditsSearch, type adminAuditList } from '@clinicrelay/contracts/audits.ts';
import type { Database } from '../../db/client.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import { brandNameOf } from '../../platform/brand.ts';
import { csvChunks, exportFileName, keysetBatches, type CsvReport } from '../../platform/csv.ts';
import * as q from './queries.ts';

export interface AuditsDeps {
  db: Database;
  now: () => Date;
  // Rows per page of the CSV export; tests make it small to cross pages.
  batchSize?: number;
}

const DAY = 86_400_000;
const filterOf = (search: AdminAuditsSearch): q.AuditSearch => ({
  from: search.startDate ? new Date(`${search.startDate}T00:00:00Z`) : undefined,
  before: search.endDate ? new Date(new Date(`${search.endDate}T00:00:00Z`).getTime() + DAY) : undefined,
  username: search.username || undefined,
});

const entryOf = (r: Omit<Awaited<ReturnType<typeof q.findBatch>>[number], 'createdAtKey'>): AdminAuditEntry => ({
  id: r.id,
  eventType: r.eventType,
  eventData: r.details && Object.keys(r.details).length > 0 ? JSON.stringify(r.details) : null,
  createdBy: r.createdBy,
  organizationId: r.organizationId,
  ip: r.ip,
  timestamp: r.createdAt.toISOString(),
  createdOn: r.createdAt.toISOString(),
});

// POST /api/admin/audits: every organization's audit entries, newest first, 25 a page.
export async function search(deps: AuditsDeps, search: AdminAuditsSearch): Promise<z.infer<typeof adminAuditList>> {
  const page = await q.findPage(deps.db, filterOf(search), { offset: (search.pageStart - 1) * search.pageSize, limit: search.pageSize });
  return { totalCount: page.totalCount, items: page.items.map(entryOf) };
}

// The same search as a CSV file named by its start and end dates: `<brand>_Audits_<start>_<end>_<timestamp>.csv`,
// streamed page by page like the reports, so a year of audit rows holds one page in memory.
export async function exportCsv(deps: AuditsDeps, caller: AdminCaller, search: AdminAuditsSearch): Promise<CsvReport> {
  const filter = filterOf(search);
  const range = `Audits_${search.startDate ?? 'start'}_${search.endDate ?? 'end'}`;
  const brand = await brandNameOf(deps.db, null);
  // Reading the audit trail is itself audited (the platform's chain).
  await writeAudit(deps.db, { eventType: 'AuditsExported', ...auditedByAdmin(caller), details: { startDate: search.startDate ?? null, endDate: search.endDate ?? null, username: search.username ?? null } });
  return {
    fileName: exportFileName(brand, deps.now(), range),
    chunks: csvChunks(
      ['Timestamp', 'Event Type', 'Created By', 'Organization Id', 'IP Address', 'Event Data'],
      keysetBatches((after: q.AuditKey | null, limit) => q.findBatch(deps.db, filter, after, limit), (r) => ({ createdAtKey: r.createdAtKey, id: r.id }), deps.batchSize),
      (r) => {
        const e = entryOf(r);
        return [e.timestamp, e.eventType, e.createdBy, e.organizationId, e.ip, e.eventData];
      },
    ),
  };
}
