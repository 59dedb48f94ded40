import { z } from 'zod';
import { text } from './text.ts';

// Carequality under an organization (back-office-a §2 "Carequality tabs", §3 "Alternate OID", "Directory entry",
// responder types, §4, §5, §7; issue 11 §2 "Carequality tab").

export const carequalityMessages = {
  noOids: 'No alternate OIDs have been configured.',
  noEntries: 'No Directory Entries have been configured.',
  // Not worded in the spec; these follow its other back-office messages.
  oidSaved: 'The alternate OID was saved successfully.',
  oidSaveFailed: 'There was an error saving the alternate OID.',
  oidDeleted: 'The alternate OID was deleted successfully.',
  oidInvalid: 'Please enter a valid OID: numbers separated by dots, such as 2.16.840.1.113883.3.72.',
  oidTaken: 'This OID is already configured for this organization.',
  entrySaved: 'The directory entry was saved successfully.',
  entryActivated: 'The directory entry was activated.',
  entryDeactivated: 'The directory entry was deactivated.',
  synced: (n: number) => `${n} directory ${n === 1 ? 'entry was' : 'entries were'} synced with the Carequality directory (sandbox).`,
  syncNeedsOids: 'Choose at least one OID to sync.',
  syncUnknownOids: (oids: string[]) => `These OIDs are not configured for this organization: ${oids.join(', ')}`,
  sandbox: 'Sandbox: the Carequality directory is simulated; sync marks the entries as synced without publishing them.',
} as const;

export const OID_MAX = 255;
// An ISO OID (dotted decimal, first arc 0-2); "urn:oid:" in front is accepted and dropped.
const OID = /^[0-2](\.(0|[1-9]\d*))+$/;
export const normalizeOid = (value: string) => value.trim().replace(/^urn:oid:/i, '');
export const isOid = (value: string) => OID.test(normalizeOid(value));

export const alternateOid = z.object({ id: text(), organizationId: text(), value: text(), isDefault: z.boolean() });
export type AlternateOid = z.infer<typeof alternateOid>;
export const alternateOidSave = z.object({
  // PUT sends the id of the OID it changes; POST has none.
  id: text().uuid().optional(),
  organizationId: text().uuid().optional(),
  // Empty and too long are said once, by min and max.
  value: text('Value').trim().min(1).max(OID_MAX).refine((v) => v === '' || v.length > OID_MAX || isOid(v), carequalityMessages.oidInvalid),
  isDefault: z.boolean().default(false),
});
export type AlternateOidSave = z.input<typeof alternateOidSave>;
export const organizationParams = z.object({ id: text().uuid() });
export const oidParams = z.object({ id: text().uuid(), oidId: text().uuid() });

// §3: the responder types; a new entry has none chosen (§4).
export const responderTypes = ['DirectResponder', 'ChildLocation', 'GatewayResponder', 'GatewayMember', 'InitiatorOnly'] as const;
export const responderType = z.enum(responderTypes, { error: 'Responder Type is required.' });

const required = (label: string) => text(label).trim().min(1).max(255);
const optional = (label: string) => text(label).trim().max(255).nullable().optional();

export const directoryEntry = z.object({
  id: text().nullable(),
  organizationId: text(),
  parentOrgId: text().nullable(),
  isParent: z.boolean(),
  isActive: z.boolean(),
  responderType: responderType.nullable(),
  address: text(),
  city: text(),
  state: text(),
  zipCode: text(),
  country: text(),
  purposeOfUseCodes: z.array(text()),
  displayName: text(),
  legalName: text().nullable(),
  homeCommunityId: text().nullable(),
  otherNames: z.array(text()),
  initiatorOnly: z.boolean(),
  syncedAt: text().nullable(),
});
export type DirectoryEntry = z.infer<typeof directoryEntry>;
// GET …/directoryentries: the entries, and a new entry prefilled from the organization (§4) for the add modal.
export const directoryEntryList = z.object({ items: z.array(directoryEntry), totalCount: z.number().int(), newEntry: directoryEntry });

// §5: responder type, organizationId, displayName, street, city, state, zip and country are required. The
// purpose-of-use codes are read-only (the organization's allowed codes); InitiatorOnly sets initiatorOnly (§4).
export const directoryEntrySave = z.object({
  id: text().uuid().nullable().optional(),
  organizationId: text('Organization').uuid(),
  parentOrgId: optional('Parent organization'),
  isParent: z.boolean().default(false),
  isActive: z.boolean().default(true),
  responderType,
  address: required('Street'),
  city: required('City'),
  state: required('State'),
  zipCode: required('Zip Code'),
  country: required('Country').default('US'),
  displayName: required('Display Name'),
  legalName: optional('Legal Name'),
  homeCommunityId: optional('Home Community Id').refine((v) => !v || isOid(v), carequalityMessages.oidInvalid),
  otherNames: z.array(text('Other names').trim().min(1).max(255)).max(20).default([]),
  initiatorOnly: z.boolean().default(false),
});
export type DirectoryEntrySave = z.input<typeof directoryEntrySave>;

export const directorySyncBody = z.object({ oids: z.array(text().trim().min(1).max(OID_MAX)).max(100) });
export const directorySyncResult = z.object({ message: text(), synced: z.number().int() });
