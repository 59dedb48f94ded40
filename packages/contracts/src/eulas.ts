import { z } from 'zod';
import { pageOf, sortDir } from './paging.ts';
import { text } from './text.ts';

// Terms documents (back-office-b "EULA / TOS"). The end-user calls are not in the spec: the onboarding terms
// dialog reads the active document of the organization's brand and records the caller's acceptance.

// GET /api/eulas/current: the active terms document the caller has to accept (404 when the brand has none).
export const currentTerms = z.object({
  id: text().uuid(),
  version: text(),
  type: z.enum(['EULA', 'Privacy']),
  brandName: text(),
  // Sanitized when uploaded; rendered as is.
  html: text(),
  acceptedAt: text().nullable(),
});
export type CurrentTerms = z.infer<typeof currentTerms>;

// POST /api/eulas/{id}/accept: { accepted: true } (the required checkbox) → the message below.
export const acceptTermsRequest = z.object({ accepted: z.literal(true, { error: 'You must accept the terms and conditions.' }) });
export const eulaMessages = {
  accepted: 'Thank you. The terms have been accepted.',
} as const;

// ---- Back office (back-office-b §2-§5 "EULA / TOS"; issue 14 §2). The spec shows no service calls for EULAs, so:
//   GET    /api/admin/eulas               the list (eulaQuery → eulaPage, the back office's paging contract)
//   POST   /api/admin/eulas               multipart: `file` (.html/.htm), `type`, `brandId`, `version` → eula
//   GET    /api/admin/eulas/{id}          one document with its sanitized html → eula
//   POST   /api/admin/eulas/{id}/activate → eula; the brand's previous active document of the same type is deactivated
//   DELETE /api/admin/eulas/{id}          → { ok: true }; refused while active or accepted (eulaMessages.inUse)
// What Privacy documents mean here (the spec is silent): a privacy notice published per brand and shown in the back
// office; only the active EULA-type document is asked at sign-in (GET /api/eulas/current) and counts for
// orgIsAcceptedEULA. A Privacy document can be acknowledged through the same accept call (recorded, nothing more).
export const eulaTypes = ['EULA', 'Privacy'] as const;
export type EulaType = (typeof eulaTypes)[number];

// A terms document is a text page: 1 MB is far above a real one (20-100 KB). Sanitizing 1 MB still takes seconds, so
// it runs in a file worker (apps/server/src/modules/eulas/sanitize.ts), never on the API's thread.
export const MAX_EULA_FILE_BYTES = 1024 * 1024;
export const EULA_VERSION_MAX = 10;
export const EULA_FILE_NAME_MAX = 255;
// back-office-b §5 "numeric with decimals": 1, 1.0, 2.15.
export const EULA_VERSION_PATTERN = /^\d+(\.\d+)?$/;

export const eulaAdminMessages = {
  // back-office-b §5.
  htmlRequired: 'You must select a html file.',
  fileRequired: 'You must select a file.',
  versionTaken: 'This eula version already exists, please enter a different version number.',
  // Not worded in the spec.
  versionRequired: 'Version is required.',
  versionInvalid: 'Version must be a number with decimals (for example 1.0).',
  versionTooLong: `Version must be at most ${EULA_VERSION_MAX} characters.`,
  typeRequired: 'Type is required.',
  brandRequired: 'Brand is required.',
  brandUnknown: 'Brand is not valid.',
  fileTooLarge: 'The file must be at most 1 MB.',
  fileNameTooLong: `The file name must be at most ${EULA_FILE_NAME_MAX} characters.`,
  htmlEmpty: 'The html file has no text to show.',
  // Nested too deeply, or too slow to sanitize.
  htmlTooComplex: 'The html file is too complex to show. Simplify it and try again.',
  inUse: 'An active or accepted terms document cannot be deleted.',
  // back-office-b §8 names 'not created', 'not activated', 'not deleted' without their wording.
  created: 'The terms document was created.',
  notCreated: 'The terms document was not created.',
  activated: 'The terms document was activated.',
  notActivated: 'The terms document was not activated.',
  deleted: 'The terms document was deleted.',
  notDeleted: 'The terms document was not deleted.',
  activateConfirm: 'Activating this version disables the current active version of this type for the brand and requires all users to accept the new one.',
  activatePrivacyConfirm: 'Activating this version disables the current active privacy notice of the brand. Privacy notices are published for reading: users are not asked to accept them at sign-in.',
  deleteConfirm: 'Delete this terms document? This cannot be undone.',
  // GET /api/eulas/current when the organization's brand has no active EULA (a fresh installation).
  noCurrent: 'There are no terms documents to accept.',
} as const;

// The text parts of the create form (multipart, with the `file` part); a missing part reads as ''.
export const eulaCreateFields = z.object({
  type: z.enum(eulaTypes, { error: eulaAdminMessages.typeRequired }),
  brandId: text('Brand').trim().min(1, eulaAdminMessages.brandRequired).max(50),
  version: text('Version')
    .trim()
    .min(1, { error: eulaAdminMessages.versionRequired, abort: true })
    .max(EULA_VERSION_MAX, eulaAdminMessages.versionTooLong)
    .regex(EULA_VERSION_PATTERN, eulaAdminMessages.versionInvalid),
});
export type EulaCreateFields = z.input<typeof eulaCreateFields>;

// back-office-b §3 "EULA / TOS": id, brand (id, name), version, type, active, totalUsers, html.
export const eula = z.object({
  id: text().uuid(),
  brand: z.object({ id: text(), name: text().nullable() }),
  version: text(),
  type: z.enum(eulaTypes),
  active: z.boolean(),
  // How many users accepted this document.
  totalUsers: z.number().int(),
  // Sanitized when uploaded. The list leaves it out (null); GET /{id} has it.
  html: text().nullable(),
  fileName: text(),
  activatedAt: text().nullable(),
  createDate: text(),
});
export type Eula = z.infer<typeof eula>;

export const eulaSortColumns = ['brand', 'version', 'type', 'active', 'totalUsers', 'createDate'] as const;
export const eulaQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  search: text().trim().max(200).optional(),
  sortDir: sortDir.optional(),
  col: z.enum(eulaSortColumns).optional(),
});
export type EulaQuery = z.input<typeof eulaQuery>;
export const eulaPage = pageOf(eula);
export type EulaPage = z.infer<typeof eulaPage>;
