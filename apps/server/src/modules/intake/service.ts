import { parseRecipient } from '@clinicrelay/contracts/delivery.ts';
import {
  EVENTS_LIMIT,
  EVENTS_REPORT_COLUMNS,
  INTAKE_COUNT_CAP,
  INTAKE_DEFAULT_DAYS,
  INTAKE_TOTAL_COUNT_PAGES,
  intakeMessages,
  messageStatusNumbers,
  type IntakeListItem,
  type IntakeRule,
  type MessageStatusName,
  type eventsReportQuery,
  type intakeFilter,
  type intakeList,
  type intakeStatistics,
  type processRequest,
  type triageRequest,
} from '@clinicrelay/contracts/intake.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditedBy, auditListViewed, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import * as messagesQ from '../messages/queries.ts';
import { emitWebhookEvent } from '../webhooks/delivery-workflow.ts';
import { findMembership, findRules } from '../users/queries.ts';
import { brandNameOf } from '../../platform/brand.ts';
import { csvFile, exportFileName } from '../../platform/csv.ts';
import * as q from './queries.ts';
import { assertPlanIncludesSending } from '../subscriptions/plan-guard.ts';

export interface IntakeDeps {
  db: Database;
  now: () => Date;
}

export type Caller = OrgCaller;

type Filter = z.output<typeof intakeFilter>;

