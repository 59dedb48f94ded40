import type { z } from 'zod';
import type { auditList, auditQuery, auditSubjectTypes, auditType, messageEvents, messageEventsQuery } from '@clinicrelay/contracts/audit.ts';
import type { auditEntriesQuery, auditEntryDetail } from '@clinicrelay/contracts/audits.ts';
import type { Database } from '../../db/client.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { auditListViewed } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors.ts';
import * as messagesQ from '../messages/queries.ts';
import * as q from './queries.ts';

export interface AuditDeps {
  db: Database;
}

export type Caller = OrgCaller;

// The audit rows a message's Activity shows, with the names the activity filter offers. Only types
// written to audit_events with the message as correlation id: a filter option never matches nothing.
export const messageEventTypes: z.infer<typeof auditType>[] = [
  { eventType: 'MessageViewed', name: 'Message Viewed' },
  { eventType: 'PatientChanged', name: 'Patient Changed' },
  { eventType: 'MessageSent', name: 'Message Sent' },
  { eventType: 'AttachmentViewed', name: 'Attachment Viewed' },
  { eventType: 'DeliverySummaryDownloaded', name: 'Delivery Summary Downloaded' },
  { eventType: 'DeliverySummaryRequested', name: 'Delivery Summary Sent to Intake' },
  { eventType: 'ReferralOutcome', name: 'Referral Outcome Chosen' },
  { eventType: 'MessageRead', name: 'Message Read' },
  { eventType: 'MessageProcessed', name: 'Message Processed' },
  { eventType: 'MessageUnprocessed', name: 'Message Unprocessed' },
  { eventType: 'MessageTriaged', name: 'Message Triaged' },
  { eventType: 'MessageDeleted', name: 'Message Deleted' },
  { eventType: 'FailedMessageAcknowledged', name: 'Failed Message Acknowledged' },
];

// "A,B, C" → ['A', 'B', 'C']; nothing named means every type.
const listOf = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const DAY = 86_400_000;

// GET /api/audit/types.
export const auditTypes = () => messageEventTypes.map((t) => ({ ...t }));

// GET /api/audit/{type}/{correlationId}: one message's activity (the Activity modal).
export async function activity(
  deps: AuditDeps,
  caller: Caller,
  params: { type: (typeof auditSubjectTypes)[number]; correlationId: string },
  query: z.infer<typeof auditQuery>,
): Promise<z.infer<typeof auditList>> {
  // The only subject type so far is a message; another organization's message does not exist here.
  if (!(await messagesQ.findById(deps.db, caller.organizationId, params.correlationId))) throw notFound();
  const page = await q.findAuditPage(
    deps.db,
    {
      organizationId: caller.organizationId,
      correlationId: params.correlationId,
      eventTypes: listOf(query.eventTypes),
      // Whole UTC days, both ends included.
      from: query.startDate ? new Date(`${query.startDate}T00:00:00Z`) : undefined,
      before: query.endDate ? new Date(new Date(`${query.endDate}T00:00:00Z`).getTime() + DAY) : undefined,
    },
    { offset: (query.pageStart - 1) * query.pageSize, limit: query.pageSize },
  );
  return {
    totalCount: page.totalCount,
    items: page.items.map((r) => ({ id: r.id, eventType: r.eventType, createdBy: r.createdBy, createdOn: r.createdAt.toISOString() })),
  };
}

// GET /api/messages/events: the organization's recent message activity, newest first.
export async function recentMessageEvents(deps: AuditDeps, caller: Caller, query: z.infer<typeof messageEventsQuery>): Promise<z.infer<typeof messageEvents>> {
  const rows = await q.findMessageEvents(
    deps.db,
    { organizationId: caller.organizationId, eventTypes: listOf(query.eventTypes), from: query.start ? new Date(query.start) : undefined },
    query.pageSize,
  );
  await auditListViewed(deps.db, caller, 'MessageEvents', { count: rows.length });
  return { items: rows.map((r) => ({ id: r.id, messageId: r.messageId, subject: r.subject, eventType: r.eventType, createdBy: r.createdBy, createdOn: r.createdAt.toISOString() })) };
}

type EntryRow = NonNullable<Awaited<ReturnType<typeof q.findEntry>>>;
const entryOf = (r: EntryRow): z.infer<typeof auditEntryDetail> => ({
  id: r.id,
  eventType: r.eventType,
  eventData: r.details && Object.keys(r.details).length > 0 ? JSON.stringify(r.details) : null,
  correlationId: r.correlationId,
  createdBy: r.createdBy,
  createdOn: r.createdAt.toISOString(),
});

const pageOf = async (deps: AuditDeps, filter: Omit<q.EntryFilter, 'from' | 'before'>, query: z.infer<typeof auditEntriesQuery>) => {
  const page = await q.findEntryPage(
    deps.db,
    {
      ...filter,
      from: query.startDate ? new Date(`${query.startDate}T00:00:00Z`) : undefined,
      before: query.endDate ? new Date(new Date(`${query.endDate}T00:00:00Z`).getTime() + DAY) : undefined,
    },
    { offset: (query.pageStart - 1) * query.pageSize, limit: query.pageSize },
  );
  return { totalCount: page.totalCount, items: page.items.map(entryOf) };
};

// GET /api/audit/{id}: one entry of the caller's organization.
export async function entry(deps: AuditDeps, caller: Caller, id: string) {
  const row = await q.findEntry(deps.db, caller.organizationId, id);
  if (!row) throw notFound();
  return entryOf(row);
}

// GET /api/audit/{id}/events: what else happened to the subject of entry {id} (the entries sharing its correlation id).
export async function entryEvents(deps: AuditDeps, caller: Caller, id: string, query: z.infer<typeof auditEntriesQuery>) {
  const row = await q.findEntry(deps.db, caller.organizationId, id);
  if (!row) throw notFound();
  if (row.correlationId === null) return { totalCount: 1, items: query.pageStart === 1 ? [entryOf(row)] : [] };
  return pageOf(deps, { organizationId: caller.organizationId, correlationId: row.correlationId }, query);
}

// GET /api/audit/entries/{type}: the organization's entries of one event type.
export const entriesOfType = (deps: AuditDeps, caller: Caller, type: string, query: z.infer<typeof auditEntriesQuery>) =>
  pageOf(deps, { organizationId: caller.organizationId, eventType: type }, query);

// GET /api/audit/user: the caller's own entries in the current organization.
export const ownEntries = (deps: AuditDeps, caller: Caller, query: z.infer<typeof auditEntriesQuery>) =>
  pageOf(deps, { organizationId: caller.organizationId, userId: caller.session.userId }, query);
