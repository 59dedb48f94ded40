import { inject } from 'vitest';
import type { DirectPorts } from './server.ts';

export interface E2EServer {
  index: number;
  baseUrl: string;
  // The server's DATA_DIR: journeys read what it writes there (the mail outbox's .eml files).
  dataDir: string;
  // Its Direct ports, and the ones kept for a peer installation a journey may start (direct-exchange).
  direct: DirectPorts;
  peerDirect: DirectPorts;
}

/** The server of this worker: files in one worker run one after another, so a server never sees two files at once. */
export function currentServer(): E2EServer {
  const servers = inject('servers');
  const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
  return servers[(poolId - 1) % servers.length]!;
}
