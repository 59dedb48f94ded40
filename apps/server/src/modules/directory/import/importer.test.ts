import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type DatabaseHandle } from '../../../db/client.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { fixturesDir, itWithFixtures } from '../../../test/shared-fixtures.ts';
import { endpointFields, npidataFields, type NppesEndpoint, type NppesProvider } from '../generate/nppes-rows.ts';
import { DirectoryImportError, importDirectoryFiles, type ImportProgress } from './importer.ts';
import { csvLine, endpointHeader, isValidNpi, npiCheckDigit, npidataHeader } from './nppes-format.ts';

// The NPPES importer on the database the suite runs on (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).

const withCheckDigit = (base: string) => base + npiCheckDigit(base);

function writeNpidata(file: string, providers: NppesProvider[]): string {
  writeFileSync(file, [csvLine(npidataHeader()), ...providers.map((p) => csvLine(npidataFields(p)))].join('\n') + '\n');
  return file;
}

function writeEndpoints(file: string, endpoints: NppesEndpoint[]): string {
  writeFileSync(file, [csvLine(endpointHeader), ...endpoints.map((e) => csvLine(endpointFields(e)))].join('\n') + '\n');
  return file;
}

const practice = { line1: '1 MAIN ST', city: 'PORTLAND', state: 'OR', postalCode: '972011234', phone: '503-555-0101', fax: '(503) 555-0102' };

function individual(npi: string, lastName: string, firstName = 'ANA', extra: Partial<NppesProvider> = {}): NppesProvider {
  return { npi, entityType: 1, lastName, firstName, practice, mailing: practice, taxonomies: [{ code: '207Q00000X', primary: true }], ...extra };
}

const direct = (npi: string, endpoint: string, affiliationName = 'LAKESIDE'): NppesEndpoint => ({
  npi,
  type: 'DIRECT',
  typeDescription: 'Direct Messaging Address',
  endpoint,
  affiliationName,
});

interface EntryRow {
  npi: string;
  entity_type: number;
  active: boolean;
  last_name: string | null;
  first_name: string | null;
  organization_name: string | null;
  clinic_name: string | null;
  phone_primary: string | null;
  fax: string | null;
  address_line1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  taxonomy: string | null;
  official_last_name: string | null;
  official_first_name: string | null;
  official_middle_name: string | null;
  official_phone: string | null;
  direct_address: string | null;
  name_norm: string;
  source_file: string | null;
}

