import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { DIRECTORY_PAGE_SIZE } from '@clinicrelay/contracts/directory.ts';
import { queryRows, type Database } from '../apps/server/src/db/client.ts';
import { generateNppesFiles } from '../apps/server/src/modules/directory/generate/generator.ts';
import { importDirectoryFiles } from '../apps/server/src/modules/directory/import/importer.ts';
import { searchTab, tabFilters } from '../apps/server/src/modules/directory/service.ts';
import { benchApp, benchPostgresUrl, PASSWORD } from './bench-app.ts';
import { formatLoad, LOAD_CLIENT, rawUnderLoad, routeUnderLoad, type LoadFigure } from './load.ts';
import { compare, measure } from './measure.ts';
import { sized, TINY } from './size.ts';

// Issue 10 §5: directory search at scale, the API beside the SQL it runs, and the import rate.
// BENCH_DIRECTORY_PROVIDERS sets the size (default 1,000,000); BENCH_DIRECTORY_NATIONAL=1 runs the national size
// (9,000,000) on PostgreSQL only (BENCH_DATABASE_URL or TEST_DATABASE_URL), where PGlite would take hours to load.
const NATIONAL = process.env.BENCH_DIRECTORY_NATIONAL === '1';
const PROVIDERS = NATIONAL ? 9_000_000 : Number(process.env.BENCH_DIRECTORY_PROVIDERS) || sized(1_000_000, 2_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS) || sized(50, 3);
const WARMUP = sized(10, 1);
const TARGET_P95_MS = { pglite: 150, postgres: 50 };
const TARGET_THROUGHPUT_RATIO = 0.8;
// Throughput is requests per second under load (load.ts): the route over HTTP beside as many concurrent callers of
// the statements it runs. On a 2-core virtual machine one 2 s run differs from the next by up to ±20 % (the
// machine's own drift, seen in both), so the two alternate in short rounds, after one uncounted round of each that
// warms them, and the ratio is of their means over all rounds; the rounds' own ratios are printed beside it.
const ROUNDS = Number(process.env.BENCH_DIRECTORY_ROUNDS) || sized(8, 1);
const LOAD = { connections: 16, seconds: Number(process.env.BENCH_LOAD_SECONDS) || sized(2, 1) };

interface Case {
  name: string;
  body: { firstName?: string; lastName?: string; organizationName?: string; city?: string; state?: string; zip?: string };
}

// Search values drawn from the loaded data, the way people search: a common surname's first letters in the most
// populous state, a big city with a surname, the first word of an organization's name, and a 5-digit zip.
async function cases(db: Parameters<typeof queryRows>[0]): Promise<Case[]> {
  const [state] = await queryRows<{ state: string }>(db, sql`select state from directory_entries where entity_type = 1 and active group by state order by count(*) desc limit 1`);
  const [city] = await queryRows<{ city: string; state: string }>(db, sql`select city, state from directory_entries where entity_type = 1 and active and state = ${state!.state} group by city, state order by count(*) desc limit 1`);
  const [org] = await queryRows<{ word: string }>(
    db,
    sql`select split_part(org_norm, ' ', 1) as word from directory_entries where entity_type = 2 and active and length(split_part(org_norm, ' ', 1)) >= 4 group by 1 order by count(*) desc limit 1 offset 3`,
  );
  const [zip] = await queryRows<{ zip: string }>(db, sql`select left(zip, 5) as zip from directory_entries where active and zip is not null group by 1 order by count(*) desc limit 1`);
  return [
    { name: 'last-name prefix + state', body: { lastName: 'Smi', state: state!.state } },
    { name: 'city + last name', body: { city: city!.city, lastName: 'Johnson' } },
    { name: 'organization-name prefix', body: { organizationName: org!.word.slice(0, 4) } },
    { name: 'zip', body: { zip: zip!.zip } },
  ];
}

// The two statements the route runs for a request (service.ts searchTab → queries.ts findTabPage, one per tab, as
// the route runs them), called directly: no HTTP, session check, validation or response serialization.
function rawSearch(db: Database, organizationId: string, body: Case['body']) {
  const tabs = tabFilters(body);
  return Promise.all([searchTab(db, organizationId, tabs.providers, 0, DIRECTORY_PAGE_SIZE), searchTab(db, organizationId, tabs.organizations, 0, DIRECTORY_PAGE_SIZE)]);
}

