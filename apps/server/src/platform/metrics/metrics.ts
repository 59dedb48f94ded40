import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { queryRows, type Database } from '../../db/client.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { App } from '../http.ts';

// Issue 27 §5: one registry per process (prom-client's metrics are process-wide), served at /metrics in the
// Prometheus text format. The README lists every metric and an example alert rule.
export const metricsRegistry = new Registry();
// Node's own: CPU, memory, GC, handles, and the event-loop delay (nodejs_eventloop_lag_* from monitorEventLoopDelay).
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });

export const httpRequestDuration = new Histogram({
  name: 'clinicrelay_http_request_duration_seconds',
  help: 'API and page requests by method, route pattern (never the raw URL) and status code.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

// Counted where the step ends (platform/workflows/context.ts), in whichever process runs it: servers and workers.
export const workflowStepsTotal = new Counter({
  name: 'clinicrelay_workflow_steps_total',
  help: 'Workflow steps finished by this process, by workflow type, step name and status (Completed, Failed).',
  labelNames: ['type', 'step', 'status'] as const,
  registers: [metricsRegistry],
});

// Read from the database at scrape time: what every process shares. Only indexed, bounded queries (pending work,
// recipients still waiting for an MDN, mail not sent), cached SCRAPE_CACHE_MS so several scrapers cost one round.
const workflowsGauge = new Gauge({
  name: 'clinicrelay_workflows',
  help: 'Workflows waiting or running now, by type and status (Pending, Running).',
  labelNames: ['type', 'status'] as const,
  registers: [metricsRegistry],
});
const queueAge = new Gauge({
  name: 'clinicrelay_queue_oldest_age_seconds',
  help: 'Age of the oldest due, unclaimed workflow of each type (0 when none waits).',
  labelNames: ['type'] as const,
  registers: [metricsRegistry],
});
const mdnAwaiting = new Gauge({
  name: 'clinicrelay_direct_mdn_awaiting',
  help: 'Direct recipients sent over SMTP and still waiting for their MDN: awaiting (within DIRECT_MDN_TIMEOUT_MINUTES) and overdue (past it, not yet marked failed).',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});
// Counted where the MDN is applied (transports/direct/timeline.ts), in the process that received it.
export const mdnOutcomesTotal = new Counter({
  name: 'clinicrelay_direct_mdn_total',
  help: 'Direct delivery notifications by outcome: processed, dispatched, failed, deleted (MDNs received by this process) and timeout (recipients failed for want of one).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
const mailOutbox = new Gauge({
  name: 'clinicrelay_mail_outbox',
  help: 'Mail in the outbox by state: queued (not sent yet) and failed (gave up); sent mail is not counted.',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});
const mailOutboxAge = new Gauge({
  name: 'clinicrelay_mail_outbox_oldest_queued_age_seconds',
  help: 'Age of the oldest mail still queued (0 when none).',
  registers: [metricsRegistry],
});
const poolConnections = new Gauge({
  name: 'clinicrelay_db_pool_connections',
  help: 'PostgreSQL pool of this process: total, idle and waiting (requests queued for a connection). Absent on the embedded database.',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});
const poolMax = new Gauge({ name: 'clinicrelay_db_pool_max_connections', help: 'The PostgreSQL pool size of this process.', registers: [metricsRegistry] });

const SCRAPE_CACHE_MS = 5_000;

interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}
const poolOf = (db: Database): PoolLike | undefined => {
  const client = (db as unknown as { $client?: Partial<PoolLike> }).$client;
  return client && typeof client.totalCount === 'number' ? (client as PoolLike) : undefined;
};

const num = (v: unknown) => Number(v ?? 0);

async function readDatabaseFigures(db: Database): Promise<void> {
  const [workflowRows, ageRows, mdnRows, mailRows] = await Promise.all([
    queryRows<{ type: string; status: string; n: number }>(db, sql`select type, status, count(*)::int as n from workflows where status in ('Pending', 'Running') group by type, status`),
    queryRows<{ type: string; age: number }>(
      db,
      sql`select type, extract(epoch from now() - min(run_after))::float8 as age from workflows where status = 'Pending' and run_after <= now() group by type`,
    ),
    // Only rows still waiting carry notification_due_at (indexed): the sent-and-answered majority is never read.
    queryRows<{ state: string; n: number }>(
      db,
      sql`select case when notification_due_at < now() then 'overdue' else 'awaiting' end as state, count(*)::int as n
          from deliveries where notification_due_at is not null and status = 'Pending' group by 1`,
    ),
    queryRows<{ status: string; n: number; age: number | null }>(
      db,
      sql`select status, count(*)::int as n, extract(epoch from now() - min(created_at))::float8 as age from mail_outbox where status in ('Queued', 'Failed') group by status`,
    ),
  ]);
  workflowsGauge.reset();
  for (const r of workflowRows) workflowsGauge.set({ type: r.type, status: r.status }, num(r.n));
  queueAge.reset();
  for (const r of ageRows) queueAge.set({ type: r.type }, Math.max(0, num(r.age)));
  for (const state of ['awaiting', 'overdue']) mdnAwaiting.set({ state }, num(mdnRows.find((r) => r.state === state)?.n));
  for (const status of ['Queued', 'Failed']) mailOutbox.set({ status: status.toLowerCase() }, num(mailRows.find((r) => r.status === status)?.n));
  mailOutboxAge.set(Math.max(0, num(mailRows.find((r) => r.status === 'Queued')?.age)));
}

/** The text Prometheus scrapes, with the database figures of `db` read at most every 5 s. */
export function metricsText(db: Database): () => Promise<string> {
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  return async () => {
    if (performance.now() - readAt > SCRAPE_CACHE_MS) {
      reading ??= readDatabaseFigures(db).finally(() => {
        readAt = performance.now();
        reading = undefined;
      });
      await reading;
    }
    const pool = poolOf(db);
    if (pool) {
      poolConnections.set({ state: 'total' }, pool.totalCount);
      poolConnections.set({ state: 'idle' }, pool.idleCount);
      poolConnections.set({ state: 'waiting' }, pool.waitingCount);
      if (pool.options?.max) poolMax.set(pool.options.max);
    }
    return metricsRegistry.metrics();
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();
/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasMetricsToken(request: Pick<FastifyRequest, 'headers'>, token: string): boolean {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/** Times every request of the app by its route pattern and status. */
export function registerRequestMetrics(app: App): void {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    httpRequestDuration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}

/**
 * GET /metrics on the app: 404 unless METRICS_TOKEN is set (and METRICS_PORT is not, which serves it elsewhere), 401
 * without the bearer token. Never public.
 */
export function registerMetricsRoute(app: App, deps: { db: Database; token: string | undefined; servedHere: boolean }): void {
  const text = metricsText(deps.db);
  app.route({
    method: 'GET',
    url: '/metrics',
    schema: { hide: true },
    handler: async (request, reply) => {
      if (!deps.token || !deps.servedHere) return reply.status(404).send({ message: messages.notFound });
      if (!hasMetricsToken(request, deps.token)) return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send({ message: 'Unauthorized.' });
      return reply.header('cache-control', 'no-store').type(metricsRegistry.contentType).send(await text());
    },
  });
}

/** METRICS_PORT: /metrics alone on a port of its own (kept off the public listener), the same bearer token required. */
export async function startMetricsServer(opts: { db: Database; token: string; port: number; host: string }): Promise<Server> {
  const text = metricsText(opts.db);
  const server = createServer((req, res) => {
    const answer = (status: number, body: string, type = 'application/json; charset=utf-8', headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return answer(404, JSON.stringify({ message: messages.notFound }));
    if (!hasMetricsToken(req, opts.token)) return answer(401, JSON.stringify({ message: 'Unauthorized.' }), undefined, { 'www-authenticate': 'Bearer realm="metrics"' });
    text().then(
      (body) => answer(200, body, metricsRegistry.contentType),
      () => answer(500, JSON.stringify({ message: 'Metrics are unavailable.' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}
