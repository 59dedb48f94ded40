import { z } from 'zod';
import { messages } from './errors.ts';
import { isRealDate, parseTypedDate } from './dates.ts';
import { pageOf, sortDir } from './paging.ts';
import { text } from './text.ts';

// back-office-a §2 "Reports", §5, §7 "Reports (CSV)"; back-office-b §3 "Generated report"; issue 27 §4.
export const reportMessages = {
  // back-office-a §5 "Report date range".
  startAfterEnd: 'Start Date must be smaller or equal than End Date.',
  invalidFields: messages.invalidFields,
  // Not worded in the spec (§8: report toasts are not shown).
  invalidDate: 'Enter a date as M/d/yyyy.',
  dateInFuture: 'The date cannot be later than today.',
  pageNumberRequired: 'Page number is required.',
  downloadFailed: 'The report could not be downloaded.',
  noGeneratedReports: 'No reports have been generated yet.',
  noSiftMetrics: 'There are no results matching your criteria.',
} as const;

// back-office-a §9: the Messages report pages by 10,000; the page number has at most 2 characters.
export const EVENTS_REPORT_PAGE_SIZE = 10_000;
export const REPORT_PAGE_NUMBER_MAX = 99;
// The saved names back-office-a §7 gives; the other reports are named by brand and timestamp (platform/csv.ts).
export const reportFileNames = {
  unassignedAddresses: 'Unassigned_Addresses.csv',
  intakeRules: 'Intake_Rules.csv',
  downloadProfiles: 'Download_Profiles.csv',
} as const;

/** A report date: M/d/yyyy as typed, or YYYY-MM-DD; the value is YYYY-MM-DD. */
export const reportDate = text()
  .max(10)
  .transform((value, ctx) => {
    const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) && isRealDate(value) ? value : parseTypedDate(value, '9999-12-31');
    if (!iso) {
      ctx.addIssue({ code: 'custom', message: reportMessages.invalidDate });
      return z.NEVER;
    }
    return iso;
  });

const startBeforeEnd = <T extends { start: string; end: string }>(range: T, ctx: z.RefinementCtx) => {
  if (range.start > range.end) ctx.addIssue({ code: 'custom', path: ['start'], message: reportMessages.startAfterEnd });
};

// GET /api/admin/reports/devices: startDate, endDate (the Devices Report modal).
export const devicesReportQuery = z
  .object({ startDate: reportDate, endDate: reportDate })
  .superRefine((q, ctx) => startBeforeEnd({ start: q.startDate, end: q.endDate }, ctx));

// GET /api/admin/reports/events: start, end, pageSize (10000), pageNumber, eventTypes (comma-separated; none: all).
export const eventsReportQuery = z
  .object({
    start: reportDate,
    end: reportDate,
    pageSize: z.coerce.number().int().min(1).max(EVENTS_REPORT_PAGE_SIZE).default(EVENTS_REPORT_PAGE_SIZE),
    pageNumber: z.coerce.number().int().min(1).max(REPORT_PAGE_NUMBER_MAX).default(1),
    eventTypes: text()
      .max(2000)
      .optional()
      .transform((v) =>
        (v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0 && s.length <= 100),
      ),
  })
  .superRefine((q, ctx) => startBeforeEnd(q, ctx));

// POST /api/admin/reports/addresses/unassigned, /intakerules, /downloadprofiles: an array of organization ids.
// An empty array means every organization (not in the spec: the organization select may choose none).
export const organizationIdsBody = z.array(text().uuid()).max(10_000);
// The organization select of those reports (not in the spec: SysAdminReporting may not read the organization list,
// so the reports area offers the names to choose from): GET /api/admin/reports/organizationoptions.
export const reportOrganizationOption = z.object({ id: text().uuid(), name: text() });

// back-office-b §3 "Generated report": id, name, fileName, createDate.
export const generatedReport = z.object({ id: text().uuid(), name: text(), fileName: text(), createDate: text() });
export type GeneratedReport = z.infer<typeof generatedReport>;
export const generatedReportPage = pageOf(generatedReport);
export const generatedReportQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  // Words of the name or file name (not in the spec: the list's search box).
  search: text().trim().max(200).optional(),
});
export const generatedReportParams = z.object({ id: text().uuid() });

// back-office-a §3 "Sift metric row": id (tenant), count, elapsed (average ms) and each flag as a percentage of count.
// first … gender are the share of runs whose extracted value is what users kept or corrected it to on the message's
// patient (a run whose message has no saved value for the field does not count as right).
export const siftMetricRow = z.object({
  id: text(),
  organizationId: text().uuid(),
  count: z.number().int(),
  elapsed: z.number(),
  noText: z.number(),
  error: z.number(),
  noMatch: z.number(),
  conflicts: z.number(),
  perfectMatch: z.number(),
  confidenceIsVeryHigh: z.number(),
  first: z.number(),
  middle: z.number(),
  last: z.number(),
  dob: z.number(),
  gender: z.number(),
});
export type SiftMetricRow = z.infer<typeof siftMetricRow>;
export const siftMetricsColumns = ['tenant', 'count'] as const;
export const siftMetricsQuery = z
  .object({ start: reportDate, end: reportDate, col: z.enum(siftMetricsColumns).default('tenant'), sortDir: sortDir.default('asc') })
  .superRefine((q, ctx) => startBeforeEnd(q, ctx));
