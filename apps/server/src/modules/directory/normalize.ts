// The search form of a directory value, written by the importer and the contacts calls and applied to what a user
// types, so that "Nguyễn", "NGUYEN" and "nguyen" meet: lower case, accents removed, apostrophes dropped
// ("O'Connor" → "oconnor"), every other run of non-alphanumerics one space. The result is ASCII [a-z0-9 ], which
// the C-collated columns order byte-wise: a space sorts before any letter, so "smith john" comes before
// "smithers al" and whole-word matches lead a prefix search.
export function normalize(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[œ]/g, 'oe')
    .replace(/[ø]/g, 'o')
    .replace(/[đð]/g, 'd')
    .replace(/[ł]/g, 'l')
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export const normalizeOrNull = (value: string | null | undefined): string | null => normalize(value) || null;

/** The ordering name of an entry: individuals "last first middle", organizations their name. */
export function nameKey(entry: { entityType: number; lastName?: string | null; firstName?: string | null; middleName?: string | null; organizationName?: string | null }): string {
  return entry.entityType === 2
    ? normalize(entry.organizationName)
    : [entry.lastName, entry.firstName, entry.middleName].map(normalize).filter(Boolean).join(' ');
}

/** Digits only: zips, phone and fax numbers. */
export const digitsOnly = (value: string | null | undefined): string => (value ?? '').replace(/\D/g, '');