async function onDatabase(label: 'pglite' | 'postgres', files: { npidataFile: string; endpointFile: string }, databaseUrl?: string): Promise<string[]> {
  const { app, handle, close } = await benchApp({ databaseUrl });
  const lines: string[] = [];
  try {
    const started = performance.now();
    const summary = await importDirectoryFiles(handle, [files.npidataFile, files.endpointFile]);
    const seconds = (performance.now() - started) / 1000;
    lines.push(
      `  import ${summary.rows.toLocaleString('en-US')} rows (${summary.inserted.toLocaleString('en-US')} entries, ${summary.endpoints?.added.toLocaleString('en-US') ?? 0} Direct addresses) in ${seconds.toFixed(1)} s: ${Math.round(summary.rows / seconds).toLocaleString('en-US')} rows/s`,
    );
    await handle.db.execute(sql`vacuum analyze directory_entries`);
    await handle.db.execute(sql`vacuum analyze directory_endpoints`);

    const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'user@lakeside.example.org', password: PASSWORD } });
    const { accessToken } = login.json<{ accessToken: string }>();
    const profile = await app.inject({ method: 'GET', url: '/api/users/profiledata', headers: { authorization: `Bearer ${accessToken}` } });
    const organizationId = profile.json<{ organizationId: string }>().organizationId;
    lines.push(
      `  ${'search'.padEnd(26)} ${'API p50'.padStart(9)} ${'API p95'.padStart(9)}   ${'SQL p50'.padStart(9)} ${'SQL p95'.padStart(9)}   p95 ≤ ${TARGET_P95_MS[label]} ms   ${'API req/s'.padStart(9)} ${'SQL req/s'.padStart(9)}   ratio (≥ ${TARGET_THROUGHPUT_RATIO}, of the means)   results`,
    );
    const authorization = `Bearer ${accessToken}`;
    // The floor under every route: HTTP, session check and serialization of a route that reads nothing.
    const floor = await routeUnderLoad(app, { url: '/api/addressbook/entrytypes', method: 'GET', authorization }, 'GET /api/addressbook/entrytypes (no query)', LOAD);
    lines.push(`  HTTP and session floor: ${formatLoad(floor)}; about ${(1000 / floor.requestsPerSecond).toFixed(2)} ms of the machine per request`);
    for (const c of await cases(handle.db)) {
      const call = () => app.inject({ method: 'POST', url: '/api/directory/search', headers: { authorization }, payload: c.body });
      const first = await call();
      if (first.statusCode !== 200) throw new Error(`${c.name}: ${first.statusCode} ${first.body}`);
      const found = first.json<{ totalProvidersCount: number; totalOrganizationsCount: number }>();
      const raw = () => rawSearch(handle.db, organizationId, c.body);
      const api = await measure(`API ${c.name}`, ITERATIONS, call, WARMUP);
      const sql_ = await measure(`SQL ${c.name}`, ITERATIONS, raw, WARMUP);
      const round = async () => ({
        api: await routeUnderLoad(app, { url: '/api/directory/search', method: 'POST', authorization, body: c.body }, `API ${c.name}`, LOAD),
        sql: await rawUnderLoad(raw, `SQL ${c.name}`, LOAD),
      });
      // The uncounted warm-up round; a tiny run only checks that the benchmark runs.
      if (!TINY) await round();
      const rounds: { api: LoadFigure; sql: LoadFigure }[] = [];
      for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
      const mean = (figures: LoadFigure[]) => figures.reduce((sum, f) => sum + f.requestsPerSecond, 0) / figures.length;
      const apiRps = mean(rounds.map((r) => r.api));
      const sqlRps = mean(rounds.map((r) => r.sql));
      const ratio = apiRps / sqlRps;
      const ratios = rounds.map((r) => r.api.requestsPerSecond / r.sql.requestsPerSecond);
      const ms = (v: number | undefined) => `${(v ?? 0).toFixed(1)} ms`.padStart(9);
      const rps = (v: number) => String(Math.round(v)).padStart(9);
      const p95Met = (api.p95Ms ?? 0) <= TARGET_P95_MS[label];
      lines.push(
        `  ${c.name.padEnd(26)} ${ms(api.p50Ms)} ${ms(api.p95Ms)}   ${ms(sql_.p50Ms)} ${ms(sql_.p95Ms)}   ${(p95Met ? 'met' : 'MISSED').padEnd(12)}   ${rps(apiRps)} ${rps(sqlRps)}   ${ratio.toFixed(2)}x ${(ratio >= TARGET_THROUGHPUT_RATIO ? 'met' : 'MISSED').padEnd(6)} (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})   ${JSON.stringify(c.body)} → ${found.totalProvidersCount} providers, ${found.totalOrganizationsCount} organizations`,
      );
      const loads = rounds.flatMap((r) => [r.api, r.sql]);
      if (process.env.BENCH_VERBOSE || loads.some((l) => l.failures.non2xx + l.failures.errors)) lines.push(...loads.map((l) => `    ${formatLoad(l)}`));
      if (process.env.BENCH_VERBOSE) lines.push(compare(api, sql_));
    }
  } finally {
    await close();
  }
  return lines;
}

export async function directoryBenchmarks(): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-bench-directory-'));
  const lines = [
    `Directory search, ${PROVIDERS.toLocaleString('en-US')} generated NPPES providers (npm run directory:generate), page of ${DIRECTORY_PAGE_SIZE}; latency over ${ITERATIONS} sequential runs after ${WARMUP} warm-ups; throughput with ${LOAD.connections} concurrent callers, ${ROUNDS} alternating rounds of ${LOAD.seconds} s each after one uncounted, the API over HTTP (${LOAD_CLIENT}); SQL = the statements the route runs, called directly:`,
  ];
  try {
    const started = performance.now();
    const files = await generateNppesFiles({ providers: PROVIDERS, out: path.join(dir, 'npidata_pfile_bench.csv'), seed: 10 });
    lines.push(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s: ${files.individuals.toLocaleString('en-US')} individuals, ${files.organizations.toLocaleString('en-US')} organizations, ${files.providersWithDirect.toLocaleString('en-US')} with a Direct address`);
    // PostgreSQL first, the deployment database: its half runs before this process has held the embedded database's
    // memory (a gigabyte or more once the PGlite half has loaded its million rows).
    const url = await benchPostgresUrl();
    if (url) {
      lines.push('PostgreSQL:');
      lines.push(...(await onDatabase('postgres', files, url)));
    } else lines.push('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a server that answers)');
    if (!NATIONAL) {
      lines.push('PGlite:');
      lines.push(...(await onDatabase('pglite', files)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
