import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { App } from '../apps/server/src/platform/http.ts';
import { sized } from './size.ts';

// Throughput under load: `connections` clients on loopback for `seconds` against the real app listening on a port
// (HTTP, session lookup, validation, serialization), beside as many concurrent callers of the raw statements through
// the same database handle (the pool on PostgreSQL). The client is wrk when the machine has it (apt-get install wrk):
// a C program in its own process, it takes about a tenth of the CPU per request that autocannon does, and on a
// 2-core machine whatever the client takes is taken from the server and the database. Without wrk, autocannon in a
// worker thread of this process; the figure's name says which.
export const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS) || sized(10, 1);

export interface LoadFigure {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  // What did not answer 200.
  failures: { non2xx: number; errors: number; timeouts: number };
}

const nearestRank = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

export const formatLoad = (f: LoadFigure) =>
  `${f.name}: ${f.requestsPerSecond.toFixed(0)} requests/s, p50 ${f.p50Ms.toFixed(0)} ms, p90 ${f.p90Ms.toFixed(0)} ms, p99 ${f.p99Ms.toFixed(0)} ms` +
  (f.failures.non2xx + f.failures.errors + f.failures.timeouts
    ? `, failed: ${f.failures.non2xx} not 200, ${f.failures.errors} errors (${f.failures.timeouts} timeouts)`
    : '');

export interface LoadOptions {
  connections: number;
  seconds?: number;
}

interface LoadRequest {
  url: string;
  method: 'GET' | 'POST';
  authorization: string;
  body?: unknown;
}

export const LOAD_CLIENT: 'wrk' | 'autocannon' = spawnSync('wrk', ['-v']).error ? 'autocannon' : 'wrk';

/** The app listening on loopback (once; later calls reuse the address) under the load client's requests. */
export async function routeUnderLoad(app: App, request: LoadRequest, name: string, { connections, seconds = LOAD_SECONDS }: LoadOptions): Promise<LoadFigure> {
  const origin = app.server.listening ? app.listeningOrigin : await app.listen({ host: '127.0.0.1', port: 0 });
  const figure = LOAD_CLIENT === 'wrk' ? await wrk(`${origin}${request.url}`, request, connections, seconds) : await autocannonRun(`${origin}${request.url}`, request, connections, seconds);
  return { name: `${name}, ${connections} connections for ${seconds} s (${LOAD_CLIENT}), route`, ...figure };
}

type Measured = Omit<LoadFigure, 'name'>;

async function autocannonRun(url: string, request: LoadRequest, connections: number, seconds: number): Promise<Measured> {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url,
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
    requestsPerSecond: result.requests.total / (result.duration || seconds),
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    failures: { non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts },
  };
}

// wrk's report: "Requests/sec:", the --latency percentiles ("50%  1.23ms"), "Non-2xx or 3xx responses:" and
// "Socket errors: connect 0, read 0, write 0, timeout 0" when there were any.
async function wrk(url: string, request: LoadRequest, connections: number, seconds: number): Promise<Measured> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-wrk-'));
  const script = path.join(dir, 'request.lua');
  const body = request.body === undefined ? '' : `wrk.body = ${JSON.stringify(JSON.stringify(request.body))}\n`;
  writeFileSync(script, `wrk.method = "${request.method}"\n${body}wrk.headers["content-type"] = "application/json"\nwrk.headers["authorization"] = ${JSON.stringify(request.authorization)}\n`);
  try {
    const report = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url]);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${out}`))));
    });
    const ms = (p: string) => {
      const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(report);
      return m ? Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as const)[m[2] as 'us' | 'ms' | 's'] : Number.NaN;
    };
    // A report this does not read is an error, not a figure of NaN.
    // wrk runs a little past its duration (2.05-2.10 s for -d2s with 100 ms responses) and counts what answered
    // meanwhile: the rate is over its own elapsed time, as the raw callers' is, not over the duration asked.
    const counted = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(report);
    if (!counted || !/^\s*99%/m.test(report)) throw new Error(`wrk's report has no request count or latency percentiles: ${report}`);
    const elapsedSeconds = Number(counted[2]) * ({ us: 1e-6, ms: 1e-3, s: 1, m: 60 } as const)[counted[3] as 'us' | 'ms' | 's' | 'm'];
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report)?.slice(1).map(Number) ?? [0, 0, 0, 0];
    return {
      requestsPerSecond: Number(counted[1]) / elapsedSeconds,
      p50Ms: ms('50'),
      p90Ms: ms('90'),
      p99Ms: ms('99'),
      failures: { non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0), errors: socket[0]! + socket[1]! + socket[2]!, timeouts: socket[3]! },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
    p90Ms: nearestRank(sorted, 90),
    p99Ms: nearestRank(sorted, 99),
    failures: { non2xx: 0, errors, timeouts: 0 },
  };
}
