import { z } from 'zod';
import { sortDir } from './paging.ts';
import { text } from './text.ts';

// back-office-a §2 "Partners", §3, §5, §7. The spec shows no toasts for partners; these follow its other
// back-office messages.
export const partnerMessages = {
  saved: 'The partner was saved successfully.',
  deleted: 'The partner was deleted successfully.',
} as const;

export const PARTNER_NAME_MAX = 255;
const WEB_ADDRESS = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

// logo: the path the logo is served at (GET /api/partners/{id}/logo, versioned so a new logo is fetched anew);
// url: the partner's web address. Audit fields as the Organization entity names them.
export const partner = z.object({
  id: text(),
  name: text(),
  url: text().nullable(),
  logo: text().nullable(),
  logoFileName: text().nullable(),
  createdBy: text().nullable(),
  createDate: text(),
  modifiedBy: text().nullable(),
  modifiedDate: text(),
});
export type Partner = z.infer<typeof partner>;

// PUT /api/partners creates when the partner has no id and updates the one it names otherwise (§7 names one call).
// The edit modal shows the name only; url is kept for API clients, and left as it is when absent.
export const partnerInput = z.object({
  id: text().uuid().nullish(),
  name: text('Name').trim().min(1).max(PARTNER_NAME_MAX),
  url: text('Url').trim().max(PARTNER_NAME_MAX).regex(WEB_ADDRESS, 'Url is not valid.').or(z.literal('')).nullish(),
});
export type PartnerInput = z.input<typeof partnerInput>;

export const partnerSortColumns = ['name', 'createDate'] as const;
export const partnerQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  search: text().trim().max(200).optional(),
  sortDir: sortDir.optional(),
  col: z.enum(partnerSortColumns).optional(),
});
export const partnerPage = z.object({ items: z.array(partner), totalCount: z.number().int() });
