import type { DirectoryAddressCheck, DirectoryEntry } from '@clinicrelay/contracts/directory.ts';

// How directory entries and address checks read on screen (end-user §2 "Find Provider dialog").

const join = (parts: (string | null | undefined)[], separator: string) => parts.filter((part) => part?.trim()).join(separator);

/** A provider as "Last, First Middle"; an organization by its name. */
export function entryName(entry: DirectoryEntry): string {
  const person = join([entry.lastName, join([entry.firstName, entry.middleName], ' ')], ', ');
  const organization = entry.organizationName ?? entry.clinicName ?? '';
  // An entry without the name its kind expects falls back to the other one (hand-added contacts may lack it).
  return (entry.entityType === 2 ? organization || person : person || organization) || 'Unnamed entry';
}

/** The line under the name: a provider's clinic or organization; an organization's clinic when it differs. */
export function entryAffiliation(entry: DirectoryEntry): string | null {
  const affiliation = entry.entityType === 2 ? entry.clinicName : (entry.clinicName ?? entry.organizationName);
  return affiliation && affiliation !== entryName(entry) ? affiliation : null;
}

// A nine-digit zip is shown as ZIP+4 (98101-1234), the way US addresses are written.
const formatZip = (zip: string | null) => (zip && /^\d{9}$/.test(zip) ? `${zip.slice(0, 5)}-${zip.slice(5)}` : zip);

/** The standardized address as two lines: street, then "City, ST zip"; null when the entry has none. */
export function entryPlace(entry: DirectoryEntry): { street: string | null; city: string | null } {
  const city = join([entry.standardizedCity, join([entry.standardizedState, formatZip(entry.standardizedZip)], ' ')], ', ');
  return { street: entry.standardizedAddressLine1?.trim() || null, city: city || null };
}

/**
 * Who a checked Direct address belongs to, as the To field notes it; null for an invalid address (the form
 * says that). An address the directory does not know is only noted: senders may know addresses it lacks.
 */
export function addressOwner(check: DirectoryAddressCheck): string | null {
  if (check.status === 'Invalid') return null;
  if (check.status === 'Unknown' && !check.hosted) return 'not in the directory';
  const who = join([...new Set([check.name, check.organizationName])], ', ');
  if (!check.hosted) return who || 'in the directory';
  return who ? `${who} (hosted here)` : 'hosted here';
}
