import { once } from 'node:events';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { makePdfRendition } from '../apps/server/src/platform/files/renditions.ts';
import { faxTiff } from '../apps/server/src/platform/files/sample-files.ts';
import { workflowHandlers } from '../apps/server/src/platform/workflows/registry.ts';
import { runOnce } from '../apps/server/src/platform/workflows/runner.ts';
import { benchApp, PASSWORD } from './bench-app.ts';
import { sized } from './size.ts';

// Converting a long fax must not stall the API: the event loop's delay and /api/health latency (over
// HTTP from another thread, one request every 20 ms) at rest, while a 30-page 1728 x 2200 fax is rendered in a file worker,
// and, as the reference, while the same fax is rendered on the event loop (how renditions ran before).

const FAX_PAGES = sized(30, 2);
const HEALTH_INTERVAL_MS = 20;
const REST_MS = sized(3000, 300);

interface Window {
  eventLoop: { p50: number; p99: number; max: number };
  health: { p50: number; p99: number; max: number; requests: number };
  elapsedMs: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

// A client on a thread of its own: one in the API's thread would be stalled with it and never see the wait.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const latencies = [];
let stopping = false;
parentPort.once('message', () => (stopping = true));
(async () => {
  while (!stopping) {
    const t = performance.now();
    const res = await fetch(workerData.url);
    await res.arrayBuffer();
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, workerData.interval));
  }
  parentPort.postMessage(latencies);
})();
`;

// Samples while `work` runs: the API thread's event-loop delay, and /api/health latencies seen by a client.
async function observe(base: string, work: () => Promise<unknown>): Promise<Window> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const probe = new Worker(PROBE, { eval: true, workerData: { url: `${base}/api/health`, interval: HEALTH_INTERVAL_MS } });
  const reported = new Promise<number[]>((resolve) => probe.once('message', resolve));
  await once(probe, 'online');
  histogram.enable();
  // The histogram measures from its first tick: a loop blocked before it would go unrecorded.
  await sleep(50);
  const started = performance.now();
  await work();
  const elapsedMs = performance.now() - started;
  // A timer held back by a blocked loop fires only now: let it be recorded.
  await sleep(50);
  histogram.disable();
  probe.postMessage('stop');
  const latencies = (await reported).sort((a, b) => a - b);
  await probe.terminate();
  const ms = (ns: number) => ns / 1e6;
  return {
    eventLoop: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) },
    health: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? 0, requests: latencies.length },
    elapsedMs,
  };
}

const line = (name: string, w: Window) =>
  `${name}: event-loop delay p50 ${w.eventLoop.p50.toFixed(1)} ms, p99 ${w.eventLoop.p99.toFixed(1)} ms, max ${w.eventLoop.max.toFixed(1)} ms; ` +
  `/api/health p50 ${w.health.p50.toFixed(1)} ms, p99 ${w.health.p99.toFixed(1)} ms, max ${w.health.max.toFixed(1)} ms (${w.health.requests} requests in ${(w.elapsedMs / 1000).toFixed(1)} s)`;

export async function filesBenchmarks(): Promise<string[]> {
  const { app, handle, config, close } = await benchApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}`;

  const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'user@lakeside.example.org', password: PASSWORD } });
  const authorization = `Bearer ${login.json<{ accessToken: string }>().accessToken}`;
  const upload = async (bytes: Uint8Array, fileName: string) => {
    const draft = await app.inject({
      method: 'PUT',
      url: '/api/messages',
      headers: { authorization },
      payload: { subject: 'Fax', fromAddress: 'intake@lakeside.direct.example.org', toAddress: 'referrals@riverview.direct.example.org' },
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(bytes)]), fileName);
    const body = new Response(form);
    const url = `/api/messages/${draft.json<{ id: string }>().id}/attachments`;
    const res = await app.inject({ method: 'POST', url, headers: { authorization, 'content-type': body.headers.get('content-type')! }, payload: Buffer.from(await body.arrayBuffer()) });
    if (res.statusCode !== 200) throw new Error(`upload failed: ${res.body}`);
    return res.json<{ id: string }>().id;
  };
  const handlers = workflowHandlers({ config, db: handle.db, now: () => new Date() });
  const render = () => runOnce({ db: handle.db, handlers, logger: { info: () => {}, warn: () => {}, error: () => {} } });

  // The file worker's first job loads its modules: warmed up with a one-page fax, not measured.
  await upload(faxTiff(1), 'warm-up.tif');
  await render();

  const fax = faxTiff(FAX_PAGES);
  const atRest = await observe(base, () => sleep(REST_MS));
  await upload(fax, 'long-fax.tif');
  const inWorker = await observe(base, render);
  const onEventLoop = await observe(base, () => makePdfRendition(fax, { extension: 'tif', fileName: 'long-fax.tif' }));

  await close();
  return [
    `Files: a ${FAX_PAGES}-page fax TIFF (1728 x 2200, ${(fax.length / 1024 / 1024).toFixed(1)} MB) converted to its PDF preview`,
    `  ${line('at rest', atRest)}`,
    `  ${line('converting in a file worker', inWorker)}`,
    `  baseline ${line('converting on the event loop (before)', onEventLoop)}`,
  ];
}
