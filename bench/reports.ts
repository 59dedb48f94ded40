import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { to as copyTo } from 'pg-copy-streams';
import { queryRows } from '../apps/server/src/db/client.ts';
import { directAddressPage } from '../apps/server/src/modules/reports/queries.ts';
import { benchApp, benchPostgresUrl, PASSWORD } from './bench-app.ts';
import { sized } from './size.ts';

// Issue 27 §4: a CSV report over 1,000,000 rows starts within a second and streams in constant memory. The Direct
// addresses report is measured over HTTP (time to first byte, rows/s, heap growth) beside raw SQL: the one select a
// buffered export would run (its rows are in hand only when all are read) and, on PostgreSQL, COPY … TO STDOUT CSV.
// BENCH_REPORT_ROWS sets the size (default 1,000,000; 2,000 under BENCH_TINY).
const ROWS = Number(process.env.BENCH_REPORT_ROWS) || sized(1_000_000, 2_000);
const TARGET_FIRST_BYTE_MS = 1000;

const REPORT_SELECT = sql`select s.id, o.org_id, o.name, o.subdomain, s.full_address, s.status, s.created_at
  from document_sources s join organizations o on o.id = s.organization_id where s.type = 'Direct' order by s.id`;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const rate = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;

export async function reportsBenchmarks(): Promise<string[]> {
  const databaseUrl = await benchPostgresUrl();
  const { app, handle, close } = await benchApp({ databaseUrl });
  const lines: string[] = [];
  try {
    const started = performance.now();
    await handle.db.execute(
      sql`insert into document_sources (organization_id, type, full_address, status)
        select (select id from organizations where subdomain = 'lakeside'), 'Direct', 'clinician-' || g || '@bench.direct.example.org', 1 from generate_series(1, ${ROWS}) g`,
    );
    await handle.db.execute(sql`analyze document_sources`);
    lines.push(`reports: ${ROWS.toLocaleString('en-US')} Direct addresses generated on ${handle.kind} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${address}/api/account/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: 'reporting@example.org', password: PASSWORD }) });
    const { accessToken } = (await login.json()) as { accessToken: string };

    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = 0;
    const t0 = performance.now();
    const res = await fetch(`${address}/api/admin/reports/directaddresses`, { headers: { authorization: `Bearer ${accessToken}` } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let firstByte = 0;
    let bytes = 0;
    let newlines = 0;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      if (!firstByte) firstByte = performance.now() - t0;
      bytes += chunk.value.length;
      for (const b of chunk.value) if (b === 10) newlines++;
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - heapBefore);
    }
    const total = performance.now() - t0;
    const rows = newlines - 1;
    lines.push(
      `reports: GET /api/admin/reports/directaddresses ${rows.toLocaleString('en-US')} rows, ${mb(bytes)}: first byte ${firstByte.toFixed(0)} ms (target ≤ ${TARGET_FIRST_BYTE_MS} ms: ${firstByte <= TARGET_FIRST_BYTE_MS ? 'met' : 'NOT met'}), all in ${(total / 1000).toFixed(1)} s, ${rate(rows, total)}, heap growth at most ${mb(heapPeak)}${global.gc ? '' : ' (uncollected garbage included; run with --expose-gc for the retained size)'}`,
    );

    // Baseline 1: the report's rows in one select, as an export that gathers them first would read them.
    const s0 = performance.now();
    const heapBeforeSelect = process.memoryUsage().heapUsed;
    const all = await queryRows<Record<string, unknown>>(handle.db, REPORT_SELECT);
    const selectMs = performance.now() - s0;
    const selectHeap = process.memoryUsage().heapUsed - heapBeforeSelect;
    lines.push(`reports: raw select of the same ${all.length.toLocaleString('en-US')} rows: first row after ${selectMs.toFixed(0)} ms (all at once), ${rate(all.length, selectMs)}, ${mb(selectHeap)} of rows in memory`);
    all.length = 0;

    // Baseline 2: the keyset pages the route reads, without CSV or HTTP.
    const k0 = performance.now();
    let paged = 0;
    let firstPage = 0;
    for (let after: string | null = null; ; ) {
      const page = await directAddressPage(handle.db, after, 2000);
      if (!firstPage) firstPage = performance.now() - k0;
      paged += page.length;
      if (page.length < 2000) break;
      after = page[page.length - 1]!.id;
    }
    const pagedMs = performance.now() - k0;
    lines.push(`reports: raw keyset pages (2,000 rows) of the same query: first page ${firstPage.toFixed(0)} ms, ${rate(paged, pagedMs)}; the route runs at ${((rows / total / (paged / pagedMs)) * 100).toFixed(0)} % of it`);

    // Baseline 3 (PostgreSQL): COPY … TO STDOUT CSV, the server's own fastest CSV.
    if (handle.driver.kind === 'postgres') {
      const client = await handle.driver.pool.connect();
      try {
        const c0 = performance.now();
        let copyFirst = 0;
        let copyBytes = 0;
        const stream = client.query(copyTo(`copy (${'select s.id, o.org_id, o.name, o.subdomain, s.full_address, s.status, s.created_at from document_sources s join organizations o on o.id = s.organization_id where s.type = \'Direct\' order by s.id'}) to stdout with csv header`));
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          if (!copyFirst) copyFirst = performance.now() - c0;
          copyBytes += chunk.length;
        }
        const copyMs = performance.now() - c0;
        lines.push(`reports: raw COPY … TO STDOUT CSV: first byte ${copyFirst.toFixed(0)} ms, ${mb(copyBytes)} in ${(copyMs / 1000).toFixed(1)} s, ${rate(rows, copyMs)}`);
      } finally {
        client.release();
      }
    }
  } finally {
    await close();
  }
  return lines;
}
