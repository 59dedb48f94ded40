import { z } from 'zod';
import { jsonValue, text } from './text.ts';

// Attachment files: the size limit, the accepted types and the upload texts (end-user §5 "Attachment
// upload", §9), shared by the web's file picker and the server's upload checks.

export const MAX_ATTACHMENT_BYTES = 20_971_520;
// Images are decoded only within these pixel budgets (per page, and in all for a multi-page TIFF): a small
// file can announce a huge image (a decompression bomb).
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGE_TOTAL_PIXELS = 200_000_000;

// The documents clinics exchange: scans and reports (PDF), photos and scanned images, faxes (multi-page
// TIFF), plain-text notes, and structured records (XML, C-CDA/CCD, HL7 v2). Answered by GET /api/attachments/extensions.
export const supportedExtensions = ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'tif', 'tiff', 'txt', 'xml', 'cda', 'ccd', 'hl7'] as const;
export type SupportedExtension = (typeof supportedExtensions)[number];

export const attachmentMessages = {
  empty: 'File is empty. Please upload something more substantial.',
  tooLarge: 'Your attachment exceeds the maximum (20MB) allowed size.',
  // Not in the spec: the limit a rename already had, now also on upload.
  fileNameTooLong: 'File names may be at most 255 characters.',
  noFile: 'Please select a file.',
  // {ext} is shown with its dot (".exe"), as the user sees it in the file name.
  unsupportedType: (extension?: string) =>
    extension ? `Your attachment file type ${extension} is not supported` : 'Your attachment file type is not supported',
  serverUnsupportedType: 'FileType is not supported for upload',
  // Not in the spec: the server also checks the content (magic bytes), so a renamed file is refused.
  contentMismatch: (fileName: string, extension: string) => `The content of '${fileName}' does not match its .${extension} extension.`,
  // Not in the spec: page transforms (rotate, remove) refused by the server.
  cannotRemoveEveryPage: 'A document must keep at least one page; every page cannot be removed.',
  pageNotFound: (pageNumber: number) => `Page ${pageNumber} does not exist in this document.`,
  rotationNotRightAngle: 'Pages can only be rotated in steps of 90 degrees.',
  pdfProtected: 'This PDF is password protected and cannot be changed.',
  // Not in the spec: uploads refused by the virus scanner ({signature} is the scanner's name for what it found).
  infected: (signature: string) => `This file contains a virus or malware (${signature}) and was not attached.`,
  scannerUnavailable: 'The virus scanner is unavailable. Try again in a few minutes.',
  // Not in the spec: files refused at upload because they could not be shown or processed safely.
  pdfPasswordProtected: 'This PDF is password-protected. Remove the password and attach it again.',
  pdfDamaged: 'This PDF is damaged and cannot be opened. Attach another copy.',
  imageTooLarge: `This image is too large to process (over ${MAX_IMAGE_PIXELS / 1_000_000} megapixels). Reduce its size and attach it again.`,
  imageTooLargeInAll: `This image has too many pages or pixels to process (over ${MAX_IMAGE_TOTAL_PIXELS / 1_000_000} megapixels in all). Split it and attach the parts.`,
  fileTooComplex: 'This file is too large or complex to process. Reduce its size and attach it again.',
} as const;

// Toasts and texts of end-user §8 for attachments, as the spec words them.
export const attachmentToasts = {
  uploadFailed: (fileName: string) => `An error occurred while uploading '${fileName}'`,
  uploadFailedUnsupportedSuffix: '. Unsupported file type',
  attachFailed: 'Unable to attach document.',
  deleted: 'Attachment has been deleted.',
  restored: 'Original attachment restored.',
  restoreFailed: 'Error restoring attachment.',
  timedOut: 'The request timed out. Please try again.',
  printFailed: 'An error occurred while attempting to print. Please try again.',
  downloadFailed: 'Unable to download the file.',
} as const;

// Not in the spec: texts the server answers while a preview is pending or could not be made.
export const previewMessages = {
  processing: 'The preview is being prepared.',
  failed: 'A preview could not be made for this attachment.',
  noPdf: 'This attachment has no PDF to change.',
} as const;

// A documentDate of 1753-01-01 means empty (end-user §3): the oldest date the original service's database stored.
export const EMPTY_DOCUMENT_DATE = '1753-01-01';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const validIsoDate = (value: string) => isoDate.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

// The attachmentMeta of an upload or an update; dates are YYYY-MM-DD.
export const attachmentMetaInput = z.object({
  documentType: text('Document Type').trim().max(128).nullish(),
  documentDate: text()
    .trim()
    .max(10)
    .nullish()
    .refine((v) => !v || validIsoDate(v), 'Document Date is invalid.'),
  documentDateType: z.enum(['today', 'message', 'selected']).nullish(),
  confidentiality: z.enum(['Normal', 'Restricted', 'Very Restricted']).nullish(),
  documentDescription: text().max(255, 'Notes may be at most 255 characters.').nullish(),
  patient: z.record(text(), jsonValue()).nullish(),
});
export type AttachmentMetaInput = z.infer<typeof attachmentMetaInput>;

// POST /api/messages/{id}/attachments query: the client sends both; the server always makes a PDF
// rendition and has one queue, so they are accepted and ignored.
export const uploadQuery = z.object({
  convert: text().max(5).optional(),
  usePriorityQueue: text().max(5).optional(),
});

export const attachmentParams = z.object({ id: text().uuid(), attachmentId: text().uuid() });
// Not in the spec: GET .../attachments/{attachmentId}?native=true answers the file itself (its current
// version, in its own type) instead of its PDF rendition, for Intake's native export.
export const attachmentContentQuery = z.object({ native: z.enum(['true', 'false']).optional() });

// A file's name, on upload as on rename (end-user §4 "Attachments": names are editable).
export const MAX_FILE_NAME_LENGTH = 255;
export const attachmentFileName = text('File name').trim().min(1).max(MAX_FILE_NAME_LENGTH, attachmentMessages.fileNameTooLong);

// PUT /api/messages/{id}/attachments: the list with dates, meta, selection and names. Problems are keyed by
// the item's place in the list: on a received message (Intake) a document date after today is refused on save
// ('<index>.attachmentMeta.documentDate': 'Document Date must be equal or less than today.'), and a new name
// that passes 255 characters with the extension it keeps ('<index>.fileName') too.
export const attachmentUpdate = z.object({
  id: text().uuid(),
  isSelected: z.boolean().optional(),
  fileName: attachmentFileName.optional(),
  attachmentMeta: attachmentMetaInput.nullish(),
});
export const attachmentsUpdateBody = z.array(attachmentUpdate).max(100);

// PUT .../transforms: pages are 1-based as the viewer numbers them; `now` is accepted and ignored.
export const transformsBody = z.object({
  rotations: z.array(z.object({ page: z.number().int().min(1).max(10_000), degrees: z.number().int().min(-270).max(270) })).max(1000).default([]),
  deletions: z.array(z.number().int().min(1).max(10_000)).max(1000).default([]),
  now: text().max(64).optional(),
});
export type TransformsBody = z.infer<typeof transformsBody>;

export const convertQuery = z.object({ type: z.enum(['Pdf', 'Cda']) });

export const extensionsResponse = z.array(text());

// 202 while the rendition is being made (with Retry-After).
export const previewPending = z.object({ message: text(), previewAvailable: z.literal('Processing') });
