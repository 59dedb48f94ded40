import { z } from 'zod';
import { text } from './text.ts';

// An organization's accounts with the two fax providers (back-office-a §2 "Fax accounts", §8 "Fax"; end-user §7
// "Fax and other"). Only the sandbox adapter exists: no carrier is reached, and the screens and answers say so.

export const faxAccountMessages = {
  // §8: the brand name stands where the original product's name stood ("a Kno2 eFax account").
  efaxFailed: (brand: string, org: string) => `There was an error creating a ${brand} eFax account for ${org}`,
  westfaxCreated: (org: string) => `Successfully created WestFax account for ${org}!`,
  westfaxUpdated: (org: string) => `Successfully updated WestFax account for ${org}!`,
  westfaxSynced: (org: string) => `Successfully synced WestFax account for ${org}!`,
  groupNameCopied: 'Group Name copied to your clipboard',
  noSubdomain: 'No SubDomain',
  // Not worded in the spec.
  noSubdomainDetail: 'This organization has no subdomain. Set its subdomain on the details tab before creating a fax account.',
  efaxSaved: (org: string) => `Successfully saved eFax account for ${org}!`,
  groupNameTaken: 'This group name is already used by another organization.',
  groupNameRequired: 'Group Name is required for a customer-provided eFax account.',
  westfaxDeleted: 'The WestFax account was deleted.',
  westfaxMissing: 'This organization has no WestFax account.',
  numberAdded: 'The fax number was added.',
  numberRemoved: 'The fax number was removed.',
  numberInvalid: 'Please enter a 10-digit fax number.',
  numberTaken: 'This fax number is already on a WestFax account.',
  sandbox: 'Sandbox: fax accounts are simulated; no fax carrier is contacted.',
} as const;

// §2: a sub group of the provider's group, or an account the customer brings.
export const efaxAccountType = z.enum(['Kno2EFaxAccount', 'EFaxAccount']);
export type EfaxAccountType = z.infer<typeof efaxAccountType>;
export const efaxAccountTypeLabels: Record<EfaxAccountType, string> = {
  Kno2EFaxAccount: 'Sub group of our eFax group',
  EFaxAccount: 'Customer-provided eFax account',
};

export const efaxAccount = z.object({ groupName: text(), accountType: efaxAccountType, modifiedDate: text() });
export const westfaxAccount = z.object({ username: text(), numbers: z.array(text()), syncedAt: text().nullable(), createdDate: text() });
export type WestfaxAccount = z.infer<typeof westfaxAccount>;

/** GET /api/organizations/{id}/faxaccounts (not in the catalog: what the efax and westfax tabs show). */
export const faxAccounts = z.object({
  organizationName: text(),
  subdomain: text(),
  // The provider adapter in use; 'sandbox' is the only one.
  provider: z.literal('sandbox'),
  eFaxAccount: efaxAccount.nullable(),
  westFaxAccount: westfaxAccount.nullable(),
});
export type FaxAccounts = z.infer<typeof faxAccounts>;

// PUT/POST /api/efax/account/kno2: a Kno2EFaxAccount's group name is made from the organization's subdomain when
// none is given; an EFaxAccount names the customer's own group.
export const efaxAccountSave = z.object({
  organizationId: text().uuid(),
  accountType: efaxAccountType,
  groupName: text('Group Name').trim().max(255).optional(),
});
export const efaxAccountResult = z.object({ message: text(), eFaxAccount: efaxAccount });

// PUT /api/westfax/account: generates the organization's sub account, or resets its password when it has one.
export const westfaxAccountSave = z.object({ organizationId: text().uuid() });
// The password is shown once, when it is made; it is never stored here (the carrier keeps it).
export const westfaxAccountResult = z.object({ message: text(), westFaxAccount: westfaxAccount, password: text().optional() });
export const westfaxParams = z.object({ id: text().uuid() });
export const westfaxNumberParams = z.object({ id: text().uuid(), number: text().max(20) });
export const westfaxNumberAdd = z.object({ number: text('Fax number').trim().min(1).max(20) });
