import type { z } from 'zod';
import { documentSourceStatusName } from '@clinicrelay/contracts/document-sources.ts';
import { reportFileNames, type devicesReportQuery, type eventsReportQuery } from '@clinicrelay/contracts/reports.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { brandNameOf } from '../../platform/brand.ts';
import { csvChunks, exportFileName, keysetBatches, type CsvReport } from '../../platform/csv.ts';
import * as q from './queries.ts';

export interface ReportsDeps {
  db: DbOrTx;
  now: () => Date;
  // Rows per keyset page; tests make it small to cross many pages.
  batchSize?: number;
}

const DAY_MS = 24 * 60 * 60_000;
const iso = (value: Date | string | null | undefined) => (value === null || value === undefined ? '' : new Date(value).toISOString());
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
// A report's days are whole UTC days, the end day included.
export const dayRange = (start: string, end: string) => ({ from: new Date(`${start}T00:00:00Z`), to: new Date(new Date(`${end}T00:00:00Z`).getTime() + DAY_MS) });

async function started(deps: ReportsDeps, caller: AdminCaller, report: string, details: Record<string, unknown> = {}) {
  await writeAudit(deps.db, { eventType: 'ReportDownloaded', ...auditedByAdmin(caller), details: { report, ...details } });
  // Reports cover every organization: the installation's brand, not one organization's.
  return brandNameOf(deps.db, null);
}

export async function directAddresses(deps: ReportsDeps, caller: AdminCaller): Promise<CsvReport> {
  const brand = await started(deps, caller, 'directaddresses');
  return {
    fileName: exportFileName(brand, deps.now(), 'DirectAddresses'),
    chunks: csvChunks(
      ['Organization Id', 'Organization', 'Subdomain', 'Direct Address', 'Status', 'Created'],
      keysetBatches((after: string | null, limit) => q.directAddressPage(deps.db, after, limit), (r) => r.id, deps.batchSize),
      (r) => [r.orgId, r.organizationName, r.subdomain, r.address, documentSourceStatusName(r.status), iso(r.createdAt)],
    ),
  };
}

export async function organizations(deps: ReportsDeps, caller: AdminCaller): Promise<CsvReport> {
  const brand = await started(deps, caller, 'organizations');
  return {
    fileName: exportFileName(brand, deps.now(), 'Organizations'),
    chunks: csvChunks(
      ['Id', 'Name', 'Subdomain', 'Brand', 'Type', 'Plan', 'NPI', 'City', 'State', 'Zip', 'Phone', 'Primary Contact', 'Primary Contact Email', 'Activated', 'Login Enabled', 'Pending Cancellation', 'Users', 'Direct Addresses', 'Fax Numbers', 'Created'],
      keysetBatches((after: number | null, limit) => q.organizationPage(deps.db, after, limit), (r) => r.orgId, deps.batchSize),
      (r) => [
        r.orgId, r.name, r.subdomain, r.brand, r.organizationType, r.plan, r.npi, r.city, r.state, r.zip, r.phone, r.contactName, r.contactEmail,
        yesNo(r.isActivated), yesNo(r.isEnabled), yesNo(r.isPendingCancellation), r.users, r.directAddresses, r.faxNumbers, iso(r.createdAt),
      ],
    ),
  };
}

export async function users(deps: ReportsDeps, caller: AdminCaller): Promise<CsvReport> {
  const brand = await started(deps, caller, 'users');
  return {
    fileName: exportFileName(brand, deps.now(), 'Users'),
    chunks: csvChunks(
      ['User Name', 'First Name', 'Last Name', 'Email', 'Phone', 'Role Type', 'System Roles', 'Organizations', 'Disabled', 'Two-Factor Enabled', 'ID Proofed', 'Last Sign-In', 'Created'],
      keysetBatches((after: string | null, limit) => q.userPage(deps.db, after, limit), (r) => r.id, deps.batchSize),
      (r) => [
        r.userName, r.firstName, r.lastName, r.email, r.phoneNumber, r.systemRoles ? 'System' : 'Organization', r.systemRoles, r.organizations,
        yesNo(r.isDisabled), yesNo(r.twoFactorEnabled), yesNo(r.idProofed), iso(r.lastSignIn), iso(r.createdAt),
      ],
    ),
  };
}

export async function contactsUsage(deps: ReportsDeps, caller: AdminCaller): Promise<CsvReport> {
  const brand = await started(deps, caller, 'contacts-usage-statistics');
  return {
    fileName: exportFileName(brand, deps.now(), 'ContactsStatistics'),
    chunks: csvChunks(
      ['Organization Id', 'Organization', 'Contacts', 'Contacts With Direct Address', 'Contacts With Fax', 'Invitations Sent', 'Last Contact Added', 'Last Invitation'],
      keysetBatches((after: number | null, limit) => q.contactsUsagePage(deps.db, after, limit), (r) => r.orgId, deps.batchSize),
      (r) => [r.orgId, r.name, r.contacts, r.withDirectAddress, r.withFax, r.invitations, iso(r.lastContactAdded), iso(r.lastInvitation)],
    ),
  };
}

