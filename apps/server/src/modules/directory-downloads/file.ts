import { directoryDownloadColumns } from '@clinicrelay/contracts/directory-downloads.ts';
import { csvCell } from '../../platform/csv.ts';
import type { DirectoryRow } from './queries.ts';

const ENTITY_TYPE_NAMES: Record<number, string> = { 1: 'Provider', 2: 'Organization' };

// One CSV line (RFC 4180, CRLF; formula-looking cells start with ' as every export of the product does).
const line = (cells: readonly (string | null)[]) => `${cells.map((c) => csvCell(c)).join(',')}\r\n`;

export const headerLine = () => line(directoryDownloadColumns);

export const rowLine = (r: DirectoryRow) =>
  line([
    r.npi,
    ENTITY_TYPE_NAMES[r.entityType] ?? String(r.entityType),
    r.lastName,
    r.firstName,
    r.middleName,
    r.organizationName,
    r.clinicName,
    r.directAddress,
    r.phonePrimary,
    r.fax,
    r.addressLine1,
    r.city,
    r.state,
    r.zip,
    r.taxonomy,
    r.active ? 'Y' : 'N',
    r.importedAt.toISOString(),
  ]);

export const fileNameOf = (download: { type: string; mode: string; occurredAt: Date }) =>
  `directory_${download.type.toLowerCase()}_${download.mode.toLowerCase()}_${download.occurredAt.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.csv`;
