import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type DatabaseHandle } from '../../../db/client.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { generatedNpi } from '../generate/generator.ts';
import { npidataFields, type NppesAddress, type NppesProvider } from '../generate/nppes-rows.ts';
import { nameKey, normalize } from '../normalize.ts';
import { importDirectoryFiles } from './importer.ts';
import { csvLine, npidataHeader } from './nppes-format.ts';

// Any well-formed NPPES row, written as the generator writes it, comes back from the directory as the entry it
// describes: names of any script, quotes, commas and line breaks included.

// What the importer keeps of a value: no NUL (PostgreSQL text cannot hold it), no surrounding blanks, blank is none.
const kept = (value: string | undefined) => (value ?? '').replaceAll('\0', '').trim() || null;
const digits = (value: string | undefined) => (value ?? '').replace(/[^0-9]/g, '') || null;

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const name = fc.oneof(text, fc.constantFrom('Nguyễn', "O'Connor", 'Peña', 'ZOË', '  Smith  ', 'a "b", c', 'line\nbreak', 'Łukasz', '李', 'nul\0inside', '\ttab'));
const present = name.filter((v) => kept(v) !== null);
const zip = fc.oneof(fc.stringMatching(/^\d{5}$/), fc.stringMatching(/^\d{9}$/), fc.stringMatching(/^\d{5}-\d{4}$/));
const phone = fc.oneof(fc.constant(''), fc.stringMatching(/^\d{10}$/), fc.stringMatching(/^\(\d{3}\) \d{3}-\d{4}$/), fc.stringMatching(/^\d{3}\.\d{3}\.\d{4}( x\d{1,4})?$/));
const address: fc.Arbitrary<NppesAddress> = fc.record({
  line1: text,
  line2: text,
  city: text,
  state: fc.constantFrom('OR', 'NY', 'PR', 'AE', 'ON'),
  postalCode: zip,
  phone,
  fax: phone,
});
const emptyAddress: NppesAddress = { line1: '', city: '', state: '', postalCode: '', country: '' };
const taxonomies = fc
  .tuple(fc.array(fc.stringMatching(/^[0-9]{3}[0-9A-Z]{6}X$/), { maxLength: 15 }), fc.nat())
  .map(([codes, primary]) => codes.map((code, i) => ({ code, primary: codes.length > 0 && i === primary % (codes.length + 1) })));

const provider = fc.record({
  individual: fc.boolean(),
  lastName: present,
  firstName: name,
  middleName: name,
  organizationName: present,
  otherOrganizationName: name,
  otherOrganizationNameType: fc.constantFrom('', '1', '2', '3', '4', '5'),
  practice: fc.option(address, { nil: undefined }),
  mailing: address,
  taxonomies,
  reactivated: fc.boolean(),
});

let sequence = 0;

describe('an NPPES row round-trips into its directory entry', () => {
  let handle: DatabaseHandle;
  let dir: string;
  beforeAll(async () => {
    handle = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'clinicrelay-nppes-roundtrip-'));
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names of any script, addresses, phones, zips and the primary taxonomy', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(provider, { minLength: 1, maxLength: 8 }), async (drawn) => {
        const providers: NppesProvider[] = drawn.map((d) => ({
          npi: generatedNpi(sequence++, 20_250_101),
          entityType: d.individual ? 1 : 2,
          ...(d.individual
            ? { lastName: d.lastName, firstName: d.firstName, middleName: d.middleName }
            : { organizationName: d.organizationName, otherOrganizationName: d.otherOrganizationName, otherOrganizationNameType: d.otherOrganizationNameType }),
          practice: d.practice ?? emptyAddress,
          mailing: d.mailing,
          taxonomies: d.taxonomies,
          ...(d.reactivated ? { deactivationDate: '05/01/2015', reactivationDate: '06/01/2016' } : {}),
        }));
        const file = path.join(dir, `npidata_pfile_${sequence}.csv`);
        writeFileSync(file, [npidataHeader(), ...providers.map(npidataFields)].map(csvLine).join('\n'));
        const summary = await importDirectoryFiles(handle, [file]);
        expect(summary).toMatchObject({ rows: providers.length, inserted: providers.length, rejected: 0 });

        for (const p of providers) {
          const [row] = await queryRows(handle.db, sql`select * from directory_entries where npi = ${p.npi}`);
          const location = p.practice === emptyAddress ? p.mailing! : p.practice!;
          const zipDigits = digits(location.postalCode)!;
          const individual = p.entityType === 1;
          const primary = p.taxonomies!.find((t) => t.primary) ?? p.taxonomies![0];
          const expected = {
            entity_type: p.entityType,
            active: true,
            last_name: individual ? kept(p.lastName) : null,
            first_name: individual ? kept(p.firstName) : null,
            middle_name: individual ? kept(p.middleName) : null,
            organization_name: individual ? null : kept(p.organizationName),
            clinic_name: individual || !['3', '5'].includes(p.otherOrganizationNameType ?? '') ? null : kept(p.otherOrganizationName),
            address_line1: kept(location.line1),
            city: kept(location.city),
            state: location.state,
            zip: zipDigits,
            phone_primary: digits(location.phone),
            fax: digits(location.fax),
            taxonomy: primary?.code ?? null,
            name_norm: nameKey({ entityType: p.entityType!, lastName: kept(p.lastName), firstName: kept(p.firstName), middleName: kept(p.middleName), organizationName: kept(p.organizationName) }),
            last_norm: individual ? normalize(kept(p.lastName)) || null : null,
            first_norm: individual ? normalize(kept(p.firstName)) || null : null,
            org_norm: individual ? null : normalize(kept(p.organizationName)) || null,
            city_norm: normalize(kept(location.city)) || null,
          };
          expect(row).toMatchObject(expected);
        }
      }),
      { numRuns: 40 },
    );
  });
});
