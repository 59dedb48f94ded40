import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { scanStepTotals } from '../apps/server/src/modules/messaging-dashboard/queries.ts';
import { benchApp, benchPostgresUrl, PASSWORD } from './bench-app.ts';
import { measure, type Measurement } from './measure.ts';
import { sized, TINY } from './size.ts';

// Issue 27 §1: with 1,000,000 messages and 10,000,000 workflow steps the dashboard's calls answer with p95 <= 100 ms on
// PostgreSQL. The dashboard reads the per-minute rollups; the baseline is the scan of the steps they replace.
// BENCH_DASHBOARD_WORKFLOWS sets the number of workflows (10 steps each) for a smaller or larger run.
const STEPS_PER_WORKFLOW = 10;
const DAYS = 30;
const TARGET_P95_MS = 100;
const CALLS = ['/api/diagnostics/messaging/messageCounts', '/api/diagnostics/stats?hours=24', '/api/diagnostics/messaging/systemalerts', '/api/diagnostics/worker'];

const fmt = (m: Measurement) => `${m.name}: p50 ${m.p50Ms!.toFixed(1)} ms, p95 ${m.p95Ms!.toFixed(1)} ms`;

async function onDatabase(kind: string, url: string | undefined, workflowCount: number): Promise<string[]> {
  const { app, handle, close } = await benchApp({ databaseUrl: url });
  const db = handle.db;
  try {
    const seeding = performance.now();
    // The workflows of the last 30 days, spread over the minutes: a fifth received, the rest sent, 1 % failed.
    await db.execute(sql`insert into workflows (type, status, attempts, created_at, updated_at, completed_at, run_after)
      select case when g % 5 = 0 then 'receive-direct' else 'send-message' end, case when g % 100 = 0 then 'Failed' else 'Completed' end, 1,
        t, t, t, t
      from (select g, now() - make_interval(mins => g % ${DAYS * 1440}) as t from generate_series(1, ${workflowCount}) g) s`);
    await db.execute(sql`insert into workflow_steps (workflow_id, name, key, status, attempts, started_at, completed_at)
      select w.id, 'deliver', 'recipient-' || k, 'Completed', 1, w.created_at, w.completed_at
      from workflows w cross join generate_series(1, ${STEPS_PER_WORKFLOW}) k`);
    // What the steps wrote into the rollups as they completed: every minute of the 30 days, both directions, three
    // channels and three outcomes.
    await db.execute(sql`insert into messaging_rollups (minute, direction, channel, outcome, count)
      select date_trunc('minute', now()) - make_interval(mins => m), d, c, o, 1 + (m % 7)
      from generate_series(0, ${DAYS * 1440 - 1}) m
      cross join (values ('Inbound'), ('Outbound')) dd(d) cross join (values ('Direct'), ('Local'), ('Fax')) cc(c) cross join (values ('Success'), ('Failure'), ('Other')) oo(o)`);
    await db.execute(sql`analyze`);
    const seeded = ((performance.now() - seeding) / 1000).toFixed(0);
    const [size] = await queryRows<{ w: number; s: number; r: number }>(
      db,
      sql`select (select count(*) from workflows)::int as w, (select count(*) from workflow_steps)::int as s, (select count(*) from messaging_rollups)::int as r`,
    );

    const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'sysadmin@example.org', password: PASSWORD } });
    const token = login.json<{ accessToken: string }>().accessToken;
    const call = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    };
    const iterations = sized(200, 10);
    const lines = [
      `Messaging dashboard on ${kind}: ${size!.w.toLocaleString('en-US')} workflows, ${size!.s.toLocaleString('en-US')} steps, ${size!.r.toLocaleString('en-US')} rollup rows (${DAYS} days; seeded in ${seeded} s)`,
    ];
    const results: Measurement[] = [];
    for (const url of CALLS) results.push(await measure(`GET ${url}`, iterations, () => call(url)));
    // The whole page's 10-second refresh: its three calls together, as the browser makes them.
    results.push(await measure('dashboard refresh (messageCounts + systemalerts + worker, in parallel)', iterations, () => Promise.all([call(CALLS[0]!), call(CALLS[2]!), call(CALLS[3]!)])));
    const baseline = await measure('raw scan of the last 24 hours of workflow_steps (what the rollups replace)', sized(5, 3), () => scanStepTotals(db), 1);
    for (const m of results) lines.push(`  ${fmt(m)}${m.p95Ms! <= TARGET_P95_MS ? '' : `  (above the ${TARGET_P95_MS} ms target)`}`);
    lines.push(`  baseline ${fmt(baseline)}`);
    lines.push(`  target: p95 <= ${TARGET_P95_MS} ms at 1,000,000 messages / 10,000,000 steps on PostgreSQL${TINY ? ' (tiny run: figures mean nothing)' : ''}`);
    return lines;
  } finally {
    await close();
  }
}

export async function dashboardBenchmarks(): Promise<string[]> {
  const url = await benchPostgresUrl();
  const requested = Number(process.env.BENCH_DASHBOARD_WORKFLOWS) || undefined;
  if (url) return onDatabase('PostgreSQL', url, requested ?? sized(1_000_000, 2_000));
  // PGlite is one process's database, not the platform-scale target: a tenth of the size.
  return [...(await onDatabase('PGlite', undefined, requested ?? sized(100_000, 2_000))), 'Messaging dashboard on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a server that answers)'];
}
