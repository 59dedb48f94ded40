import type { EndpointRow, EntryRow } from './rows.ts';

// The SQL of the import: temporary staging tables that COPY fills, and the statements that move staged rows into
// directory_entries and directory_endpoints.

// Every column the importer writes from a row, besides npi, entity_type and active.
const DATA = [
  'last_name',
  'first_name',
  'middle_name',
  'organization_name',
  'clinic_name',
  'phone_primary',
  'fax',
  'address_line1',
  'city',
  'state',
  'zip',
  'taxonomy',
  'official_last_name',
  'official_first_name',
  'official_middle_name',
  'official_name_prefix',
  'official_name_suffix',
  'official_credential',
  'official_title',
  'official_phone',
  'organization_subpart',
  'name_norm',
  'last_norm',
  'first_norm',
  'org_norm',
  'city_norm',
] as const;

export const ENTRY_STAGE = {
  table: 'directory_import_entries',
  columns: ['line', 'npi', 'entity_type', 'active', ...DATA],
} as const;

export const ENDPOINT_STAGE = {
  table: 'directory_import_endpoints',
  columns: ['seq', 'npi', 'address', 'affiliation_name', 'source_file'],
} as const;

export const CREATE_STAGING = [
  `CREATE TEMP TABLE IF NOT EXISTS ${ENTRY_STAGE.table} (line integer NOT NULL, npi text NOT NULL, entity_type smallint, active boolean NOT NULL,
    ${DATA.map((c) => `${c} text`).join(', ')}) ON COMMIT DELETE ROWS`,
  `CREATE TEMP TABLE IF NOT EXISTS ${ENDPOINT_STAGE.table} (seq bigint NOT NULL, npi text NOT NULL, address text NOT NULL, affiliation_name text, source_file text)`,
  `TRUNCATE ${ENDPOINT_STAGE.table}`,
];

export const DROP_STAGING = [`DROP TABLE IF EXISTS ${ENTRY_STAGE.table}`, `DROP TABLE IF EXISTS ${ENDPOINT_STAGE.table}`];

// A staged row with names replaces the stored values; one without (a deactivation, which NPPES writes blank but for
// its NPI and dates) keeps them and only changes active. A new NPI without names is skipped: nothing to show.
// New entries take their Direct address from the endpoints; existing ones keep theirs (the endpoint step sets it).
// Unchanged rows are not written, so a monthly re-run rewrites only what changed; source_file and imported_at say
// which file last changed a row, and when. $1: the file's base name.
export const UPSERT_ENTRIES = `
WITH batch AS (
  SELECT DISTINCT ON (npi) * FROM ${ENTRY_STAGE.table} ORDER BY npi, line DESC
), src AS (
  SELECT b.npi, coalesce(b.entity_type, e.entity_type) AS entity_type, b.active,
    ${DATA.map((c) => `CASE WHEN b.name_norm IS NOT NULL THEN b.${c} ELSE e.${c} END AS ${c}`).join(',\n    ')},
    CASE WHEN e.npi IS NULL THEN (SELECT min(d.address COLLATE "C") FROM directory_endpoints d WHERE d.npi = b.npi)
      ELSE e.direct_address END AS direct_address
  -- LATERAL: one probe of the NPI index per row, whatever the (often stale, on PGlite never gathered) statistics say.
  FROM batch b LEFT JOIN LATERAL (SELECT * FROM directory_entries x WHERE x.npi = b.npi LIMIT 1) e ON true
), up AS (
  INSERT INTO directory_entries AS t (npi, entity_type, active, ${DATA.join(', ')}, direct_address, source_file)
  SELECT npi, entity_type, active, ${DATA.join(', ')}, direct_address, $1 FROM src
  WHERE entity_type IS NOT NULL AND name_norm IS NOT NULL
  ON CONFLICT (npi) DO UPDATE SET entity_type = excluded.entity_type, active = excluded.active,
    ${DATA.map((c) => `${c} = excluded.${c}`).join(', ')}, source_file = excluded.source_file, imported_at = now()
  WHERE (t.entity_type, t.active, ${DATA.map((c) => `t.${c}`).join(', ')})
    IS DISTINCT FROM (excluded.entity_type, excluded.active, ${DATA.map((c) => `excluded.${c}`).join(', ')})
  RETURNING (t.xmax = 0) AS inserted
)
SELECT (SELECT count(*) FROM src WHERE entity_type IS NULL OR name_norm IS NULL)::int AS skipped,
  count(*) FILTER (WHERE inserted)::int AS inserted,
  count(*) FILTER (WHERE NOT inserted)::int AS updated
FROM up`;

