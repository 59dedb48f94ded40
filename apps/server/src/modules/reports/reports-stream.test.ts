import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

// Issue 27 §4: a report streams from the database in pages, so its memory stays flat whatever its size. A generated
// database of many Direct addresses is downloaded over a real socket while the retained heap is measured after forced
// collections: a report that gathered its rows (or its text) before sending would hold tens of megabytes.
const ROWS = Number(process.env.REPORT_STREAM_ROWS ?? 100_000);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retained = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

describe('streamed reports', () => {
  const t = useTestApp();

  it(`downloads ${ROWS} rows with the retained heap bounded far below the file's size`, { timeout: 240_000 }, async () => {
    const [lakeside] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    await t.handle.db.execute(
      sql`insert into document_sources (organization_id, type, full_address, status)
        select ${lakeside!.id}::uuid, 'Direct', 'clinician-' || g || '.with-a-longer-name@bulk-generated.direct.example.org', 1 from generate_series(1, ${ROWS}) g`,
    );
    const { accessToken } = await t.login('reporting@example.org');
    // Closed with the app after the tests.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    {
      const before = retained();
      const res = await fetch(`${address}/api/admin/reports/directaddresses`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let bytes = 0;
      let newlines = 0;
      let chunks = 0;
      let peak = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        for (const b of value) if (b === 10) newlines++;
        if (++chunks % 100 === 0) peak = Math.max(peak, retained() - before);
      }
      peak = Math.max(peak, retained() - before);
      // Every address of the demo world and the generated ones, with the header line.
      expect(newlines).toBeGreaterThan(ROWS);
      expect(bytes).toBeGreaterThan(ROWS * 100);
      // The file is over 14 MB at the default size; one page of rows is well under 1 MB (measured: about 2 MB retained).
      expect(peak, `retained heap growth ${Math.round(peak / 1e6)} MB for a ${Math.round(bytes / 1e6)} MB file`).toBeLessThan(Math.min(8e6, bytes / 2));
    }
  });
});
