import { z } from 'zod';
import { sortDir } from './paging.ts';
import { limitError, text } from './text.ts';

// back-office-a §2 "Resellers", §3, §5, §7. Toasts and the in-use refusal are not in the spec; they follow its
// other back-office messages.
export const resellerMessages = {
  urlCodeCharacters: 'You must provide a valid Url Code. Valid characters are: 0-9 a-z _ -',
  urlInvalid: 'Url is not valid.',
  urlConsecutive: "Url can't use consecutive character ...",
  urlReserved: 'The Url Code contains a reserved word. Please enter a valid Url Code.',
  urlCodeExists: 'The Reseller Url Code already exists, please enter a different Url Code.',
  saved: 'The reseller was saved successfully.',
  deleted: 'The reseller was deleted successfully.',
  inUse: (count: number) => `This reseller is assigned to ${count} organization${count === 1 ? '' : 's'} and cannot be deleted.`,
} as const;

// §3 "Reseller types: 0 Affiliate, 1 Licensing" and "Colour codes".
export const RESELLER_TYPES = [
  { value: 0, label: 'Affiliate' },
  { value: 1, label: 'Licensing' },
] as const;
export const COLOR_CODES = [
  { value: 'ffffff', label: 'White' },
  { value: 'e6e9ed', label: 'Light Grey' },
  { value: '3f4449', label: 'Dark Grey' },
] as const;
// The register page (a later issue) lives at /register/{urlCode}.
export const REGISTER_PATH = '/register/';

export const RESELLER_TEXT_MAX = 255;
export const RESELLER_MESSAGE_MAX = 1000;
export const URL_CODE_MAX = 255;

/**
 * The first rule of §5 a URL code breaks, in the order the texts are listed; undefined when it keeps them all.
 * Reserved words and duplicates need the database and are checked by the server.
 */
export function urlCodeProblem(code: string): string | undefined {
  if (!/^[0-9a-zA-Z_-]+$/.test(code)) return resellerMessages.urlCodeCharacters;
  if (/[-_]{2}/.test(code)) return resellerMessages.urlConsecutive;
  // Not worded in the spec beyond "well-formed": a path segment that starts or ends with - or _ is refused too.
  if (/^[-_]|[-_]$/.test(code) || code.length > URL_CODE_MAX) return resellerMessages.urlInvalid;
  return undefined;
}

export const urlCode = text('Url Code')
  .trim()
  .superRefine((value, ctx) => {
    const problem = urlCodeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const optionalText = (label: string, max: number) => text(label).trim().max(max).nullish();

export const reseller = z.object({
  id: text(),
  type: z.number().int(),
  name: text(),
  affiliateUrlTag: text().nullable(),
  sponsor: text().nullable(),
  registrationText: text().nullable(),
  welcomeText: text().nullable(),
  welcomeMessageId: z.number().int().nullable(),
  urlCode: text().nullable(),
  // Read-only: <PUBLIC_URL>/register/{urlCode}.
  fullUrl: text().nullable(),
  // GET /api/resellers/{id}/logo (public: the register page shows it to visitors), versioned per logo.
  logoUrl: text().nullable(),
  logoFileName: text().nullable(),
  logoBackgroundColor: text().nullable(),
  bypassTos: z.boolean(),
  faxHandledByReseller: z.boolean(),
});
export type Reseller = z.infer<typeof reseller>;

export const resellerInput = z.object({
  type: z.literal([0, 1], { error: limitError('Type') }).default(0),
  name: text('Name').trim().min(1).max(RESELLER_TEXT_MAX),
  affiliateUrlTag: optionalText('Affiliate Url Tag', RESELLER_TEXT_MAX),
  sponsor: optionalText('Sponsor', RESELLER_TEXT_MAX),
  registrationText: optionalText('Registration text', RESELLER_MESSAGE_MAX),
  welcomeText: optionalText('Welcome text', RESELLER_MESSAGE_MAX),
  welcomeMessageId: z.number().int().min(0).max(2_147_483_647).nullish(),
  urlCode,
  logoBackgroundColor: z.enum(['ffffff', 'e6e9ed', '3f4449'], { error: limitError('Background colour') }).nullish(),
  bypassTos: z.boolean().default(false),
  faxHandledByReseller: z.boolean().default(false),
});
export type ResellerInput = z.input<typeof resellerInput>;

// pageSize=5000 is the full list (§9).
export const resellerQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(5000).default(10),
  search: text().trim().max(200).optional(),
  sortDir: sortDir.optional(),
});
export const resellerPage = z.object({ resellers: z.array(reseller), totalResellersCount: z.number().int() });

export const urlExistsQuery = z.object({ id: text().uuid().optional().or(z.literal('')), code: text().trim().max(URL_CODE_MAX) });
// GET /api/resellers/urlcode: the register URL a code would have, without saving anything.
export const urlCodeQuery = z.object({ urlCode });
export const urlCodeResponse = z.object({ urlCode: text(), fullUrl: text() });
