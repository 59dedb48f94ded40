import { z } from 'zod';
import { isCalendarDay } from './audits.ts';
import { text } from './text.ts';

// Audit entry of end-user §3: createdBy, eventType, createdOn. Backs the Message Activity modal
// (GET /api/audit/{type}/{correlationId}, Administrator only; page size 10).
export const activityMessages = {
  empty: 'There are no results matching your criteria.',
} as const;
export const ACTIVITY_PAGE_SIZE = 10;

// The {type} of GET /api/audit/{type}/{correlationId}: what the correlation id names.
export const auditSubjectTypes = ['message'] as const;

export const auditParams = z.object({ type: z.enum(auditSubjectTypes), correlationId: text().uuid() });
// A real calendar day: 2026-02-31 matched the pattern once and failed later as an invalid Date (a 500).
const optionalDate = text().trim().refine(isCalendarDay, 'Date is invalid.').optional();
export const auditQuery = z.object({
  pageStart: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(ACTIVITY_PAGE_SIZE),
  // Comma-separated event types, as query parameters carry lists.
  eventTypes: text().trim().max(1000).optional(),
  startDate: optionalDate,
  endDate: optionalDate,
});
export const auditEntry = z.object({ id: text(), createdBy: text().nullable(), eventType: text(), createdOn: text() });
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditList = z.object({ items: z.array(auditEntry), totalCount: z.number().int() });

// GET /api/audit/types: the activity-type filter's options (event type and a readable name).
export const auditType = z.object({ eventType: text(), name: text() });

// GET /api/messages/events (pageSize, eventTypes, start): the organization's recent message activity,
// newest first, for administrators (the account dashboard).
export const messageEventsQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(30),
  eventTypes: text().trim().max(1000).optional(),
  // Only events at or after this instant (ISO 8601).
  start: text().trim().max(40).optional().refine((v) => !v || !Number.isNaN(Date.parse(v)), 'Start is invalid.'),
});
export const messageEvent = z.object({
  id: text(),
  messageId: text(),
  subject: text(),
  eventType: text(),
  createdBy: text().nullable(),
  createdOn: text(),
});
export const messageEvents = z.object({ items: z.array(messageEvent) });
