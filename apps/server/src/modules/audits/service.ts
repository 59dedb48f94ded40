import type { z } from 'zod';
import { AUDITS_CSV_MAX_ROWS, type AdminAuditEntry, type AdminAuditsSearch, type adminAuditList } from '@clinicrelay/contracts/audits.ts';
import type { Database } from '../../db/client.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import { brandNameOf } from '../../platform/brand.ts';
import { csvFile, exportFileName } from '../../platform/csv.ts';
import * as q from './queries.ts';

export interface AuditsDeps {
  db: Database;
  now: () => Date;
}

const DAY = 86_400_000;
const filterOf = (search: AdminAuditsSearch): q.AuditSearch => ({
  from: search.startDate ? new Date(`${search.startDate}T00:00:00Z`) : undefined,
  before: search.endDate ? new Date(new Date(`${search.endDate}T00:00:00Z`).getTime() + DAY) : undefined,
  username: search.username || undefined,
});

const entryOf = (r: Awaited<ReturnType<typeof q.findAll>>[number]): AdminAuditEntry => ({
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

// The same search as a CSV file named by its start and end dates: `<brand>_Audits_<start>_<end>_<timestamp>.csv`.
export async function exportCsv(deps: AuditsDeps, caller: AdminCaller, search: AdminAuditsSearch) {
  const rows = await q.findAll(deps.db, filterOf(search), AUDITS_CSV_MAX_ROWS);
  const body = csvFile(
    ['Timestamp', 'Event Type', 'Created By', 'Organization Id', 'IP Address', 'Event Data'],
    rows.map(entryOf).map((e) => [e.timestamp, e.eventType, e.createdBy, e.organizationId, e.ip, e.eventData]),
  );
  const range = `Audits_${search.startDate ?? 'start'}_${search.endDate ?? 'end'}`;
  const brand = await brandNameOf(deps.db, null);
  // Reading the audit trail is itself audited (the platform's chain).
  await writeAudit(deps.db, { eventType: 'AuditsExported', ...auditedByAdmin(caller), details: { startDate: search.startDate ?? null, endDate: search.endDate ?? null, rows: rows.length } });
  return { fileName: exportFileName(brand, deps.now(), range), body };
}
