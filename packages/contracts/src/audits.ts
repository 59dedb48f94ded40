import { z } from 'zod';
import { text } from './text.ts';

// back-office-b Audits: POST /api/admin/audits {startDate, endDate, username}; page size 25; the screen exports
// CSV named by the start and end dates (the same call with Accept: text/csv).
export const AUDITS_PAGE_SIZE = 25;
export const auditsMessages = {
  empty: 'There are no results matching your criteria.',
  dateInvalid: 'Date is invalid.',
  endBeforeStart: 'End date must be on or after the start date.',
} as const;

// Whole UTC days (YYYY-MM-DD), both ends included; either may be left out.
export const isCalendarDay = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const time = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(v);
};
const day = text().trim().refine(isCalendarDay, auditsMessages.dateInvalid);
export const adminAuditsSearch = z
  .object({
    startDate: day.optional().nullable(),
    endDate: day.optional().nullable(),
    // Part of the user name (not shown in the spec: contains, any case).
    username: text().trim().max(256).optional().nullable(),
    pageStart: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(AUDITS_PAGE_SIZE),
  })
  .refine((v) => !v.startDate || !v.endDate || v.startDate <= v.endDate, { message: auditsMessages.endBeforeStart, path: ['endDate'] });
export type AdminAuditsSearch = z.infer<typeof adminAuditsSearch>;

// Audit entry of back-office-b §3: eventType, eventData, createdBy, timestamp (also createdOn).
export const adminAuditEntry = z.object({
  id: text(),
  eventType: text(),
  // The entry's details as JSON text (never PHI: platform/audit.ts).
  eventData: text().nullable(),
  createdBy: text().nullable(),
  organizationId: text().nullable(),
  ip: text().nullable(),
  timestamp: text(),
  createdOn: text(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntry>;
export const adminAuditList = z.object({ items: z.array(adminAuditEntry), totalCount: z.number().int() });

// end-user §7 audit calls beside the Activity modal's (Administrator; the caller's organization only, anything
// else is 404). Not shown in the spec, so read as: GET /api/audit/{id} one entry; /{id}/events the entries sharing
// that entry's correlation id; /entries/{type} the organization's entries of one event type; /user the caller's own.
export const auditEntryParams = z.object({ id: text().uuid() });
export const auditEntriesParams = z.object({ type: text().trim().min(1).max(100) });
export const auditEntryDetail = z.object({
  id: text(),
  eventType: text(),
  eventData: text().nullable(),
  correlationId: text().nullable(),
  createdBy: text().nullable(),
  createdOn: text(),
});
export const auditEntryPage = z.object({ items: z.array(auditEntryDetail), totalCount: z.number().int() });
export const auditEntriesQuery = z.object({
  pageStart: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  startDate: day.optional(),
  endDate: day.optional(),
});

// back-office-a Secure logs: GET /api/admin/securelogs/{referenceId}; the screen shows the log date and message.
export const secureLogsMessages = {
  empty: 'No Log to Display',
  notFound: 'No log was found for this reference id.',
} as const;
export const SECURE_LOG_SEARCH_DEBOUNCE_MS = 300;
export const secureLogParams = z.object({ referenceId: text().trim().toLowerCase().regex(/^[0-9a-f]{10}$/, 'Reference id is invalid.') });
export const secureLog = z.object({
  referenceId: text(),
  date: text(),
  // The error's type and message, then what support needs: route, status, who, and the stack (PHI-redacted).
  message: text(),
  statusCode: z.number().int(),
  method: text(),
  route: text(),
  requestId: text().nullable(),
  userId: text().nullable(),
  organizationId: text().nullable(),
  stack: text(),
});
export type SecureLog = z.infer<typeof secureLog>;
