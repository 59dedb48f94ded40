import { z } from 'zod';
import { text } from './text.ts';

// An organization's service accounts (API clients) and their allowed client IP addresses (back-office-a §2
// "serviceaccount" and "ipaddresses" tabs, §3 "Service account", §5, §8).

export const serviceAccountMessages = {
  empty: 'No Service Accounts Configured',
  limitSaved: 'The service account limit was saved successfully.',
  addressCountUpdated: 'Address count updated',
  addressCountFailed: 'Error updating address count',
  addressCountTooLow: (n: number) => `The number of Allowed Addresses cannot be lower than ${n}`,
  // Not worded in the spec.
  limitTooLow: (n: number) => `The service account limit cannot be lower than ${n}, the number of service accounts this organization has.`,
  addressesSaved: 'The IP addresses were saved successfully.',
  addressInvalid: (value: string) => `${value} is not a valid IPv4 or IPv6 address or CIDR range.`,
  tooManyAddresses: (n: number) => `This service account allows ${n} ${n === 1 ? 'address' : 'addresses'}; raise its Allowed Addresses first.`,
  duplicateAddress: (value: string) => `${value} is listed twice.`,
} as const;

// Not shown in the spec: the highest limits the back office accepts.
export const SERVICE_ACCOUNT_LIMIT_MAX = 100;
export const ALLOWED_ADDRESS_COUNT_MAX = 1000;

export const serviceAccount = z.object({
  id: text(),
  clientId: text(),
  serviceAccountEnabled: z.boolean(),
  clientIpAddresses: z.array(text()),
  allowedAddressCount: z.number().int(),
});
export type ServiceAccount = z.infer<typeof serviceAccount>;

export const countBody = (max: number) => z.object({ count: z.number({ error: 'Count must be a number.' }).int().min(0).max(max) });
export const serviceAccountLimit = z.object({ count: z.number().int() });
export const serviceAccountLimitBody = countBody(SERVICE_ACCOUNT_LIMIT_MAX);
export const addressCountBody = countBody(ALLOWED_ADDRESS_COUNT_MAX);
export const organizationIdParams = z.object({ id: text().uuid() });
export const serviceAccountParams = z.object({ id: text().uuid(), accountId: text().uuid() });

// Not in the catalog: PUT /api/organizations/{id}/serviceaccounts/{accountId}/ipaddresses replaces the account's list.
// Each entry is checked as an IPv4/IPv6 address or CIDR range by the server (node:net), which names the bad entry.
export const clientIpAddressesBody = z.object({ clientIpAddresses: z.array(text().trim().min(1).max(64)).max(ALLOWED_ADDRESS_COUNT_MAX) });
