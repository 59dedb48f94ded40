import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { RESULTS_DIR } from './constants.ts';
import { freeDirectPorts, startServer, type DirectPorts } from './server.ts';
import { ensureWebBuild } from './web-build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    // The main server's Direct ports, and the ones kept for a peer installation a journey may start (direct-exchange).
    direct: DirectPorts;
    peerDirect: DirectPorts;
  }
}

/** Builds the SPA if needed, starts one seeded server for the whole run, and stops it at the end. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Screenshots of an earlier run would be mistaken for this run's failures.
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  ensureWebBuild();
  // The main server already routes to a peer's ports and asks its CERT responder, so a journey can start one.
  const peerDirect = await freeDirectPorts();
  const server = await startServer({
    moreDnsServers: [`127.0.0.1:${peerDirect.dnsPort}`],
    env: { DIRECT_SMARTHOSTS: `peer.example.net=127.0.0.1:${peerDirect.smtpPort}` },
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', server.dataDir);
  project.provide('direct', { smtpPort: server.smtpPort, dnsPort: server.dnsPort });
  project.provide('peerDirect', peerDirect);
  return server.stop;
}
