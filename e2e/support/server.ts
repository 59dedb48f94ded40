import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD, REPO_ROOT, RESULTS_DIR } from './constants.ts';

export interface RunningServer {
  // The server's DATA_DIR: journeys read what it writes there (the mail outbox's .eml files).
  dataDir: string;
  baseUrl: string;
  // The emergency-organization service (issue 29 §6) the server runs on a port of its own.
  emergencyServiceUrl: string;
  logFile: string;
  stop: () => Promise<void>;
}

const READY_TIMEOUT_MS = 150_000;
const STOP_GRACE_MS = 10_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

// The whole process group: the server may have children (workers, converters) that must not outlive the run.
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function waitForHealth(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`[e2e] server exited (${child.exitCode ?? child.signalCode}) before it was ready; see ${logFile}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok && ((await response.json()) as { status?: string }).status === 'ok') return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`[e2e] server not healthy after ${READY_TIMEOUT_MS / 1000} s; see ${logFile}`);
}

export interface ServerOptions {
  // Extra environment (DEMO_WORLD=peer for a second installation, DIRECT_SMARTHOSTS, …).
  env?: Record<string, string>;
  // Log file name under test-results (one per server).
  logName?: string;
  // Direct SMTP and CERT-responder ports chosen beforehand (another installation already routes to them).
  smtpPort?: number;
  dnsPort?: number;
  // DNS servers asked after the server's own responder: the other installation's.
  moreDnsServers?: string[];
}

export interface DirectPorts {
  smtpPort: number;
  dnsPort: number;
}

/** Two free ports for an installation's Direct listener and CERT responder. */
export async function freeDirectPorts(): Promise<DirectPorts> {
  return { smtpPort: await freePort(), dnsPort: await freePort() };
}

/**
 * One server on a free port with an empty DATA_DIR, so it migrates and seeds the demo world. Its Direct SMTP listener and
 * CERT responder get free ports too, and it looks certificates up only in its own responder unless told otherwise, so a
 * journey never waits on the Internet's DNS.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer & DirectPorts> {
  const port = await freePort();
  const smtpPort = options.smtpPort ?? (await freePort());
  const dnsPort = options.dnsPort ?? (await freePort());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-e2e-'));
  mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = path.join(RESULTS_DIR, options.logName ?? 'server.log');
  const log = createWriteStream(logFile);
  const baseUrl = `http://127.0.0.1:${port}`;
  const emergencyPort = await freePort();
  const emergencyServiceUrl = `http://127.0.0.1:${emergencyPort}`;
  const started = Date.now();

  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_PASSWORD,
      // Every journey signs in from 127.0.0.1; the default 60 per minute would throttle the suite.
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'warn',
      DIRECT_SMTP_PORT: String(smtpPort),
      DIRECT_DNS_PUBLISH_PORT: String(dnsPort),
      DIRECT_DNS_SERVERS: [`127.0.0.1:${dnsPort}`, ...(options.moreDnsServers ?? [])].join(','),
      EMERGENCY_SERVICE_PORT: String(emergencyPort),
      EMERGENCY_SERVICE_URL: emergencyServiceUrl,
      ...options.env,
    },
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });

  // Backstop when vitest is interrupted before its teardown runs: never leave a server behind.
  const onExit = () => {
    signalGroup(child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  const stop = async () => {
    process.off('exit', onExit);
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
    await exited(child);
    clearTimeout(timer);
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, child, logFile);
    // Started right after the app's listen: ready within moments of it.
    await waitForHealth(emergencyServiceUrl, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  console.log(`[e2e] server ready at ${baseUrl} in ${((Date.now() - started) / 1000).toFixed(1)} s (log: ${path.relative(REPO_ROOT, logFile)})`);
  return { baseUrl, emergencyServiceUrl, dataDir, logFile, stop, smtpPort, dnsPort };
}
