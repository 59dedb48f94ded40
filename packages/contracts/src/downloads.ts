import { z } from 'zod';
import { sortDir } from './paging.ts';
import { text } from './text.ts';

// end-user §7 "Fax and other" (downloads), back-office-b §2-§5 "Downloads" and issue 13 §7: the files the platform
// publishes for organizations (desktop apps, print drivers), uploaded and activated in the back office.
export const downloadMessages = {
  // back-office-b §5.
  fileRequired: 'You must select a file.',
  // Not worded in the spec (§8 names 'not created', 'not activated', 'not deleted' without their wording).
  versionTaken: 'This version already exists for this download tag, please enter a different version.',
  brandUnknown: 'Brand is not valid.',
  fileTooLarge: 'The file must be at most 100 MB.',
  fileNameTooLong: 'The file name must be at most 255 characters.',
  infected: (signature: string) => `This file contains a virus or malware (${signature}) and was not uploaded.`,
  scannerUnavailable: 'The virus scanner is unavailable. Try again in a few minutes.',
  saved: 'The download was saved successfully.',
  notCreated: 'The download was not created.',
  notUpdated: 'The download was not updated.',
  activated: 'The download was activated.',
  deactivated: 'The download was deactivated.',
  notActivated: 'The download was not activated.',
  notDeactivated: 'The download was not deactivated.',
  deleted: 'The download was deleted successfully.',
  notDeleted: 'The download was not deleted.',
  linkCopied: 'The download link was copied.',
  // The organization's Downloads page (not in the spec).
  empty: 'Nothing has been published for download yet.',
  downloadFailed: 'Unable to download the file.',
} as const;

// back-office-b §5: displayName and downloadTag max 255, os max 50, version max 20; the rest are bounded here.
export const DOWNLOAD_TEXT_MAX = 255;
export const DOWNLOAD_OS_MAX = 50;
export const DOWNLOAD_VERSION_MAX = 20;
export const DOWNLOAD_DESCRIPTION_MAX = 2000;
export const DOWNLOAD_FILE_NAME_MAX = 255;
// Installers and print drivers; the file is held in memory while scanned and encrypted, so it stays bounded.
export const MAX_DOWNLOAD_FILE_BYTES = 100 * 1024 * 1024;

const optionalText = (label: string, max: number) =>
  text(label)
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);

export const downloadPlatform = z.object({
  os: optionalText('OS', DOWNLOAD_OS_MAX),
  version: optionalText('Platform version', DOWNLOAD_VERSION_MAX),
  supportedVersions: optionalText('Supported versions', DOWNLOAD_TEXT_MAX),
});

// The Downloadable file entity of back-office-b §3 without its file: the JSON body of PUT /{id}/update and the text
// fields of POST /upload (multipart parts named as ASP.NET binds them: platform.os, platform.version, …).
// version is unique per downloadTag (the spec says "unique"; one tag is one product, whose versions differ).
export const downloadInput = z.object({
  displayName: text('Display name').trim().min(1).max(DOWNLOAD_TEXT_MAX),
  downloadTag: text('Download tag').trim().min(1).max(DOWNLOAD_TEXT_MAX),
  name: optionalText('Name', DOWNLOAD_TEXT_MAX),
  description: optionalText('Description', DOWNLOAD_DESCRIPTION_MAX),
  // Null: every brand.
  brandId: optionalText('Brand', 50),
  platform: downloadPlatform.default({ os: null, version: null, supportedVersions: null }),
  isDownloadable: z.boolean().default(true),
  downloadOnFree: z.boolean().default(true),
  isVisible: z.boolean().default(true),
  version: optionalText('Version', DOWNLOAD_VERSION_MAX),
});
export type DownloadInput = z.input<typeof downloadInput>;

export const download = z.object({
  id: text(),
  displayName: text(),
  downloadTag: text(),
  name: text().nullable(),
  description: text().nullable(),
  brandId: text().nullable(),
  brandName: text().nullable(),
  platform: z.object({ os: text().nullable(), version: text().nullable(), supportedVersions: text().nullable() }),
  isDownloadable: z.boolean(),
  downloadOnFree: z.boolean(),
  isVisible: z.boolean(),
  isActive: z.boolean(),
  version: text().nullable(),
  fileName: text(),
  sizeInBytes: z.number().int(),
  contentType: text(),
  sha256: text(),
  // The link of back-office-b §2's copy-link action: GET /api/downloads/{id}/download.
  downloadUrl: text(),
  createDate: text(),
  modifiedDate: text(),
});
export type Download = z.infer<typeof download>;

// GET /api/downloads: what an organization's users may see (no brand or plan settings, no checksums they need not).
export const publishedDownload = download.pick({
  id: true,
  displayName: true,
  name: true,
  description: true,
  platform: true,
  version: true,
  isDownloadable: true,
  fileName: true,
  sizeInBytes: true,
  downloadUrl: true,
  modifiedDate: true,
});
export type PublishedDownload = z.infer<typeof publishedDownload>;
export const publishedDownloads = z.array(publishedDownload);

export const downloadSortColumns = ['displayName', 'downloadTag', 'version', 'createDate'] as const;
export const downloadQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  search: text().trim().max(200).optional(),
  sortDir: sortDir.optional(),
  col: z.enum(downloadSortColumns).optional(),
});
export const downloadPage = z.object({ items: z.array(download), totalCount: z.number().int() });
