import { isValidDirectAddress } from '@clinicrelay/contracts/delivery.ts';
import { directoryStateCodes } from '@clinicrelay/contracts/directory.ts';
import {
  DIRECTORY_ENTRY_MAX_BYTES,
  directoryEntryMessages as text,
  directoryServiceEntryTypeNames,
  PLATFORM_TENANT,
  type DirectoryServiceEntryType,
} from '@clinicrelay/contracts/directory-entries.ts';
import { badRequest } from '../../platform/errors.ts';
import { digitsOnly, nameKey, normalize, normalizeOrNull } from '../directory/normalize.ts';

// The service's own keys: never stored inside the free JSON (they live in columns), always answered with it.
export const SERVICE_KEYS = ['id', 'tenantId', 'entryType', 'isSystemGenerated', 'createdAt', 'updatedAt'] as const;

// The JSON keys the provider directory reads, named as the directory search's entries are (contracts/directory.ts).
const FIELD_KEYS = {
  npi: 'npi',
  lastName: 'lastName',
  firstName: 'firstName',
  middleName: 'middleName',
  organizationName: 'organizationName',
  clinicName: 'clinicName',
  phonePrimary: 'phonePrimary',
  fax: 'fax',
  addressLine1: 'standardizedAddressLine1',
  city: 'standardizedCity',
  state: 'standardizedState',
  zip: 'standardizedZip',
  taxonomy: 'taxonomy',
  directAddress: 'directAddress',
} as const;
type FieldName = keyof typeof FIELD_KEYS;

export type EntryColumns = { tenantId: string; entryType: DirectoryServiceEntryType; entityType: 1 | 2; data: Record<string, unknown> } & Record<FieldName, string | null> & {
    nameNorm: string;
    lastNorm: string | null;
    firstNorm: string | null;
    orgNorm: string | null;
    cityNorm: string | null;
  };

const invalid = (field: string, message: string) => badRequest(message, { [field]: [message] });

// A text field of the JSON: strings as given (trimmed, bounded), numbers as text, anything else absent.
function textOf(data: Record<string, unknown>, key: string, max = 200): string | null {
  const value = data[key];
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

/** The columns of an entry from its JSON, checked; the service keys are taken out of the stored JSON. */
export function entryColumns(body: Record<string, unknown>): EntryColumns {
  if (Buffer.byteLength(JSON.stringify(body)) > DIRECTORY_ENTRY_MAX_BYTES) throw invalid('entry', text.tooLarge);
  const entryType = body.entryType;
  if (!directoryServiceEntryTypeNames.includes(entryType as DirectoryServiceEntryType)) throw invalid('entryType', text.entryTypeRequired);
  const tenantText = textOf(body, 'tenantId', 64) ?? PLATFORM_TENANT;
  const data = Object.fromEntries(Object.entries(body).filter(([key]) => !(SERVICE_KEYS as readonly string[]).includes(key)));
  const fields = Object.fromEntries(Object.entries(FIELD_KEYS).map(([name, key]) => [name, textOf(data, key)])) as Record<FieldName, string | null>;
  const entityType = entryType === 'Organization' ? 2 : 1;
  if (entityType === 1 ? !fields.lastName : !fields.organizationName) throw invalid(entityType === 1 ? 'lastName' : 'organizationName', text.nameRequired);
  if (fields.directAddress) {
    if (!isValidDirectAddress(fields.directAddress)) throw invalid('directAddress', text.directAddressInvalid);
    fields.directAddress = fields.directAddress.toLowerCase();
  }
  if (fields.npi && !/^\d{10}$/.test(fields.npi)) throw invalid('npi', text.npiInvalid);
  if (fields.state) {
    fields.state = fields.state.toUpperCase();
    if (!directoryStateCodes.includes(fields.state)) throw invalid('standardizedState', text.stateInvalid);
  }
  fields.zip = digitsOnly(fields.zip) || null;
  fields.phonePrimary = digitsOnly(fields.phonePrimary) || null;
  fields.fax = digitsOnly(fields.fax) || null;
  return {
    tenantId: tenantText,
    entryType: entryType as DirectoryServiceEntryType,
    entityType,
    data,
    ...fields,
    nameNorm: nameKey({ entityType, ...fields }),
    lastNorm: normalizeOrNull(fields.lastName),
    firstNorm: normalizeOrNull(fields.firstName),
    orgNorm: normalizeOrNull(fields.organizationName ?? fields.clinicName),
    cityNorm: normalizeOrNull(fields.city),
  };
}

export const searchTermOf = (term: string | undefined) => normalize(term) || undefined;
