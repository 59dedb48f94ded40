import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type DatabaseHandle } from '../../../db/client.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { fixtureText, itWithFixtures } from '../../../test/shared-fixtures.ts';
import { importDirectoryFiles } from '../import/importer.ts';
import { csvLine, endpointHeader, isValidNpi, npidataHeader } from '../import/nppes-format.ts';
import { normalize } from '../normalize.ts';
import { endpointFileFor, generateNppesFiles, generateProviders } from './generator.ts';
import { states } from './world.ts';

describe('the NPPES file generator', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'clinicrelay-nppes-generate-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  itWithFixtures('writes the real npidata_pfile header, column for column and byte for byte', () => {
    const fixtureHeader = fixtureText('nppes/npidata_pfile_fixture.csv').split('\n')[0]!;
    expect(npidataHeader()).toHaveLength(330);
    expect(npidataHeader()).toEqual(parse(fixtureHeader)[0]);
    expect(csvLine(npidataHeader())).toBe(fixtureHeader);
  });

  it('names the endpoint file as NPPES does, beside the npidata file', () => {
    expect(endpointFileFor('/data/npidata_pfile_20050523-20250608.csv')).toBe('/data/endpoint_pfile_20050523-20250608.csv');
    expect(endpointFileFor('out/providers.csv')).toBe(path.join('out', 'endpoint_providers.csv'));
  });

  it('writes the same files for the same seed, and other files for another', async () => {
    const run = async (name: string, seed: number): Promise<[string, string]> => {
      const result = await generateNppesFiles({ providers: 1_500, out: path.join(dir, name), seed });
      return [readFileSync(result.npidataFile, 'utf8'), readFileSync(result.endpointFile, 'utf8')];
    };
    const [a, aEndpoints] = await run('npidata_pfile_a.csv', 5);
    const [b, bEndpoints] = await run('npidata_pfile_b.csv', 5);
    const [c] = await run('npidata_pfile_c.csv', 6);
    expect(b).toBe(a);
    expect(bEndpoints).toBe(aEndpoints);
    expect(c).not.toBe(a);
    expect(a.split('\n')[0]).toBe(csvLine(npidataHeader()));
    expect(aEndpoints.split('\n')[0]).toBe(csvLine(endpointHeader));
  });

  it('draws a directory with real-world skew', () => {
    const drawn = [...generateProviders(20_000, 11)];
    const providers = drawn.map((d) => d.provider);
    const share = (n: number) => n / providers.length;
    const npis = providers.map((p) => p.npi);
    expect(npis.every(isValidNpi)).toBe(true);
    expect(new Set(npis).size).toBe(npis.length);

    const individuals = providers.filter((p) => p.entityType === 1).length;
    const organizations = providers.filter((p) => p.entityType === 2).length;
    expect(individuals / (individuals + organizations)).toBeCloseTo(0.79, 1);
    expect(share(providers.filter((p) => p.deactivationDate && !p.reactivationDate).length)).toBeGreaterThan(0.005);
    expect(share(providers.filter((p) => p.deactivationDate && !p.reactivationDate).length)).toBeLessThan(0.02);
    const withDirect = drawn.filter((d) => d.endpoints.some((e) => e.type === 'DIRECT')).length;
    expect(share(withDirect)).toBeGreaterThan(0.17);
    expect(share(withDirect)).toBeLessThan(0.23);
    expect(drawn.some((d) => d.endpoints.filter((e) => e.type === 'DIRECT').length > 1)).toBe(true);
    expect(drawn.some((d) => d.endpoints.some((e) => /^mailto:/i.test(e.endpoint)))).toBe(true);

    // Surnames: Zipf over the common ones, a long tail of rare ones, and now and then accents and apostrophes.
    const surnames = new Map<string, number>();
    for (const p of providers) if (p.lastName) surnames.set(p.lastName, (surnames.get(p.lastName) ?? 0) + 1);
    const ranked = [...surnames.entries()].sort((x, y) => y[1] - x[1]);
    expect(ranked[0]![0]).toBe('SMITH');
    expect(ranked[0]![1]).toBeGreaterThan(3 * (surnames.get('GARCIA') ?? 0));
    expect(ranked.filter(([, n]) => n === 1).length).toBeGreaterThan(individuals * 0.1);
    expect([...surnames.keys()].some((s) => s.includes("'"))).toBe(true);
    expect([...surnames.keys()].some((s) => normalize(s) !== s.toLowerCase() && !s.includes("'") && !/[ -]/.test(s))).toBe(true);

    // States by population, and each practice in one of its state's cities with that city's ZIP prefix.
    const byState = new Map<string, number>();
    for (const p of providers) if (p.practice) byState.set(p.practice.state, (byState.get(p.practice.state) ?? 0) + 1);
    expect(byState.get('CA')!).toBeGreaterThan(6 * (byState.get('OR') ?? 0));
    expect(byState.get('CA')!).toBeGreaterThan(byState.get('TX')!);
    for (const p of providers) {
      if (!p.practice) continue;
      const cities = states.find(([code]) => code === p.practice!.state)![2];
      const city = cities.find(([name, zip3]) => name === p.practice!.city && p.practice!.postalCode.startsWith(zip3));
      expect(city, `${p.practice.city}, ${p.practice.state} ${p.practice.postalCode}`).toBeDefined();
      expect(p.practice.postalCode).toMatch(/^(\d{5}|\d{9})$/);
    }
  });

  describe('into the directory', () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await createTestDatabase();
    });
    afterAll(() => handle.close());

    it('imports generated files with no row rejected', async () => {
      const result = await generateNppesFiles({ providers: 3_000, out: path.join(dir, 'npidata_pfile_import.csv'), seed: 3 });
      const summary = await importDirectoryFiles(handle, [result.npidataFile, result.endpointFile]);
      expect(summary).toMatchObject({
        rejected: 0,
        inserted: result.individuals + result.organizations,
        deactivated: result.deactivated,
        skipped: result.deactivated,
      });
      expect(summary.endpoints).toMatchObject({ direct: result.directAddresses, added: result.directAddresses });
      const [counts] = await queryRows<{ direct: number; accented: number }>(
        handle.db,
        sql`select count(*) filter (where direct_address is not null and source_file = 'npidata_pfile_import.csv')::int as direct,
          count(*) filter (where last_name <> upper(last_norm) and source_file = 'npidata_pfile_import.csv')::int as accented
        from directory_entries`,
      );
      expect(counts!.direct).toBe(result.providersWithDirect);
      expect(counts!.accented).toBeGreaterThan(0);
      // Every organization has its authorized official (NPPES lists one for entity type 2 only), individuals none.
      const [officials] = await queryRows<{ organizations: number; withOfficial: number; individualsWithOfficial: number; ownPhone: number; middle: number }>(
        handle.db,
        sql`select count(*) filter (where entity_type = 2)::int as "organizations",
          count(*) filter (where entity_type = 2 and official_last_name is not null and official_first_name is not null and official_title is not null and official_phone ~ '^[0-9]{10}$')::int as "withOfficial",
          count(*) filter (where entity_type = 1 and official_last_name is not null)::int as "individualsWithOfficial",
          count(*) filter (where entity_type = 2 and official_phone <> phone_primary)::int as "ownPhone",
          count(*) filter (where entity_type = 2 and official_middle_name is not null)::int as "middle"
        from directory_entries where source_file = 'npidata_pfile_import.csv'`,
      );
      expect(officials!.organizations).toBeGreaterThan(0);
      expect(officials!.withOfficial).toBe(officials!.organizations);
      expect(officials!.individualsWithOfficial).toBe(0);
      expect(officials!.ownPhone).toBeGreaterThan(0);
      expect(officials!.middle).toBeGreaterThan(0);
    });
  });
});