describe('importing NPPES files into the directory', () => {
  let handle: DatabaseHandle;
  let dir: string;
  beforeAll(async () => {
    handle = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'clinicrelay-nppes-'));
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const entry = async (npi: string) =>
    (await queryRows<EntryRow>(handle.db, sql`select * from directory_entries where npi = ${npi}`))[0];
  const endpointsOf = async (npi: string) =>
    (await queryRows<{ address: string }>(handle.db, sql`select address from directory_endpoints where npi = ${npi} order by address`)).map((r) => r.address);

  it('recognizes NPI check digits (Luhn over 80840 and the first nine digits)', () => {
    expect(['1497758544', '1234567893', '1003000126'].every(isValidNpi)).toBe(true);
    expect(['1497758545', '123456789', '12345678930', 'A234567893'].some(isValidNpi)).toBe(false);
    expect(withCheckDigit('123456789')).toBe('1234567893');
  });

  itWithFixtures('imports every row of the real NPPES fixture, practice location, primary taxonomy and other name included', async () => {
    const file = path.join(fixturesDir, 'nppes/npidata_pfile_fixture.csv');
    const summary = await importDirectoryFiles(handle, [file]);
    expect(summary).toMatchObject({ rows: 12, inserted: 12, updated: 0, unchanged: 0, rejected: 0, rejections: [], endpoints: null });
    expect(summary.files).toEqual([{ file: 'npidata_pfile_fixture.csv', kind: 'npidata', rows: 12, bytes: expect.any(Number) as number }]);

    // Mailing address in Hudson, OH; practice location in Pekin, IL.
    expect(await entry('1487657433')).toMatchObject({
      entity_type: 2,
      active: true,
      organization_name: 'PEKIN MRI, LLC',
      last_name: null,
      clinic_name: null,
      address_line1: '1300 PARK AVE',
      city: 'PEKIN',
      state: 'IL',
      zip: '615545038',
      phone_primary: '3093472143',
      fax: '3093472416',
      taxonomy: '293D00000X',
      name_norm: 'pekin mri llc',
      source_file: 'npidata_pfile_fixture.csv',
    });
    // Three taxonomies, the third primary; a 5-digit zip; a doing-business-as name.
    expect(await entry('1740283795')).toMatchObject({ taxonomy: '313M00000X', city: 'BOONE', zip: '500363930' });
    expect(await entry('1043213093')).toMatchObject({ taxonomy: '3336H0001X', clinic_name: 'HOME IV SPECIALISTS INC', city: 'JONESBORO', zip: '72401', state: 'AR' });
    expect(await entry('1700889755')).toMatchObject({ taxonomy: '207W00000X', name_norm: 'azar filipov md pa' });
    expect(await entry('1962405910')).toMatchObject({ organization_name: 'ALABAMA CARDIOVASCULAR GROUP, P.C.', name_norm: 'alabama cardiovascular group p c', fax: '2059394997' });
    expect(await entry('1497758544')).toMatchObject({ clinic_name: 'CAPE FEAR VALLEY HOME HEALTH AND HOSPICE', fax: null, city: 'FAYETTEVILLE' });
    // Other names typed 5 (other) are the clinic's name; 4 (a former legal business name) is not.
    expect(await entry('1699778647')).toMatchObject({ clinic_name: 'LIFE CARE AT HOME' });
    expect(await entry('1023011178')).toMatchObject({ organization_name: 'COLLABRIA CARE', clinic_name: null });
    // The authorized official, with their own telephone number (not the practice location's).
    expect(await entry('1487657433')).toMatchObject({
      official_last_name: 'COYNE',
      official_first_name: 'V.',
      official_middle_name: 'RENAE',
      official_name_prefix: 'MS.',
      official_name_suffix: null,
      official_credential: null,
      official_title: 'DIRECTOR OF BILLING',
      official_phone: '3306533968',
      organization_subpart: 'N',
    });
    expect(await entry('1023011178')).toMatchObject({ official_last_name: 'ANDERSON', official_first_name: 'DONALD', official_middle_name: 'WAYNE', official_name_suffix: 'JR.', official_phone: '4255255392' });
    expect(await entry('1982607933')).toMatchObject({ official_last_name: 'KIM', official_name_prefix: 'DR.', official_credential: 'MD', official_title: 'PRESIDENT', official_phone: '3017241646' });

    // The same file again changes nothing.
    expect(await importDirectoryFiles(handle, [file])).toMatchObject({ inserted: 0, updated: 0, unchanged: 12, rejected: 0 });
  });

  it("re-imports next month's file: changed rows updated, the rest unchanged, a deactivated NPI out of search with its names", async () => {
    const [a, b, c, d] = ['100000001', '100000002', '100000003', '100000004'].map(withCheckDigit) as [string, string, string, string];
    const first = await importDirectoryFiles(handle, [
      writeNpidata(path.join(dir, 'npidata_pfile_202501.csv'), [individual(a, 'ALVAREZ', 'MARIA'), individual(b, 'BROOKS', 'EVELYN'), individual(c, "O'CONNOR", 'SEÁN'), individual(d, 'NGUYỄN', 'THOMAS')]),
    ]);
    expect(first).toMatchObject({ rows: 4, inserted: 4, updated: 0, unchanged: 0, deactivated: 0 });
    expect(await entry(c)).toMatchObject({ last_name: "O'CONNOR", name_norm: 'oconnor sean', active: true });
    expect(await entry(d)).toMatchObject({ name_norm: 'nguyen thomas' });

    const next = await importDirectoryFiles(handle, [
      writeNpidata(path.join(dir, 'npidata_pfile_202502.csv'), [
        individual(a, 'ALVAREZ', 'MARIA'),
        individual(b, 'BROOKS-HALE', 'EVELYN', { practice: { ...practice, city: 'SALEM', postalCode: '97301' } }),
        // As NPPES writes a deactivation: the NPI and its dates, every other field blank, the entity type too.
        { npi: c, entityType: null, deactivationReason: 'DT', deactivationDate: '02/03/2025' },
        individual(d, 'NGUYỄN', 'THOMAS', { deactivationDate: '01/05/2019', reactivationDate: '03/01/2019' }),
        // Deactivated and never in the directory: nothing to show.
        { npi: withCheckDigit('100000005'), entityType: null, deactivationDate: '01/01/2025' },
      ]),
    ]);
    expect(next).toMatchObject({ rows: 5, inserted: 0, updated: 2, unchanged: 2, deactivated: 2, skipped: 1, rejected: 0 });
    expect(await entry(b)).toMatchObject({ last_name: 'BROOKS-HALE', city: 'SALEM', zip: '97301', name_norm: 'brooks hale evelyn', source_file: 'npidata_pfile_202502.csv' });
    expect(await entry(a)).toMatchObject({ source_file: 'npidata_pfile_202501.csv' });
    expect(await entry(c)).toMatchObject({ active: false, last_name: "O'CONNOR", first_name: 'SEÁN', name_norm: 'oconnor sean', entity_type: 1, city: 'PORTLAND' });
    // Reactivated after its deactivation: active.
    expect(await entry(d)).toMatchObject({ active: true });
    expect(await entry(withCheckDigit('100000005'))).toBeUndefined();

    // Reactivated the month after: back in search, with the names of its row.
    const third = await importDirectoryFiles(handle, [writeNpidata(path.join(dir, 'npidata_pfile_202503.csv'), [individual(c, "O'CONNOR", 'SEAN')])]);
    expect(third).toMatchObject({ updated: 1 });
    expect(await entry(c)).toMatchObject({ active: true, first_name: 'SEAN' });
  });

  it('loads the Direct addresses of the endpoint file, and the next one replaces them', async () => {
    const [p, q, r] = ['200000001', '200000002', '200000003'].map(withCheckDigit) as [string, string, string];
    const npidata = writeNpidata(path.join(dir, 'npidata_pfile_direct.csv'), [individual(p, 'PARK'), individual(q, 'QUINN'), individual(r, 'REED')]);
    const january = writeEndpoints(path.join(dir, 'endpoint_pfile_202501.csv'), [
      direct(p, 'mailto:Zed.Park@Direct.Lakeside.example.org'),
      direct(p, 'park@direct.lakeside.example.org'),
      direct(p, 'MAILTO:AMY.PARK@HISP.EXAMPLE.NET'),
      direct(q, 'quinn@direct.riverview.example.org'),
      { npi: q, type: 'FHIR', typeDescription: 'FHIR URL', endpoint: 'https://fhir.riverview.example.org/r4' },
    ]);
    // Endpoints first or last: the entries get their first (lowest) address either way.
    const first = await importDirectoryFiles(handle, [npidata, january]);
    expect(first.endpoints).toEqual({ direct: 4, ignored: 1, added: 4, removed: 0, entriesChanged: expect.any(Number) as number });
    expect(await endpointsOf(p)).toEqual(['amy.park@hisp.example.net', 'park@direct.lakeside.example.org', 'zed.park@direct.lakeside.example.org']);
    expect(await entry(p)).toMatchObject({ direct_address: 'amy.park@hisp.example.net' });
    expect(await entry(q)).toMatchObject({ direct_address: 'quinn@direct.riverview.example.org' });
    expect(await entry(r)).toMatchObject({ direct_address: null });

    const february = writeEndpoints(path.join(dir, 'endpoint_pfile_202502.csv'), [
      direct(p, 'zed.park@direct.lakeside.example.org'),
      direct(r, 'reed@direct.hillcrest.example.org'),
    ]);
    const next = await importDirectoryFiles(handle, [february]);
    expect(next.endpoints).toEqual({ direct: 2, ignored: 0, added: 1, removed: expect.any(Number) as number, entriesChanged: 3 });
    expect(await endpointsOf(p)).toEqual(['zed.park@direct.lakeside.example.org']);
    expect(await endpointsOf(q)).toEqual([]);
    expect(await entry(p)).toMatchObject({ direct_address: 'zed.park@direct.lakeside.example.org' });
    expect(await entry(q)).toMatchObject({ direct_address: null });
    expect(await entry(r)).toMatchObject({ direct_address: 'reed@direct.hillcrest.example.org' });

    // An entry first seen after its endpoint takes its address at once.
    const s = withCheckDigit('200000004');
    await importDirectoryFiles(handle, [writeEndpoints(path.join(dir, 'endpoint_pfile_202503.csv'), [direct(s, 'sato@direct.example.org'), direct(r, 'reed@direct.hillcrest.example.org')])]);
    await importDirectoryFiles(handle, [writeNpidata(path.join(dir, 'npidata_pfile_202503.csv'), [individual(s, 'SATO')])]);
    expect(await entry(s)).toMatchObject({ direct_address: 'sato@direct.example.org' });

    // An endpoint file without a DIRECT row would remove every address: the run stops and keeps them.
    const fhirOnly = writeEndpoints(path.join(dir, 'endpoint_pfile_202504.csv'), [
      { npi: s, type: 'FHIR', typeDescription: 'FHIR URL', endpoint: 'https://fhir.example.org/r4' },
    ]);
    await expect(importDirectoryFiles(handle, [fhirOnly])).rejects.toThrow('endpoint_pfile_202504.csv: no DIRECT endpoint rows; the stored Direct addresses are kept');
    expect(await entry(s)).toMatchObject({ direct_address: 'sato@direct.example.org' });
  });

  it('rejects malformed rows with their line and reason, and imports the rest', async () => {
    const good = withCheckDigit('300000001');
    const header = csvLine(npidataHeader());
    const row = (p: NppesProvider) => csvLine(npidataFields(p));
    const lines = [
      header,
      row(individual(withCheckDigit('300000002'), 'OK')),
      csvLine(npidataFields(individual(withCheckDigit('300000003'), 'SHORT')).slice(0, 329)),
      row(individual('123456789', 'NINE')),
      row(individual('3000000049', 'LUHN')),
      csvLine(npidataFields(individual(withCheckDigit('300000005'), 'TYPE')).map((v, i) => (i === 1 ? '3' : v))),
      row(individual(withCheckDigit('300000006'), '  ')),
      row({ npi: withCheckDigit('300000007'), entityType: 2, practice }),
      `"${withCheckDigit('300000008')}","1","broken`,
      row(individual(good, 'LAST')),
    ];
    const file = path.join(dir, 'npidata_pfile_bad.csv');
    writeFileSync(file, lines.join('\n'));
    const summary = await importDirectoryFiles(handle, [file], { rejectionsListed: 5 });
    expect(summary).toMatchObject({ rows: 8, inserted: 2, rejected: 7 });
    expect(summary.rejections).toEqual([
      { file: 'npidata_pfile_bad.csv', line: 3, reason: '329 columns, expected 330' },
      { file: 'npidata_pfile_bad.csv', line: 4, reason: 'NPI "123456789" is not 10 digits' },
      { file: 'npidata_pfile_bad.csv', line: 5, reason: 'NPI 3000000049 fails the check digit' },
      { file: 'npidata_pfile_bad.csv', line: 6, reason: 'unknown entity type "3"' },
      { file: 'npidata_pfile_bad.csv', line: 7, reason: 'individual without a last name' },
    ]);
    const all = await importDirectoryFiles(handle, [file]);
    expect(all.rejections.slice(5)).toEqual([
      { file: 'npidata_pfile_bad.csv', line: 8, reason: 'organization without a name' },
      { file: 'npidata_pfile_bad.csv', line: 9, reason: 'unreadable CSV: a quoted field is not closed' },
    ]);
    expect(await entry(good)).toMatchObject({ last_name: 'LAST' });
  });

  it('refuses a file it cannot read or does not recognize, before importing anything', async () => {
    const fine = writeNpidata(path.join(dir, 'npidata_pfile_fine.csv'), [individual(withCheckDigit('400000001'), 'FINE')]);
    const other = path.join(dir, 'npidata_pfile_other.csv');
    writeFileSync(other, '"Name","City"\n"A","B"\n');
    await expect(importDirectoryFiles(handle, [fine, other])).rejects.toThrow(DirectoryImportError);
    await expect(importDirectoryFiles(handle, [fine, other])).rejects.toThrow(/not an NPPES npidata_pfile or endpoint_pfile \(the header starts "Name", "City"\)/);
    await expect(importDirectoryFiles(handle, [fine, path.join(dir, 'missing.csv')])).rejects.toThrow(/missing\.csv: cannot be read/);
    await expect(importDirectoryFiles(handle, [dir])).rejects.toThrow(/cannot be read/);
    expect(await entry(withCheckDigit('400000001'))).toBeUndefined();
    // Recognized by the header, not the name.
    const renamed = writeNpidata(path.join(dir, 'providers.txt'), [individual(withCheckDigit('400000002'), 'RENAMED')]);
    expect(await importDirectoryFiles(handle, [renamed])).toMatchObject({ inserted: 1, files: [{ kind: 'npidata' }] });
  });

  it('reports progress in bytes and rows, in batches, up to the whole size', async () => {
    const providers = Array.from({ length: 2_500 }, (_, i) => individual(withCheckDigit(String(500_000_000 + i)), `PROGRESS${i}`));
    const file = writeNpidata(path.join(dir, 'npidata_pfile_progress.csv'), providers);
    const reports: ImportProgress[] = [];
    const summary = await importDirectoryFiles(handle, [file], { batchSize: 700, onProgress: (p) => reports.push(p) });
    expect(summary).toMatchObject({ rows: 2_500, inserted: 2_500 });
    expect(reports.length).toBeGreaterThanOrEqual(3);
    const last = reports.at(-1)!;
    expect(last).toMatchObject({ rows: 2_500, file: 'npidata_pfile_progress.csv' });
    expect(last.bytesRead).toBe(last.totalBytes);
    expect(reports.map((r) => r.rows)).toEqual([...reports.map((r) => r.rows)].sort((x, y) => x - y));
  });
});
