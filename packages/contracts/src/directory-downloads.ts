import { z } from 'zod';
import { sortDir } from './paging.ts';
import { text } from './text.ts';

// back-office-b §2 "Directory download requests" (/admin/directorydownloads), §3 "Directory download", §5, §7, §8
// (issue 29 §7). A request makes a CSV file of the provider directory (the NPPES-based one the directory search reads)
// in a workflow; the file is kept encrypted in the blob store and downloaded by a system administrator.

export const directoryDownloadMessages = {
  // back-office-b §8.
  notSent: 'The download request was not able to be sent.',
  // Not worded in the spec.
  sent: 'The download request was sent.',
  typeRequired: 'Type is required.',
  modeRequired: 'Mode is required.',
  copied: 'Copied!',
  copy: 'Copy',
  notReady: 'The file of this download is not ready.',
} as const;

// Types: which entries (NPPES entity type 1, 2, or both). Modes: every active entry, or what changed (imported,
// deactivated) since the last completed download of the same type (Full when there is none), deactivated rows included
// with Active = N so a copy can drop them.
export const directoryDownloadTypes = ['Providers', 'Organizations', 'All'] as const;
export const directoryDownloadModes = ['Full', 'Incremental'] as const;
export const directoryDownloadStatuses = ['Pending', 'Running', 'Completed', 'Failed'] as const;
export type DirectoryDownloadType = (typeof directoryDownloadTypes)[number];
export type DirectoryDownloadMode = (typeof directoryDownloadModes)[number];

// back-office-b §9: 'Copied!' resets after 2.5 s.
export const COPIED_RESET_MS = 2500;

// The file's columns, in order (CSV, RFC 4180, CRLF).
export const directoryDownloadColumns = [
  'NPI',
  'Entity Type',
  'Last Name',
  'First Name',
  'Middle Name',
  'Organization Name',
  'Other Name',
  'Direct Address',
  'Phone',
  'Fax',
  'Address',
  'City',
  'State',
  'Zip',
  'Taxonomy',
  'Active',
  'Updated',
] as const;

// Missing, empty and unknown values are one error: the field's own text.
const choice = <T extends readonly [string, ...string[]]>(values: T, message: string) => z.enum(values, { error: message });

// POST /api/directory/downloads/request (§5: type and mode required).
export const directoryDownloadRequest = z.object({
  type: choice(directoryDownloadTypes, directoryDownloadMessages.typeRequired),
  mode: choice(directoryDownloadModes, directoryDownloadMessages.modeRequired),
});
export type DirectoryDownloadRequest = z.input<typeof directoryDownloadRequest>;

export const directoryDownloadSortColumns = ['occurred'] as const;
export const directoryDownloadQuery = z.object({
  search: text().trim().max(200).optional(),
  sortDirection: sortDir.optional(),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

// §3: id, fileUrl, occurred, item, mode, log message; the item is the type asked for.
export const directoryDownload = z.object({
  id: text(),
  // GET /api/directory/downloads/{id}/file once the file is made; null before.
  fileUrl: text().nullable(),
  occurred: text(),
  item: z.enum(directoryDownloadTypes),
  mode: z.enum(directoryDownloadModes),
  status: z.enum(directoryDownloadStatuses),
  rowCount: z.number().int().nullable(),
  sizeInBytes: z.number().int().nullable(),
  hasLogMessage: z.boolean(),
});
export type DirectoryDownload = z.infer<typeof directoryDownload>;
export const directoryDownloadPage = z.object({ items: z.array(directoryDownload), totalCount: z.number().int() });
export const directoryDownloadLogMessage = z.object({ id: text(), logMessage: text() });
