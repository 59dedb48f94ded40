import { z } from 'zod';

// Audit entry of end-user §3: createdBy, eventType, createdOn. Backs the Message Activity modal
// (GET /api/audit/{type}/{correlationId}, Administrator only; page size 10).
export const activityMessages = {
  empty: 'There are no results matching your criteria.',
} as const;
export const ACTIVITY_PAGE_SIZE = 10;

// The {type} of GET /api/audit/{type}/{correlationId}: what the correlation id names.
export const auditSubjectTypes = ['message'] as const;

export const auditParams = z.object({ type: z.enum(auditSubjectTypes), correlationId: z.string().uuid() });
const optionalDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, 'Date is invalid.').optional();
export const auditQuery = z.object({
  pageStart: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(ACTIVITY_PAGE_SIZE),
  // Comma-separated event types, as query parameters carry lists.
  eventTypes: z.string().trim().max(1000).optional(),
  startDate: optionalDate,
  endDate: optionalDate,
});
export const auditEntry = z.object({ id: z.string(), createdBy: z.string().nullable(), eventType: z.string(), createdOn: z.string() });
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditList = z.object({ items: z.array(auditEntry), totalCount: z.number().int() });

// GET /api/audit/types: the activity-type filter's options (event type and a readable name).
export const auditType = z.object({ eventType: z.string(), name: z.string() });

// GET /api/messages/events (pageSize, eventTypes, start): the organization's recent message activity,
// newest first, for administrators (the account dashboard).
export const messageEventsQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(30),
  eventTypes: z.string().trim().max(1000).optional(),
  // Only events at or after this instant (ISO 8601).
  start: z.string().trim().max(40).optional().refine((v) => !v || !Number.isNaN(Date.parse(v)), 'Start is invalid.'),
});
export const messageEvent = z.object({
  id: z.string(),
  messageId: z.string(),
  subject: z.string(),
  eventType: z.string(),
  createdBy: z.string().nullable(),
  createdOn: z.string(),
});
export const messageEvents = z.object({ items: z.array(messageEvent) });
