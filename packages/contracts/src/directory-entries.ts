import { z } from 'zod';
import { pageQuery } from './paging.ts';
import { jsonValue, text } from './text.ts';

// back-office-b §2 "Directory entries" (/admin/directory) and the catalog's /api/kno2directory rows (issue 29 §7).
// A directory entry is what Kno2's directory service holds: a provider or an organization published to the provider
// directory by the platform's operators (a partner's clinic, a HISP's address not in NPPES). It is free JSON; the
// fields below are the ones the directory reads, and every published entry is found by the end users' directory
// search (source 'Published'), for every organization. isSystemGenerated marks entries the platform wrote itself.

export const directoryEntryMessages = {
  // back-office-b §5 and §8.
  invalidJson: 'Invalid JSON in directory entry.',
  notDeleted: 'There was a problem deleting the directory entry',
  notUpdated: 'Error updating directory entry.',
  // Not worded in the spec.
  saved: 'The directory entry was saved.',
  deleted: 'The directory entry was deleted.',
  notObject: 'A directory entry must be a JSON object.',
  entryTypeRequired: 'The entry type must be Provider or Organization.',
  nameRequired: 'A Provider entry needs a lastName; an Organization entry needs an organizationName.',
  tooLarge: 'A directory entry must be at most 16 KB of JSON.',
  idRequired: 'The id and tenantId of the entry to update are required.',
  directAddressInvalid: 'The directAddress is not a valid Direct address.',
  npiInvalid: 'The npi must be 10 digits.',
  stateInvalid: 'The state must be a two-letter state code.',
  systemGeneratedReadOnly: 'isSystemGenerated is set by the platform and cannot be changed.',
} as const;

// The JSON text of one entry, as stored (bytes of its serialization).
export const DIRECTORY_ENTRY_MAX_BYTES = 16 * 1024;
// back-office-b §9: 400 ms for the directory's search box.
export const DIRECTORY_ENTRY_SEARCH_DEBOUNCE_MS = 400;
// The tenant of an entry no organization owns (published for the whole platform).
export const PLATFORM_TENANT = 'platform';

// GET /api/kno2directory/entrytypes: the NPPES entity types, as the directory search's two tabs.
export const directoryServiceEntryTypes = [
  { id: 1, name: 'Provider' },
  { id: 2, name: 'Organization' },
] as const;
export const directoryServiceEntryTypeNames = ['Provider', 'Organization'] as const;
export type DirectoryServiceEntryType = (typeof directoryServiceEntryTypeNames)[number];
export const directoryServiceEntryTypeList = z.array(z.object({ id: z.number().int(), name: text() }));

// An entry as the service answers it: the stored JSON, with the service's own fields always present.
export const directoryServiceEntry = z.looseObject({
  id: text(),
  tenantId: text(),
  entryType: z.enum(directoryServiceEntryTypeNames),
  isSystemGenerated: z.boolean(),
  createdAt: text(),
  updatedAt: text(),
});
export type DirectoryServiceEntry = z.infer<typeof directoryServiceEntry>;

// POST and PUT bodies are free JSON objects (checked by the service, which names the field at fault).
export const directoryServiceEntryBody = z.record(text(), jsonValue());

export const directoryServiceEntryQuery = pageQuery;
export const directoryServiceEntryPage = z.object({ items: z.array(directoryServiceEntry), totalCount: z.number().int() });
export const directoryServiceEntryParams = z.object({ tenantId: text().trim().min(1).max(64), id: text().uuid() });
export const directoryServiceSearchParams = z.object({ term: text('Search').trim().min(1).max(100) });

/** The JSON editor's text, pretty-printed as the modal shows it (two spaces). */
export const prettyEntryJson = (value: unknown) => JSON.stringify(value, null, 2);

/** The editor's text as an entry object, or null when it is not a JSON object. */
export function parseEntryJson(textValue: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(textValue);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
