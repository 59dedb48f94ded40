import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// An organization's Direct addresses and fax numbers as the back office manages them (issue 11 "Direct tab";
// end-user §7 "Fax and other"). The end user's own list (GET /api/documentsources) is `documentSource` in messages.ts.

// end-user §3 document source status.
export const DOCUMENT_SOURCE_STATUS = { Provisioning: 0, Activated: 1, PendingUpdate: 2, PendingDeletion: 3, Deleted: 4, Failed: 5 } as const;
export const documentSourceStatusNames = ['Provisioning', 'Activated', 'Pending Update', 'Pending Deletion', 'Deleted', 'Failed'] as const;
export const documentSourceStatusName = (status: number) => documentSourceStatusNames[status] ?? String(status);
// Not shown in the spec: an address is in service (offered as From, receives, assignable) once activated and while an
// update is pending at the carrier; Provisioning, Pending Deletion, Deleted and Failed ones are not.
export const IN_SERVICE_STATUSES = [DOCUMENT_SOURCE_STATUS.Activated, DOCUMENT_SOURCE_STATUS.PendingUpdate] as const;

// Not worded in the spec; these follow its other back-office messages.
export const documentSourceMessages = {
  saved: 'The address was saved successfully.',
  activated: 'The address was activated.',
  removed: 'The address was removed.',
  statusSaved: 'The fax status was saved.',
  addressTaken: 'This address is already in use, please enter a different one.',
  directInvalid: 'Please enter a valid Direct address.',
  // {domain} is the organization's subdomain followed by a dot: addresses of this installation are name@{subdomain}.….
  directDomain: 'A Direct address of this organization must end in @{domain}…',
  faxInvalid: 'Please enter a 10-digit fax number.',
  deletedIsFinal: 'This address was deleted and can no longer be changed.',
  faxOnly: 'The fax status applies to fax numbers only.',
  // Issue 13 §3: an organization's Administrator requests addresses; a system administrator activates them.
  directRequested: 'The Direct address was requested. It stays Provisioning until a system administrator activates it.',
  madeGlobal: 'Every user of the organization can now send from this address.',
  madePersonal: 'Only the users given this address can now send from it.',
  sandboxFaxAssigned: (number: string) => `Sandbox fax provider: ${number} was assigned from the test range 555-0100–555-0199. It reaches no real fax carrier.`,
  noSandboxFaxNumber: 'The sandbox fax provider has no free number left in its test range.',
} as const;

export const documentSourceType = z.enum(['DirectMessaging', 'Fax']);
export type DocumentSourceType = z.infer<typeof documentSourceType>;
// The catalog writes type=fax: the type is matched without regard to case.
const typeParam = z.preprocess((v) => (typeof v === 'string' ? documentSourceType.options.find((o) => o.toLowerCase() === v.toLowerCase()) ?? v : v), documentSourceType);

const DIRECT = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** A Direct address as stored: trimmed, lower case. */
export const normalizeDirectAddress = (value: string) => value.trim().toLowerCase();
/** A fax number as stored: its 10 digits (a leading country code 1 dropped), or null when it is not one. */
export function normalizeFaxNumber(value: string): string | null {
  if (!/^[\d\s().+-]+$/.test(value.trim())) return null;
  const digits = value.replace(/\D/g, '');
  const local = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return /^[2-9]\d{9}$/.test(local) ? local : null;
}
export const isDirectAddress = (value: string) => DIRECT.test(normalizeDirectAddress(value)) && value.trim().length <= 254;

// The form and the body check the address for its type; the organization's domain is checked by the server.
const addressFor = <T extends { type: DocumentSourceType; fullAddress: string }>(value: T, ctx: z.RefinementCtx) => {
  // Empty and too long are said once, by min and max.
  if (value.fullAddress === '' || value.fullAddress.length > 255) return;
  const ok = value.type === 'Fax' ? normalizeFaxNumber(value.fullAddress) !== null : isDirectAddress(value.fullAddress);
  if (!ok) ctx.addIssue({ code: 'custom', path: ['fullAddress'], message: value.type === 'Fax' ? documentSourceMessages.faxInvalid : documentSourceMessages.directInvalid });
};

export const adminDocumentSource = z.object({
  id: text(),
  organizationId: text(),
  organizationName: text(),
  type: documentSourceType,
  fullAddress: text(),
  status: z.number().int(),
  statusName: text(),
  createdDate: text(),
  // Issue 13 §2: every active user of the organization may send from it.
  isGlobal: z.boolean(),
});
export type AdminDocumentSource = z.infer<typeof adminDocumentSource>;
// Not in the spec: a list item also names who may send from the address (PUT /api/users/{id}/documentsources).
export const documentSourceSender = z.object({ userId: text(), fullName: text() });
export const adminDocumentSourceListItem = adminDocumentSource.extend({ senders: z.array(documentSourceSender).default([]) });
export type AdminDocumentSourceListItem = z.infer<typeof adminDocumentSourceListItem>;
export const adminDocumentSourcePage = pageOf(adminDocumentSourceListItem);

// Not in the spec (issue 13 §3): POST /api/admin/documentsources/faxnumber orders a new fax number for the
// organization from the fax provider; the sandbox provider assigns one from the fictional range 555-0100–555-0199.
export const faxNumberRequest = z.object({ organizationId: text().uuid() });
export const faxNumberOrdered = adminDocumentSource.extend({ provider: text(), notice: text() });
export type FaxNumberOrdered = z.infer<typeof faxNumberOrdered>;

export const adminDocumentSourceQuery = pageQuery.extend({
  type: typeParam.optional(),
  // Not in the catalog: the organization's Direct tab lists its own addresses.
  organizationId: text().uuid().optional(),
});

export const documentSourceCreate = z
  .object({ organizationId: text().uuid(), type: documentSourceType, fullAddress: text('Address').trim().min(1).max(255) })
  .superRefine(addressFor);
// PUT on the base path (the catalog): the id travels in the body; the type of an address does not change.
export const documentSourceUpdate = z
  .object({ id: text().uuid(), type: documentSourceType, fullAddress: text('Address').trim().min(1).max(255) })
  .superRefine(addressFor);
// DELETE on the base path (the catalog lists it without an id): the id is the query's `id`.
export const documentSourceDeleteQuery = z.object({ id: text().uuid() });
// Not in the spec (issue 13 §2): PUT /api/admin/documentsources/{id}/global makes an address every user's, or not.
export const documentSourceGlobalUpdate = z.object({ isGlobal: z.boolean() });
export const documentSourceExistsQuery = z.object({ val: text().trim().min(1).max(255) });
export const faxStatusUpdate = z.object({ status: z.number().int().min(0).max(5) });

export const documentSourceProvider = z.object({ id: z.number().int(), name: text(), type: documentSourceType });
export const documentSourceProviderQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  type: typeParam.optional(),
});
export const documentSourceProviderPage = pageOf(documentSourceProvider);
