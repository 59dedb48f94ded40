import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// Batch organization import (back-office-b §2 "Batch imports", §3 "Batch import metadata" and "Batch status item", §5,
// §7, §8; issue 29 §2).
//   POST /api/admin/import/organization  multipart: `file` (.csv or .xlsx) and `metadata` (JSON, batchImportMetadata)
//                                        → batchImportAccepted; the rows are imported by a workflow
//   GET  /api/admin/import               batchStatusQuery → a page of batchStatusItem (one per row of every file)
export const batchImportMessages = {
  // back-office-b §8.
  imported: 'The file was imported successfully. Please check the status screen.',
  // back-office-b §5 names the required fields; the sentences are not worded there.
  fileRequired: 'You must select a .CSV or .XLSX file.',
  fileType: 'The file must be a .CSV or .XLSX file.',
  fileTooLarge: 'The file must be at most 5 MB.',
  fileNameTooLong: 'The file name must be at most 255 characters.',
  planRequired: 'Plan is required.',
  hispRequired: 'HISP is required.',
  brandRequired: 'Brand is required.',
  typeRequired: 'Type is required.',
  specialtyRequired: 'Specialty is required.',
  importFailed: 'There was an error importing the file.',
  // File-level problems (the whole file is refused; nothing is imported).
  unreadable: 'The file could not be read as a .CSV or .XLSX file.',
  noRows: 'The file has no rows to import.',
  tooManyRows: (max: number) => `The file has more than ${max} rows; split it into smaller files.`,
  missingColumns: (columns: readonly string[]) => `The file is missing the column${columns.length === 1 ? '' : 's'} ${columns.join(', ')}.`,
  // A row: its number as a spreadsheet shows it (the header is row 1), then the organization form's own message.
  row: (row: number, message: string) => `Row ${row}: ${message}`,
  alreadyImported: 'This row was already imported; the organization exists.',
} as const;

// 5 MB holds some 20,000 rows of the template; the row limit keeps one import to what a workflow finishes in minutes.
export const MAX_IMPORT_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 5000;
export const IMPORT_FILE_NAME_MAX = 255;

// The columns of an import file (header names, case-insensitive; spaces, dashes and underscores ignored): the
// organization form's fields of the details and Primary Contact tabs, and the primary contact's phone. The brand,
// type, specialty, HISP, plan and resellers come from the import form, the same for every row. Each column is found
// by any of its names (the form's label first, which the template uses); `required` ones must be in the header.
export const importColumns = [
  { key: 'name', header: 'Organization Name', aliases: ['Name'], required: true, example: 'Lakeside Family Clinic' },
  { key: 'subdomain', header: 'Subdomain', aliases: [], required: true, example: 'lakesidefamily' },
  { key: 'organizationNpi', header: 'NPI', aliases: ['Organization NPI'], required: false, example: '1234567893' },
  { key: 'organizationEmr', header: 'EMR', aliases: [], required: false, example: 'Epic' },
  { key: 'tierCode', header: 'Tier Code', aliases: [], required: false, example: '' },
  { key: 'street', header: 'Street', aliases: ['Address'], required: true, example: '100 Main Street' },
  { key: 'unit', header: 'Unit', aliases: [], required: false, example: 'Suite 200' },
  { key: 'city', header: 'City', aliases: [], required: true, example: 'Portland' },
  { key: 'state', header: 'State', aliases: [], required: true, example: 'OR' },
  { key: 'zip', header: 'Zip', aliases: ['Zip Code', 'Postal Code'], required: true, example: '97201' },
  { key: 'country', header: 'Country', aliases: [], required: false, example: 'US' },
  { key: 'primaryPhone', header: 'Phone', aliases: ['Primary Phone'], required: true, example: '(503) 555-0100' },
  { key: 'primaryFax', header: 'Primary Fax', aliases: ['Fax'], required: false, example: '(503) 555-0101' },
  { key: 'primaryContactFirstName', header: 'Contact First Name', aliases: ['Primary Contact First Name', 'First Name'], required: true, example: 'Ana' },
  { key: 'primaryContactLastName', header: 'Contact Last Name', aliases: ['Primary Contact Last Name', 'Last Name'], required: true, example: 'Lopez' },
  { key: 'primaryContactEmail', header: 'Contact Email', aliases: ['Primary Contact Email', 'Email'], required: true, example: 'ana.lopez@lakesidefamily.example.org' },
  { key: 'primaryContactPhone', header: 'Contact Phone', aliases: ['Primary Contact Phone'], required: false, example: '(503) 555-0102' },
  { key: 'primaryContactTitle', header: 'Contact Title', aliases: ['Primary Contact Title', 'Title'], required: false, example: 'Practice Manager' },
  { key: 'primaryContactNpi', header: 'Contact NPI', aliases: ['Primary Contact NPI'], required: false, example: '' },
] as const;
export type ImportColumnKey = (typeof importColumns)[number]['key'];
export type ImportRowValues = Partial<Record<ImportColumnKey, string>>;

