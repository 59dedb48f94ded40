import { z } from 'zod';
import { text } from './text.ts';

// back-office-b §2, §3, §7, §9: the API capture log of organizations whose capture is on (PUT
// /api/organizations/{id}/apicapture). Page size 20, a default range of one day, sortDir '1' descending.
export const API_CAPTURE_PAGE_SIZE = 20;
// Not in the spec: what a stored body keeps at most (the record says when it was cut), and how long records stay.
export const API_CAPTURE_MAX_BODY_BYTES = 64 * 1024;
export const API_CAPTURE_DEFAULT_RETENTION_DAYS = 7;
export const apiCaptureMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const instant = text()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Date is invalid.');

// Not in the spec beyond its names: start and end are ISO instants (default: the last 24 hours), search matches the
// URL or the user name, and the §3 filters tenantId, networkId, statusCode and method narrow the list.
export const apiCaptureQuery = z.object({
  start: instant.optional(),
  end: instant.optional(),
  search: text().trim().max(200).optional(),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(API_CAPTURE_PAGE_SIZE),
  sortDir: z.enum(['0', '1']).default('1'),
  tenantId: text().uuid().optional(),
  networkId: text().uuid().optional(),
  statusCode: z.coerce.number().int().min(100).max(599).optional(),
  method: z.enum(apiCaptureMethods).optional(),
});
export type ApiCaptureQuery = z.infer<typeof apiCaptureQuery>;

export const capturedSide = z.object({
  url: text().optional(),
  method: text().optional(),
  status: z.number().int().optional(),
  headers: z.record(text(), text()),
  // Redacted (passwords, tokens, secrets, one-time codes replaced by '[REDACTED]'); a note instead of file contents.
  body: text().nullable(),
  bodyBytes: z.number().int(),
  bodyTruncated: z.boolean(),
});
export type CapturedSide = z.infer<typeof capturedSide>;

// The §3 record: tenantid, networkid, userId, tokenHash, date, userIdSourceType, value.request, value.response; the
// names of the tenant, network and user beside their ids for the screen. userIdSourceType says where userId came
// from: 'Token' (the bearer token of the call) or 'IssuedToken' (a sign-in or renewal: the token it issued).
export const apiCaptureRecord = z.object({
  id: text(),
  tenantid: text(),
  tenantName: text().nullable(),
  networkid: text().nullable(),
  networkName: text().nullable(),
  userId: text().nullable(),
  userName: text().nullable(),
  tokenHash: text().nullable(),
  date: text(),
  userIdSourceType: text(),
  durationMs: z.number(),
  value: z.object({ request: capturedSide, response: capturedSide }),
});
export type ApiCaptureRecord = z.infer<typeof apiCaptureRecord>;
export const apiCapturePage = z.object({ items: z.array(apiCaptureRecord), totalCount: z.number().int() });
export type ApiCapturePage = z.infer<typeof apiCapturePage>;

// GET /api/apicaptureconfig (end-user, Integrations; shape not shown): whether the caller's organization is captured
// and what a capture keeps, so an integrator knows their calls are being recorded.
export const apiCaptureConfig = z.object({
  apiCapture: z.boolean(),
  retentionDays: z.number().int(),
  maxBodyBytes: z.number().int(),
});
export type ApiCaptureConfig = z.infer<typeof apiCaptureConfig>;

export const apiCaptureMessages = {
  empty: 'There are no results matching your criteria.',
  loadFailed: 'Error loading API capture records.',
} as const;
