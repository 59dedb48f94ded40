import autocannon from 'autocannon';
import type { App } from '../apps/server/src/platform/http.ts';

// Throughput under load: `connections` clients on loopback for `seconds` against the real app listening on a port
// (HTTP, session lookup, validation, serialization), autocannon running in a worker thread so the load does not
// queue on the server's event loop; beside as many concurrent callers of the raw statements through the same
// database handle (the pool on PostgreSQL). Latencies are autocannon's percentiles (it has no p95).
export const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS) || 10;

export interface LoadFigure {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p97_5Ms: number;
  p99Ms: number;
  // What did not answer 200.
  failures: { non2xx: number; errors: number; timeouts: number };
}

const nearestRank = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

export const formatLoad = (f: LoadFigure) =>
  `${f.name}: ${f.requestsPerSecond.toFixed(0)} requests/s, p50 ${f.p50Ms.toFixed(0)} ms, p97.5 ${f.p97_5Ms.toFixed(0)} ms, p99 ${f.p99Ms.toFixed(0)} ms` +
  (f.failures.non2xx + f.failures.errors + f.failures.timeouts
    ? `, failed: ${f.failures.non2xx} not 200, ${f.failures.errors} errors (${f.failures.timeouts} timeouts)`
    : '');

export interface LoadOptions {
  connections: number;
  seconds?: number;
}

/** The app listening on loopback (once; later calls reuse the address) under autocannon's load. */
export async function routeUnderLoad(
  app: App,
  request: { url: string; method: 'GET' | 'POST'; authorization: string; body?: unknown },
  name: string,
  { connections, seconds = LOAD_SECONDS }: LoadOptions,
): Promise<LoadFigure> {
  const listening = app.server.listening ? app.listeningOrigin : await app.listen({ host: '127.0.0.1', port: 0 });
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: `${listening}${request.url}`,
        method: request.method,
        connections,
        duration: seconds,
        workers: 1,
        headers: { authorization: request.authorization, 'content-type': 'application/json' },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
  });
  return {
    name: `${name}, ${connections} connections for ${seconds} s (autocannon), route`,
    requestsPerSecond: result.requests.total / seconds,
    p50Ms: result.latency.p50,
    p97_5Ms: result.latency.p97_5,
    p99Ms: result.latency.p99,
    failures: { non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts },
  };
}

/** `op` called by `connections` concurrent callers for `seconds`. */
export async function rawUnderLoad(op: () => Promise<unknown>, name: string, { connections, seconds = LOAD_SECONDS }: LoadOptions): Promise<LoadFigure> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          await op();
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    name: `${name}, ${connections} concurrent callers`,
    requestsPerSecond: latencies.length / elapsed,
    p50Ms: nearestRank(sorted, 50),
    p97_5Ms: nearestRank(sorted, 97.5),
    p99Ms: nearestRank(sorted, 99),
    failures: { non2xx: 0, errors, timeouts: 0 },
  };
}
