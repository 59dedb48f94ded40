import { availableParallelism } from 'node:os';
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { RESULTS_DIR } from './constants.ts';
import { E2E_WORKERS } from './workers.ts';
import { freeDirectPorts, startServer, type RunningServer } from './server.ts';
import { ensureWebBuild } from './web-build.ts';
import type { E2EServer } from './current-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    // One seeded server per worker: a worker runs its files one after another against servers[VITEST_POOL_ID - 1].
    servers: E2EServer[];
  }
}

/** Builds the SPA if needed, starts one seeded server per worker for the whole run, and stops them at the end. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Screenshots of an earlier run would be mistaken for this run's failures.
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  ensureWebBuild();
  console.log(`[e2e] ${E2E_WORKERS} worker(s), one server each (${availableParallelism()} cores; E2E_WORKERS to change)`);
  const started: RunningServer[] = [];
  const stopAll = async () => void (await Promise.all(started.map((server) => server.stop())));
  try {
    const servers = await Promise.all(
      Array.from({ length: E2E_WORKERS }, async (_, index): Promise<E2EServer> => {
        // Each server already routes to a peer's ports and asks its CERT responder, so a journey can start one.
        const peerDirect = await freeDirectPorts();
        const server = await startServer({
          logName: index === 0 ? 'server.log' : `server-${index + 1}.log`,
          moreDnsServers: [`127.0.0.1:${peerDirect.dnsPort}`],
          env: { DIRECT_SMARTHOSTS: `peer.example.net=127.0.0.1:${peerDirect.smtpPort}` },
        });
        started.push(server);
        return { baseUrl: server.baseUrl, dataDir: server.dataDir, direct: { smtpPort: server.smtpPort, dnsPort: server.dnsPort }, peerDirect, index };
      }),
    );
    project.provide('servers', servers);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}