const DAY_MS = 86_400_000;
const statusNames = Object.fromEntries(Object.entries(messageStatusNumbers).map(([name, n]) => [n, name])) as Record<number, MessageStatusName>;
const startOfDay = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`);
const todayStart = (now: Date) => startOfDay(now.toISOString().slice(0, 10));

// Inbound rows hold a name of messageStatusNumbers, or Read (a Received message someone opened),
// which counts as Received; anything else reads as Received too.
export const statusNumberOf = (status: string) => messageStatusNumbers[status as MessageStatusName] ?? messageStatusNumbers.Received;
const READ_STATUS = 'Read';

// Addresses compare as delivered and stored: Direct lower-case, fax numbers as their 10 digits.
export const normalizedAddress = (address: string | null | undefined) => (address ? (parseRecipient(address)?.address ?? address.toLowerCase()) : null);

const nonEmpty = <T>(values: readonly T[] | null | undefined) => (values?.length ? [...values] : null);

// A request's filter rule names one To address; a stored rule any of several.
type RuleLike = { toAddress?: string | null; toAddresses?: string[]; fromAddress?: string | null; sourceType?: IntakeRule['sourceType'] };
function ruleFilters(rules: RuleLike[]): q.IntakeRuleFilter[] {
  return rules
    .map((r) => ({
      toAddresses: (r.toAddresses ?? (r.toAddress ? [r.toAddress] : [])).map((a) => normalizedAddress(a)!),
      fromAddress: normalizedAddress(r.fromAddress),
      sourceType: r.sourceType ?? null,
    }))
    // A rule naming nothing would match everything: it narrows nothing, so it is dropped.
    .filter((r) => r.toAddresses.length || r.fromAddress || r.sourceType);
}

// Rules sent by id (POST /api/intake) are the organization's intake rules; an unknown id matches nothing.
async function resolveRules(deps: IntakeDeps, organizationId: string, rules: IntakeRule[]): Promise<q.IntakeRuleFilter[] | null> {
  const ids = rules.flatMap((r) => (r.id ? [r.id] : []));
  const stored = ids.length ? await findRules(deps.db, organizationId, ids) : [];
  const resolved = rules.flatMap((r): RuleLike[] => (r.id ? stored.filter((s) => s.id === r.id) : [r]));
  const filters = ruleFilters(resolved);
  if (filters.length) return filters;
  return ids.length ? [] : null;
}

const audit = (deps: IntakeDeps, caller: Caller, eventType: string, messageId: string | null, details?: Record<string, unknown>) =>
  writeAudit(
    deps.db,
    {
      eventType,
      ...auditedBy(caller),
      correlationId: messageId,
      ...(details ? { details } : {}),
    },
    deps.now(),
  );

// POST /api/messages and POST /api/intake: the Intake list of end-user §3 "Message list filter".
// Administrators see the whole organization (isAll changes nothing for them); a User sees what the
// visibility rule gives them, whatever isAll says.
export async function listIntake(deps: IntakeDeps, caller: Caller, filter: Filter): Promise<z.infer<typeof intakeList>> {
  const viewer = q.viewerOf(caller);
  const defaultStart = new Date(todayStart(deps.now()).getTime() - INTAKE_DEFAULT_DAYS * DAY_MS);
  const statuses: string[] | undefined = nonEmpty(filter.statuses)?.map((n) => statusNames[n]!);
  if (statuses?.includes('Received')) statuses.push(READ_STATUS);
  const query: q.IntakeQuery = {
    organizationId: caller.organizationId,
    visibility: q.inboundVisibleTo(viewer),
    dateColumn: filter.orderBy,
    from: filter.startDate ? startOfDay(filter.startDate) : defaultStart,
    until: filter.endDate ? new Date(startOfDay(filter.endDate).getTime() + DAY_MS) : null,
    rules: await resolveRules(deps, caller.organizationId, filter.rules),
    statuses: statuses ?? null,
    sourceTypes: nonEmpty(filter.sourceTypes),
    processedTypes: nonEmpty(filter.processedTypes),
    sourceIds: nonEmpty(filter.sources),
    text: filter.filter || null,
    columnFilters: filter.columnFilters ?? null,
    unassigned: !!filter.isUnassigned,
    assignedTo: filter.isAssignedToSelf ? viewer.userId : null,
    orderDir: filter.orderDir,
  };
  const offset = (filter.pageStart - 1) * filter.pageSize;
  // The total is counted INTAKE_TOTAL_COUNT_PAGES pages past the page's start at most, so no list call reads
  // every match of a busy Intake; beyond, the list says so and the web shows "N+".
  const totalUpTo = offset + filter.pageSize * INTAKE_TOTAL_COUNT_PAGES;
  const page = await q.findPage(deps.db, query, { offset, limit: filter.pageSize, totalUpTo: totalUpTo + 1 });
  const totalCount = Math.min(page.total, totalUpTo);
  const totalCountCapped = page.total > totalUpTo;
  const figures = await q.countFigures(deps.db, query, { userId: viewer.userId, countsUpTo: INTAKE_COUNT_CAP + 1, assignmentsOf: viewer.seesAll ? null : viewer });
  const nothingAssigned = figures.hasAssignments === false;
  await auditListViewed(deps.db, caller, 'Intake', {
    count: page.items.length,
    totalCount,
    totalCountCapped,
    pageStart: filter.pageStart,
    searched: !!filter.filter || !!filter.columnFilters,
    statuses: filter.statuses ?? null,
    startDate: filter.startDate ?? null,
    endDate: filter.endDate ?? null,
  }, deps.now());
  return {
    totalCount,
    totalCountCapped,
    counts: figures.counts,
    nothingAssigned,
    administrators: nothingAssigned ? await q.administratorNames(deps.db, caller.organizationId) : [],
    ...(!viewer.seesAll && page.items.length === 0 ? { ruleNames: await q.ruleNames(deps.db, viewer, { all: nothingAssigned, limit: 3 }) } : {}),
    items: page.items.map((m): IntakeListItem => ({
      id: m.id,
      subject: m.subject,
      fromAddress: m.fromAddress,
      toAddress: m.toAddress,
      messageDate: m.messageDate?.toISOString() ?? null,
      systemReceivedDate: m.systemReceivedDate?.toISOString() ?? null,
      updatedDate: m.updatedDate.toISOString(),
      isUrgent: m.isUrgent,
      isProcessed: m.isProcessed,
      processedType: m.processedType,
      sourceType: m.sourceType,
      patientName: m.patientName,
      status: m.status,
      statusNumber: statusNumberOf(m.status),
      attachmentCount: m.attachmentCount,
      faxPageCount: m.properties?.faxPageCount ?? null,
      isRead: q.isReadOf(m.markedRead, { total: m.attachmentCount, unread: m.unreadAttachmentCount }),
    })),
  };
}

async function visibleInbound(deps: IntakeDeps, caller: Caller, id: string) {
  const row = await q.findVisibleInbound(deps.db, q.viewerOf(caller), id);
  if (!row) throw notFound();
  return row;
}

// PUT /api/messages/{id}/process: processed (how, optionally renamed) or back to Received.
export async function processMessage(deps: IntakeDeps, caller: Caller, id: string, body: z.infer<typeof processRequest>) {
  await visibleInbound(deps, caller, id);
  const now = deps.now();
  const subject = body.subject?.trim() ? body.subject.trim() : undefined;
  await deps.db.transaction(async (tx) => {
    // Locked: of two concurrent calls only the one that makes it processed emits the webhook event.
    const before = await messagesQ.findByIdForUpdate(tx, caller.organizationId, id);
    await messagesQ.update(tx, id, {
      isProcessed: body.isProcessed,
      processedType: body.isProcessed ? (body.processType ?? null) : null,
      status: body.isProcessed ? 'Processed' : 'Received',
      ...(subject ? { subject } : {}),
      updatedDate: now,
    });
    await messagesQ.insertEvent(tx, {
      messageId: id,
      organizationId: caller.organizationId,
      userId: caller.session.userId,
      eventType: body.isProcessed ? 'Processed' : 'Unprocessed',
      details: { processType: body.isProcessed ? (body.processType ?? null) : null, renamed: !!subject },
      createdAt: now,
    });
    if (body.isProcessed && before && !before.isProcessed) {
      await emitWebhookEvent(tx, { organizationId: caller.organizationId, type: 'message.processed', messageId: id, occurredAt: now });
    }
  });
  await audit(deps, caller, body.isProcessed ? 'MessageProcessed' : 'MessageUnprocessed', id, { processType: body.processType ?? null });
  return { message: intakeMessages.statusChanged(body.isProcessed ? 'processed' : 'unprocessed') };
}

// PUT /api/messages/{id}/read: idempotent; only the first call changes anything.
export async function markRead(deps: IntakeDeps, caller: Caller, id: string) {
  let row = await visibleInbound(deps, caller, id);
  if (!row.isRead) {
    const now = deps.now();
    row = await deps.db.transaction(async (tx) => {
      const updated = await messagesQ.update(tx, id, { isRead: true, ...(row.status === 'Received' ? { status: READ_STATUS } : {}) });
      await messagesQ.insertEvent(tx, { messageId: id, organizationId: caller.organizationId, userId: caller.session.userId, eventType: 'Read', createdAt: now });
      return updated;
    });
    await audit(deps, caller, 'MessageRead', id);
  }
  return { id: row.id, isRead: row.isRead, status: row.status, statusNumber: statusNumberOf(row.status) };
}

// POST /api/messages/{id}/triage: to another of the organization's addresses, to one of its users, or both.
export async function triage(deps: IntakeDeps, caller: Caller, id: string, body: z.infer<typeof triageRequest>) {
  await visibleInbound(deps, caller, id);
  // end-user §6: the Stay Connected plan does not include triage.
  await assertPlanIncludesSending(deps.db, caller.organizationId);
  let toAddress: string | undefined;
  if (body.documentSourceId) {
    const source = (await messagesQ.findDocumentSources(deps.db, caller.organizationId)).find((s) => s.id === body.documentSourceId);
    if (!source) throw badRequest(intakeMessages.documentSourceNotInOrganization, { documentSourceId: [intakeMessages.documentSourceNotInOrganization] });
    toAddress = source.fullAddress;
  }
  if (body.userId && !(await findMembership(deps.db, caller.organizationId, body.userId))) {
    throw badRequest(intakeMessages.userNotInOrganization, { userId: [intakeMessages.userNotInOrganization] });
  }
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await messagesQ.update(tx, id, {
      ...(toAddress ? { toAddress } : {}),
      ...(body.userId ? { assignedUserId: body.userId } : {}),
      sourceType: 'Triage',
      status: 'Triaged',
      updatedDate: now,
    });
    await messagesQ.insertEvent(tx, {
      messageId: id,
      organizationId: caller.organizationId,
      userId: caller.session.userId,
      eventType: 'Triaged',
      details: { documentSourceId: body.documentSourceId ?? null, assignedUserId: body.userId ?? null },
      createdAt: now,
    });
  });
  await audit(deps, caller, 'MessageTriaged', id, { documentSourceId: body.documentSourceId ?? null, assignedUserId: body.userId ?? null });
  return { message: intakeMessages.triaged };
}

const STATISTICS_DAYS = 30;

// GET /api/messages/statistics: the last 30 days (today included), every day listed, oldest first.
export async function statistics(deps: IntakeDeps, caller: Caller): Promise<z.infer<typeof intakeStatistics>> {
  const from = new Date(todayStart(deps.now()).getTime() - (STATISTICS_DAYS - 1) * DAY_MS);
  const stats = await q.statistics(deps.db, caller.organizationId, from);
  const perDay = new Map(stats.perDay.map((d) => [d.date, d.n]));
  const sentPerDay = new Map(stats.sentPerDay.map((d) => [d.date, d.n]));
  return {
    ...stats.totals,
    sent: stats.sentPerDay.reduce((sum, d) => sum + d.n, 0),
    bySourceType: Object.fromEntries(stats.bySourceType.map((s) => [s.sourceType ?? 'Unknown', s.n])),
    perDay: Array.from({ length: STATISTICS_DAYS }, (_, i) => {
      const date = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return { date, count: perDay.get(date) ?? 0, sent: sentPerDay.get(date) ?? 0 };
    }),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
// MM/DD/YYYY HH:mm:ss in UTC.
const csvDate = (d: Date) => `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