/** A header cell as it is matched: lower-case letters and digits only ("Contact_First-Name" → "contactfirstname"). */
export const normalizeHeader = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The sample template the screen offers: the header and one example row (CSV, CRLF lines). */
export function importTemplateCsv(): string {
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return [importColumns.map((c) => c.header), importColumns.map((c) => c.example)].map((row) => `${row.map(cell).join(',')}\r\n`).join('');
}
export const IMPORT_TEMPLATE_FILE_NAME = 'organization-import-template.csv';

const requiredId = (message: string) => z.number({ error: message }).int().min(1, message);
const optionalUuid = text()
  .uuid('Please choose a value from the list.')
  .nullish()
  .transform((v) => v ?? null);

// §3 "Batch import metadata" (the `metadata` part, JSON). planId null is the Free plan; resellerId is the spec's one
// reseller and is placed by its type (affiliate or licensing), beside the form's two optional resellers.
export const batchImportMetadata = z.object({
  hispProviderId: requiredId(batchImportMessages.hispRequired),
  brandId: text('Brand').trim().min(1, batchImportMessages.brandRequired).max(100),
  planId: text('Plan')
    .trim()
    .max(100)
    .nullable()
    .transform((v) => v || null),
  resellerId: optionalUuid,
  affiliateResellerId: optionalUuid,
  licensingResellerId: optionalUuid,
  specialty: requiredId(batchImportMessages.specialtyRequired),
  type: requiredId(batchImportMessages.typeRequired),
});
export type BatchImportMetadata = z.input<typeof batchImportMetadata>;

export const batchImportAccepted = z.object({
  id: text(),
  fileName: text(),
  rows: z.number().int(),
  message: text(),
});
export type BatchImportAccepted = z.infer<typeof batchImportAccepted>;

// Pending until the workflow reaches the row; Skipped: the same row of the same file was imported before (nothing is
// created twice). The primary contact: Created (a new user, account-creation mail queued), Added (an existing user was
// made Administrator of the organization), NotStarted (the organization was not created).
export const itemStatuses = ['Pending', 'Created', 'Failed', 'Skipped'] as const;
export const primaryContactStatuses = ['Pending', 'Created', 'Added', 'Failed', 'NotStarted'] as const;
export const batchStatuses = ['Pending', 'Running', 'Completed', 'CompletedWithErrors'] as const;

// §3 "Batch status item".
export const batchStatusItem = z.object({
  id: text(),
  batchId: text(),
  batchType: text(),
  itemStatus: z.enum(itemStatuses),
  itemError: text().nullable(),
  // The row's key: the file's SHA-256 and the row number (what makes a re-import create nothing twice).
  key: text(),
  rowNumber: z.number().int(),
  // The organization's name as the row gives it.
  name: text().nullable(),
  organizationId: text().nullable(),
  fileName: text(),
  batchStatus: z.enum(batchStatuses),
  primaryContactStatus: z.enum(primaryContactStatuses),
  pcsErrors: text().nullable(),
  createdBy: text().nullable(),
  createDate: text(),
});
export type BatchStatusItem = z.infer<typeof batchStatusItem>;

// Newest file first, rows in file order; search matches the file name, the organization's name or an error.
export const batchStatusQuery = pageQuery;
export const batchStatusPage = pageOf(batchStatusItem);
export type BatchStatusPage = z.infer<typeof batchStatusPage>;