export async function devices(deps: ReportsDeps, caller: AdminCaller, query: z.output<typeof devicesReportQuery>): Promise<CsvReport> {
  const brand = await started(deps, caller, 'devices', { startDate: query.startDate, endDate: query.endDate });
  const range = dayRange(query.startDate, query.endDate);
  return {
    fileName: exportFileName(brand, deps.now(), 'Devices'),
    chunks: csvChunks(
      ['Signed In', 'User Name', 'Organization', 'IP Address', 'Device', 'Last Seen', 'Expires', 'Signed Out'],
      keysetBatches((after: q.TimeKey | null, limit) => q.devicePage(deps.db, range, after, limit), (r) => ({ createdAt: r.createdAtKey, id: r.id }), deps.batchSize),
      (r) => [iso(r.createdAt), r.userName, r.organizationName, r.ip, r.userAgent, iso(r.lastSeenAt), iso(r.expiresAt), iso(r.revokedAt)],
    ),
  };
}

export async function events(deps: ReportsDeps, caller: AdminCaller, query: z.output<typeof eventsReportQuery>): Promise<CsvReport> {
  const brand = await started(deps, caller, 'events', { start: query.start, end: query.end, pageNumber: query.pageNumber, eventTypes: query.eventTypes });
  const range = dayRange(query.start, query.end);
  const { db, batchSize } = deps;
  async function* pages() {
    const first = await q.eventPageStart(db, range, query.eventTypes, (query.pageNumber - 1) * query.pageSize);
    if (first === 'none') return;
    // The page's first row is included (>=); later batches start after the last row sent.
    let afterKey: q.TimeKey | null = first;
    let inclusive = first !== null;
    let left = query.pageSize;
    while (left > 0) {
      // A short first batch, as keysetBatches does: the answer starts with the first rows read.
      const limit = Math.min(inclusive || afterKey === null ? 100 : (batchSize ?? 2000), left);
      const rows = await q.eventPage(db, range, query.eventTypes, afterKey, limit, inclusive);
      inclusive = false;
      if (rows.length === 0) return;
      yield rows;
      left -= rows.length;
      if (rows.length < limit) return;
      const last = rows[rows.length - 1]!;
      afterKey = { createdAt: last.createdAtKey, id: last.id };
    }
  }
  return {
    fileName: exportFileName(brand, deps.now(), 'Messages'),
    chunks: csvChunks(
      ['Date', 'Event Type', 'Organization Id', 'Organization', 'Message Id', 'Direction', 'Source Type', 'Status', 'User Name'],
      pages(),
      (r) => [iso(r.createdAt), r.eventType, r.orgId, r.organizationName, r.messageId, r.direction, r.sourceType, r.status, r.userName],
    ),
  };
}

export async function unassignedAddresses(deps: ReportsDeps, caller: AdminCaller, organizationIds: readonly string[]): Promise<CsvReport> {
  await started(deps, caller, 'addresses/unassigned', { organizations: organizationIds.length });
  return {
    fileName: reportFileNames.unassignedAddresses,
    chunks: csvChunks(
      ['Organization Id', 'Organization', 'Type', 'Address', 'Status', 'Created'],
      keysetBatches((after: string | null, limit) => q.unassignedAddressPage(deps.db, organizationIds, after, limit), (r) => r.id, deps.batchSize),
      (r) => [r.orgId, r.organizationName, r.type === 'Fax' ? 'Fax' : 'Direct', r.address, documentSourceStatusName(r.status), iso(r.createdAt)],
    ),
  };
}

export async function intakeRules(deps: ReportsDeps, caller: AdminCaller, organizationIds: readonly string[]): Promise<CsvReport> {
  await started(deps, caller, 'intakerules', { organizations: organizationIds.length });
  return {
    fileName: reportFileNames.intakeRules,
    chunks: csvChunks(
      ['Organization Id', 'Organization', 'Rule', 'To Addresses', 'From Address', 'Source Type', 'All Users', 'Users', 'Created'],
      keysetBatches((after: string | null, limit) => q.intakeRulePage(deps.db, organizationIds, after, limit), (r) => r.id, deps.batchSize),
      (r) => [r.orgId, r.organizationName, r.name, (r.toAddresses ?? []).join('; ') || 'Any', r.fromAddress, r.sourceType ?? 'Any', yesNo(r.isGlobal), r.users, iso(r.createdAt)],
    ),
  };
}

const setting = (settings: Record<string, unknown> | null, key: string) => settings?.[key];
const flag = (value: unknown) => (value === true ? 'Yes' : 'No');

export async function downloadProfiles(deps: ReportsDeps, caller: AdminCaller, organizationIds: readonly string[]): Promise<CsvReport> {
  await started(deps, caller, 'downloadprofiles', { organizations: organizationIds.length });
  return {
    fileName: reportFileNames.downloadProfiles,
    chunks: csvChunks(
      ['Organization Id', 'Organization', 'Export Mode', 'Export Option', 'Export Directory Type', 'Visit Directory', 'Non-Patient Export', 'Delivery Summary Download'],
      keysetBatches((after: number | null, limit) => q.downloadProfilePage(deps.db, organizationIds, after, limit), (r) => r.orgId, deps.batchSize),
      (r) => [
        r.orgId,
        r.name,
        (setting(r.settings, 'exportMode') as string | undefined) ?? 'Print',
        setting(r.settings, 'exportOption') as string | undefined,
        setting(r.settings, 'exportDirectoryType') as string | undefined,
        flag(setting(r.settings, 'exportVisitDirectory')),
        flag(setting(r.settings, 'nonPatientExport')),
        flag(setting(r.settings, 'deliverySummaryEnableDownload')),
      ],
    ),
  };
}
