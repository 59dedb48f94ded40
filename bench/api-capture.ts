import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { organizations } from '../apps/server/src/db/schema/organizations.ts';
import type { ApiCaptureRecorder } from '../apps/server/src/modules/api-capture/recorder.ts';
import { benchApp, benchPostgresUrl, PASSWORD } from './bench-app.ts';
import { compare, measurePair } from './measure.ts';
import { sized } from './size.ts';

const REQUESTS = sized(600, 10);

// Issue 27 §3: turning API capture on must not slow an organization's calls by more than 10 %. The same route
// (GET /api/users/profiledata) for a user of Lakeside, whose capture is on, against a user of Riverview, whose
// capture is off, timed in turns; the records are redacted and written in batches after the responses, while the
// calls run, so that work weighs on the figure as it would on a busy server. Target: ratio ≤ 1.10x.
export async function apiCaptureBenchmarks(): Promise<string[]> {
  // PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL answers (the inserts then run in its processes, as in
  // production), else the embedded PGlite, whose inserts run on this very thread.
  const databaseUrl = await benchPostgresUrl();
  const { app, handle, close } = await benchApp({ databaseUrl });
  const capture = (app as unknown as { apiCapture: ApiCaptureRecorder }).apiCapture;
  await handle.db.update(organizations).set({ apiCapture: true }).where(eq(organizations.subdomain, 'lakeside'));
  await capture.refresh();
  const token = async (userName: string) =>
    (await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password: PASSWORD } })).json<{ accessToken: string }>().accessToken;
  const captured = await token('user@lakeside.example.org');
  const plain = await token('user@riverview.example.org');
  const call = (accessToken: string) => () => app.inject({ method: 'GET', url: '/api/users/profiledata', headers: { authorization: `Bearer ${accessToken}` } });

  const [on, off] = await measurePair(
    { name: 'GET /api/users/profiledata, capture on (Lakeside)', op: call(captured) },
    { name: 'GET /api/users/profiledata, capture off (Riverview)', op: call(plain) },
    REQUESTS,
    sized(50, 2),
  );
  await capture.flush();
  const [count] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from api_captures`);
  await close();
  return [`api capture on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}`, compare(on, off), `  records written: ${count?.n ?? 0}, dropped: ${capture.dropped}; target: capture on ≤ 1.10x capture off`];
}
