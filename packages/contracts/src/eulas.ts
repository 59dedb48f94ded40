import { z } from 'zod';
import { text } from './text.ts';

// Terms documents (back-office-b "EULA / TOS"). The end-user calls are not in the spec: the onboarding terms
// dialog reads the active document of the organization's brand and records the caller's acceptance.

// GET /api/eulas/current: the active terms document the caller has to accept (404 when the brand has none).
export const currentTerms = z.object({
  id: z.uuid(),
  version: text(),
  type: z.enum(['EULA', 'Privacy']),
  brandName: text(),
  // Sanitized when uploaded; rendered as is.
  html: text(),
  acceptedAt: z.iso.datetime().nullable(),
});
export type CurrentTerms = z.infer<typeof currentTerms>;

// POST /api/eulas/{id}/accept: { accepted: true } (the required checkbox) → the message below.
export const acceptTermsRequest = z.object({ accepted: z.literal(true, { error: 'You must accept the terms and conditions.' }) });
export const eulaMessages = {
  accepted: 'Thank you. The terms have been accepted.',
} as const;