// A date alone is a whole UTC day (end inclusive); anything else an instant.
const reportBound = (value: string | undefined, end: boolean) => {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(startOfDay(value).getTime() + (end ? DAY_MS : 0));
  return new Date(value);
};

// GET /api/messages/eventsreport: the organization's message events as CSV.
export async function eventsReport(deps: IntakeDeps, caller: Caller, query: z.infer<typeof eventsReportQuery>) {
  const rows = await q.findEventsForReport(
    deps.db,
    {
      organizationId: caller.organizationId,
      from: reportBound(query.start, false),
      before: reportBound(query.end, true),
      eventTypes: (query.eventTypes ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    },
    query.pageSize,
  );
  const csv = csvFile(EVENTS_REPORT_COLUMNS, rows.map((r) => [csvDate(r.createdAt), r.eventType, r.user, r.subject, r.fromAddress, r.toAddress]));
  // One row for the export: it holds subjects and addresses of many messages.
  await audit(deps, caller, 'MessageEventsReportDownloaded', null, { rows: rows.length });
  return { fileName: exportFileName(await brandNameOf(deps.db, caller.organizationId), deps.now()), csv };
}

async function acknowledge(deps: IntakeDeps, caller: Caller, ids: string[]) {
  const now = deps.now();
  const acknowledged = await deps.db.transaction(async (tx) => {
    const done = await q.acknowledgeFailures(tx, ids, now);
    for (const messageId of done) {
      await messagesQ.insertEvent(tx, { messageId, organizationId: caller.organizationId, userId: caller.session.userId, eventType: 'FailedAcknowledged', createdAt: now });
    }
    return done;
  });
  for (const messageId of acknowledged) await audit(deps, caller, 'FailedMessageAcknowledged', messageId);
  return { acknowledged: acknowledged.length };
}

// PUT /api/failedmessages/{id}/acknowledge: a failed inbound message the caller may see; any other is not found.
export async function acknowledgeFailed(deps: IntakeDeps, caller: Caller, id: string) {
  const row = await visibleInbound(deps, caller, id);
  if (row.status !== 'Failed') throw notFound();
  return acknowledge(deps, caller, [id]);
}

// POST /api/failedmessages/acknowledgeall: every failed message the caller may see.
export async function acknowledgeAllFailed(deps: IntakeDeps, caller: Caller) {
  return acknowledge(deps, caller, await q.findUnacknowledgedFailures(deps.db, q.viewerOf(caller)));
}

// GET /api/events: the caller's notifications.
export async function recentEvents(deps: IntakeDeps, caller: Caller) {
  const rows = await q.findRecentEvents(deps.db, q.viewerOf(caller), EVENTS_LIMIT);
  // The notifications name message subjects: a read of PHI like the lists.
  await auditListViewed(deps.db, caller, 'Events', { count: rows.length }, deps.now());
  return rows.map((r) => ({ id: r.id, type: r.type, messageId: r.messageId, subject: r.subject, createdOn: r.createdAt.toISOString() }));
}
