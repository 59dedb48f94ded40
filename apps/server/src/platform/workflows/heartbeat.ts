import { hostname } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { workerHeartbeats } from '../../db/schema/messaging-rollups.ts';
import { errorText, type WorkflowLogger } from './context.ts';

// How often a process running workflow workers says it is alive (GET /api/diagnostics/worker reads it).
export const HEARTBEAT_INTERVAL_MS = 15_000;

// Writes this process's row now and every interval; stop() removes it, so a process that stopped cleanly is not
// reported as silent, while one that died stays until its silence is noticed.
export async function startHeartbeat(opts: {
  db: Database;
  workerId: string;
  lanes: { name: string; concurrency: number }[];
  logger: WorkflowLogger;
  intervalMs?: number;
}): Promise<{ stop(): Promise<void> }> {
  const { db, workerId, lanes, logger, intervalMs = HEARTBEAT_INTERVAL_MS } = opts;
  const beat = () =>
    db
      .insert(workerHeartbeats)
      .values({ workerId, host: hostname(), pid: process.pid, lanes })
      .onConflictDoUpdate({ target: workerHeartbeats.workerId, set: { lastSeenAt: sql`now()`, lanes } });
  await beat().catch((error: unknown) => logger.warn({ workerId, error: errorText(error) }, 'could not record worker heartbeat'));
  const timer = setInterval(() => {
    beat().catch((error: unknown) => logger.warn({ workerId, error: errorText(error) }, 'could not record worker heartbeat'));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await db
        .delete(workerHeartbeats)
        .where(eq(workerHeartbeats.workerId, workerId))
        .catch(() => undefined);
    },
  };
}