// This run's Direct addresses replace the stored ones: those missing from it disappear. When an NPI/address pair
// appears twice, the later row gives the affiliation.
export const APPLY_ENDPOINTS = `
WITH wanted AS (
  SELECT DISTINCT ON (npi, address) npi, address, affiliation_name, source_file
  FROM ${ENDPOINT_STAGE.table} ORDER BY npi, address, seq DESC
), removed AS (
  DELETE FROM directory_endpoints d WHERE NOT EXISTS (SELECT 1 FROM wanted w WHERE w.npi = d.npi AND w.address = d.address)
  RETURNING 1
), added AS (
  INSERT INTO directory_endpoints AS t (npi, address, affiliation_name, source_file)
  SELECT npi, address, affiliation_name, source_file FROM wanted
  ON CONFLICT (npi, address) DO UPDATE SET affiliation_name = excluded.affiliation_name, source_file = excluded.source_file
  WHERE t.affiliation_name IS DISTINCT FROM excluded.affiliation_name
  RETURNING (t.xmax = 0) AS inserted
)
SELECT (SELECT count(*) FROM removed)::int AS removed, (SELECT count(*) FROM added WHERE inserted)::int AS added`;

// Each entry's Direct address is its NPI's first (lowest) one, byte order whatever the database's collation.
export const SET_DIRECT_ADDRESSES = `
WITH first AS (
  SELECT npi, min(address COLLATE "C") AS address FROM directory_endpoints GROUP BY npi
), changed AS (
  UPDATE directory_entries e SET direct_address = f.address FROM first f
  WHERE e.npi = f.npi AND e.direct_address IS DISTINCT FROM f.address
  RETURNING 1
)
SELECT count(*)::int AS n FROM changed`;

export const CLEAR_DIRECT_ADDRESSES = `
WITH cleared AS (
  UPDATE directory_entries e SET direct_address = NULL
  WHERE e.direct_address IS NOT NULL AND NOT EXISTS (SELECT 1 FROM directory_endpoints d WHERE d.npi = e.npi)
  RETURNING 1
)
SELECT count(*)::int AS n FROM cleared`;

// COPY's CSV: an unquoted empty field is NULL, a quoted one the text.
const field = (value: string | number | boolean | null): string => {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  return `"${value.includes('"') ? value.replaceAll('"', '""') : value}"`;
};

export function entryStageCsv(rows: readonly EntryRow[]): string {
  let csv = '';
  for (const r of rows) {
    csv += `${r.line},${r.npi},${field(r.entityType)},${r.active},${field(r.lastName)},${field(r.firstName)},${field(r.middleName)},`;
    csv += `${field(r.organizationName)},${field(r.clinicName)},${field(r.phonePrimary)},${field(r.fax)},${field(r.addressLine1)},`;
    csv += `${field(r.city)},${field(r.state)},${field(r.zip)},${field(r.taxonomy)},`;
    csv += `${field(r.officialLastName)},${field(r.officialFirstName)},${field(r.officialMiddleName)},${field(r.officialNamePrefix)},`;
    csv += `${field(r.officialNameSuffix)},${field(r.officialCredential)},${field(r.officialTitle)},${field(r.officialPhone)},`;
    csv += `${field(r.organizationSubpart)},${field(r.nameNorm)},${field(r.lastNorm)},`;
    csv += `${field(r.firstNorm)},${field(r.orgNorm)},${field(r.cityNorm)}\n`;
  }
  return csv;
}

export function endpointStageCsv(rows: readonly (EndpointRow & { seq: number })[], sourceFile: string): string {
  let csv = '';
  for (const r of rows) csv += `${r.seq},${r.npi},${field(r.address)},${field(r.affiliationName)},${field(sourceFile)}\n`;
  return csv;
}
