import { z } from 'zod';
import { text } from './text.ts';

// back-office-b §2 "E-signature connector" (/admin/docusign), §3 "E-signature account", §7 (issue 29 §7). The
// connector signs the platform in to an e-signature provider's account through the provider's OAuth sign-in window;
// ESIGNATURE_PROVIDER=sandbox (the only provider so far) is a sandbox served by this server that behaves like the
// provider's test mode (a sign-in page, an authorization code, a token exchange).

export const connectorMessages = {
  // Not worded in the spec.
  signInFailed: 'The sign-in could not be started.',
  signedIn: 'The e-signature account was connected.',
  deleted: 'The e-signature account was removed.',
  notDeleted: 'The e-signature account was not removed.',
  signInExpired: 'This sign-in link has expired. Start the sign-in again from the back office.',
  signInDenied: 'The sign-in was cancelled.',
  accountNameRequired: 'Account name is required.',
  emailInvalid: 'Enter a valid email address.',
} as const;

// back-office-b §9: the sign-in window is watched for up to 120 s.
export const SIGN_IN_WATCH_MS = 120_000;
export const SIGN_IN_POLL_MS = 500;

export const esignatureProviders = ['sandbox'] as const;
export type EsignatureProvider = (typeof esignatureProviders)[number];

export const externalLoginResponse = z.object({ url: text(), provider: z.enum(esignatureProviders) });

// §3: id, type; the rest says which account it is.
export const esignatureAccount = z.object({
  id: text(),
  type: text(),
  provider: z.enum(esignatureProviders),
  accountName: text(),
  email: text(),
  createdAt: text(),
});
export type EsignatureAccount = z.infer<typeof esignatureAccount>;
export const esignatureAccounts = z.array(esignatureAccount);
export const esignatureAccountParams = z.object({ id: text().uuid() });
