import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { TEST_PASSWORD } from '../test/app.ts';
import { postgresUnavailableReason, startPostgresCluster, type PostgresCluster } from '../test/postgres-cluster.ts';
import { openPostgres } from './client.ts';
import { seedDemo } from './seed/demo.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const skipReason = inject('testDatabase') === 'pglite' ? postgresUnavailableReason() : 'runs in the default server project';

// The real server process (main.ts, with its workers), not an app in the test's process: it must still be
// running after its database restarted under it mid-transaction.
describe.skipIf(skipReason)('the server process through a PostgreSQL restart', () => {
  let cluster: PostgresCluster;
  let server: ChildProcess;
  let dataDir: string;
  let base: string;
  let output = '';

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const seeding = openPostgres(cluster.url, 2);
    await seeding.migrate();
    await seedDemo(seeding.db, { demoPassword: TEST_PASSWORD, env: 'test' });
    await seeding.close();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-process-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: cluster.url,
        WORKER_CONCURRENCY: '1',
        LOG_LEVEL: 'warn',
        TOKEN_SIGNING_KEY: 'dGVzdC1zaWduaW5nLWtleS10ZXN0LXNpZ25pbmcta2V5LTMyYnl0ZXMhIQ==',
        BLOB_ENCRYPTION_KEY: 'dGVzdC1ibG9iLWtleS10ZXN0LWJsb2Ita2V5LXRlc3QtYmxvYi1rZXkhIQ==',
        WEB_DIST_DIR: path.join(dataDir, 'no-web'),
        LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
        // No listener on a default port: the test must pass beside a running `npm start` (issue 26 §5).
        DIRECT_SMTP_PORT: 'off',
        DIRECT_DNS_PUBLISH_PORT: 'off',
        EMERGENCY_SERVICE_PORT: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    await vi.waitFor(
      () => {
        if (server.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
        expect(output).toContain('ClinicRelay is running');
      },
      { timeout: 60_000, interval: 100 },
    );
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((done) => server.once('exit', done));
    }
    await cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps running, answers 503 while the database is down and 200 again after', async () => {
    const login = await fetch(`${base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'user@lakeside.example.org', password: TEST_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const statuses: { status: number; at: number }[] = [];
    let running = true;
    const writer = async (w: number) => {
      for (let i = 0; running; i++) {
        const res = await fetch(`${base}/api/messages`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
          body: JSON.stringify({ subject: `process draft ${w}-${i}` }),
        });
        await res.arrayBuffer();
        statuses.push({ status: res.status, at: performance.now() });
        await sleep(10);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    try {
      await vi.waitFor(() => expect(statuses.filter((s) => s.status === 200).length).toBeGreaterThan(5), { timeout: 10_000 });
      await cluster.stop('immediate');
      await sleep(1_500);
      await cluster.start();
      const backAt = performance.now();
      await vi.waitFor(() => expect(statuses.some((s) => s.status === 200 && s.at > backAt)).toBe(true), { timeout: 10_000, interval: 20 });
    } finally {
      running = false;
      await Promise.all(writers);
    }

    expect(server.exitCode, output).toBeNull();
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set([200, 503]));
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(output).not.toMatch(/Unhandled 'error' event|uncaught exception/i);
  }, 90_000);
});
