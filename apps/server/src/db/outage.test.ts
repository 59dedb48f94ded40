import { performance } from 'node:perf_hooks';
import type { LightMyRequestResponse } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { buildApp } from '../app.ts';
import type { App } from '../platform/http.ts';
import { listenWithPayload, notify, type ChannelListener } from '../platform/realtime/notifications.ts';
import { enqueue } from '../platform/workflows/enqueue.ts';
import { startWorkers, type Workers } from '../platform/workflows/runner.ts';
import { testConfig, TEST_PASSWORD } from '../test/app.ts';
import { postgresUnavailableReason, startPostgresCluster, type PostgresCluster } from '../test/postgres-cluster.ts';
import { openPostgres, type DatabaseHandle } from './client.ts';
import { seedDemo } from './seed/demo.ts';

const USER = 'user@lakeside.example.org';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Outcome {
  kind: 'write' | 'read';
  status: number;
  retryAfter: string | undefined;
  message: string | undefined;
  at: number;
  id?: string;
  subject?: string;
}

// The cluster is the test's own whatever the project, so it runs once, in the default (PGlite) project.
const skipReason = inject('testDatabase') === 'pglite' ? postgresUnavailableReason() : 'runs in the default server project';

describe.skipIf(skipReason)('a PostgreSQL restart under load', () => {
  let cluster: PostgresCluster;
  let handle: DatabaseHandle;
  let app: App;
  let token: string;
  let workers: Workers;
  let listener: ChannelListener;
  const workflowRuns: string[] = [];
  const notifications: string[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    handle = openPostgres(cluster.url, 10);
    await handle.migrate();
    await seedDemo(handle.db, { demoPassword: TEST_PASSWORD, env: 'test' });
    app = await buildApp({ config: testConfig(), db: handle.db, logger: false });
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: USER, password: TEST_PASSWORD } });
    token = login.json<{ accessToken: string }>().accessToken;
    // Polling once a minute: a workflow that runs after the restart was woken by the re-established LISTEN.
    const handlers = new Map([['outage-test', async (ctx: { workflow: { id: string } }) => void workflowRuns.push(ctx.workflow.id)]]);
    workers = await startWorkers({ db: handle.db, handlers, pollIntervalMs: 60_000, concurrency: 1, logger: quiet });
    listener = await listenWithPayload(handle.db, 'outage_test', { onPayload: (p) => void notifications.push(p), onResubscribed: () => undefined }, quiet);
  }, 120_000);

  afterAll(async () => {
    await listener?.stop();
    await workers?.stop();
    await app?.close();
    await handle?.close();
    await cluster?.destroy();
  });

  const call = (method: 'GET' | 'PUT', url: string, payload?: object): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

  // Writers save new drafts and readers list them, each one request after another, until stopped.
  function startLoad(label: string, writers = 5, readers = 2) {
    const outcomes: Outcome[] = [];
    let running = true;
    const record = (kind: Outcome['kind'], res: LightMyRequestResponse, extra: Partial<Outcome> = {}) => {
      const body = res.statusCode === 200 ? undefined : res.json<{ message?: string }>();
      const retryAfter = res.headers['retry-after'];
      outcomes.push({ kind, status: res.statusCode, retryAfter: retryAfter === undefined ? undefined : String(retryAfter), message: body?.message, at: performance.now(), ...extra });
    };
    const writer = async (w: number) => {
      for (let i = 0; running; i++) {
        const subject = `${label} draft ${w}-${i}`;
        const res = await call('PUT', '/api/messages', { subject, body: 'Follow-up visit notes' });
        record('write', res, res.statusCode === 200 ? { id: res.json<{ id: string }>().id, subject } : {});
        await sleep(10);
      }
    };
    const reader = async () => {
      while (running) {
        record('read', await call('GET', '/api/messages?isDraft=true&pageSize=5'));
        await sleep(10);
      }
    };
    const loops = [...Array.from({ length: writers }, (_, w) => writer(w)), ...Array.from({ length: readers }, () => reader())];
    return {
      outcomes,
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  for (const mode of ['fast', 'immediate'] as const) {
    it(`keeps serving through a ${mode} restart: 503 with Retry-After while down, back within 2 s, no acknowledged write lost`, async () => {
      const load = startLoad(mode);
      onTestFinished(() => load.stop());
      onTestFinished(() => cluster.start().catch(() => undefined));
      await vi.waitFor(() => expect(load.outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(10), { timeout: 10_000 });

      await cluster.stop(mode);
      const stoppedAt = performance.now();
      await sleep(1_000);
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode, health.body).toBe(503);
      expect(health.headers['retry-after']).toBe('5');
      expect(health.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' });

      await cluster.start();
      const backAt = performance.now();
      await vi.waitFor(() => expect(load.outcomes.some((o) => o.status === 200 && o.at > backAt)).toBe(true), { timeout: 10_000, interval: 20 });
      await sleep(300);
      await load.stop();

      const statuses = new Set(load.outcomes.map((o) => o.status));
      expect([...statuses].sort()).toEqual([200, 503]);
      for (const o of load.outcomes.filter((x) => x.status === 503)) {
        expect(o).toMatchObject({ retryAfter: '5', message: messages.serviceUnavailable });
      }
      const firstSuccess = Math.min(...load.outcomes.filter((o) => o.status === 200 && o.at > stoppedAt).map((o) => o.at));
      const recoveryMs = Math.max(0, firstSuccess - backAt);
      const outage = load.outcomes.filter((o) => o.status === 503).length;
      console.log(`${mode} restart: first 2xx ${recoveryMs.toFixed(0)} ms after pg_ctl start returned; ${outage} requests answered 503 while down`);
      expect(recoveryMs).toBeLessThan(2_000);

      const acknowledged = load.outcomes.filter((o) => o.kind === 'write' && o.status === 200);
      for (const write of acknowledged) {
        const res = await call('GET', `/api/messages/${write.id}`);
        expect(res.statusCode).toBe(200);
        expect(res.json<{ subject: string }>().subject).toBe(write.subject);
      }
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      // No connection was lost from the pool for good (a transaction whose BEGIN met the outage kept its slot).
      const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
      await vi.waitFor(() => expect(pool.totalCount - pool.idleCount).toBe(0), { timeout: 5_000, interval: 50 });
    }, 90_000);
  }

  it('resumes workflows and notifications after the restarts (LISTEN reconnected)', async () => {
    const id = await handle.db.transaction((tx) => enqueue(tx, { type: 'outage-test', payload: {} }));
    await vi.waitFor(() => expect(workflowRuns).toContain(id), { timeout: 10_000, interval: 50 });
    await vi.waitFor(
      async () => {
        await notify(handle.db, 'outage_test', 'after restart');
        await sleep(50);
        expect(notifications).toContain('after restart');
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});
