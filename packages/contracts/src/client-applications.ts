import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-b "Client application" (issue 29 §1). The spec gives no wording for the success messages nor the
// errors' exceptionMessage: these follow its other back-office messages.
export const clientApplicationMessages = {
  saved: 'The client application was saved successfully.',
  deleted: 'The client application was deleted successfully.',
  credentialsReset: 'New credentials were generated. The previous secret no longer works.',
  notFound: 'The client application was not found.',
  nameExists: 'A client application with this name already exists.',
  invalidUrl: 'Enter an absolute http or https URL.',
  organizationNotFound: 'The organization was not found.',
  secretShownOnce: 'Copy the secret now: it is shown only once and cannot be retrieved later.',
  resetConfirm: 'Generate new credentials? The existing client secret, and every token issued with it, will stop working at once.',
} as const;

export const CLIENT_APPLICATION_TEXT_MAX = 2000;
export const CLIENT_APPLICATION_NAME_MAX = 255;

const url = (label: string) =>
  text(label)
    .trim()
    .min(1)
    .max(CLIENT_APPLICATION_TEXT_MAX)
    // An empty field says only that it is required.
    .refine((v) => v === '' || (/^https?:\/\/[^\s/?#]+/i.test(v) && URL.canParse(v)), clientApplicationMessages.invalidUrl);

// The four fields of the form (all required, back-office-b §5), plus the organization a client-credentials integration
// acts for (not in the spec; Kno2 binds a system integration to one organization).
export const clientApplicationInput = z.object({
  name: text('Name').trim().min(1).max(CLIENT_APPLICATION_NAME_MAX),
  logoUrl: url('Logo URL'),
  redirectURI: url('Redirect URL'),
  applicationUrl: url('Application URL'),
  organizationId: text().uuid().nullish(),
});
export type ClientApplicationInput = z.input<typeof clientApplicationInput>;

export const clientApplication = z.object({
  id: text(),
  name: text(),
  logoUrl: text(),
  redirectURI: text(),
  applicationUrl: text(),
  clientId: text(),
  organizationId: text().nullable(),
  organizationName: text().nullable(),
  credentialsIssuedAt: text(),
  // Only in the answer to the first save and to a regeneration: the secret is never stored nor shown again.
  secret: text().optional(),
});
export type ClientApplication = z.infer<typeof clientApplication>;

export const clientApplicationSort = z.enum(['name', 'logoUrl', 'redirectURI', 'applicationUrl', 'clientId']);
export const clientApplicationQuery = pageQuery.extend({ col: clientApplicationSort.optional() });
export type ClientApplicationQuery = z.infer<typeof clientApplicationQuery>;
export const clientApplicationPage = pageOf(clientApplication);
