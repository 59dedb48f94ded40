import Fastify from 'fastify';
import { loggerOptions } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { startBlobSweep } from './platform/blobs/blob-sweep.ts';
import { retentionRules, startRetentionSweep } from './platform/retention.ts';
import { exitOnUncaughtErrors } from './platform/process.ts';
import { workflowHandlers, workflowLanes } from './platform/workflows/registry.ts';
import { startWorkers } from './platform/workflows/runner.ts';
import { startDirectOperations } from './transports/direct/operations.ts';
import { startNotificationSchedule } from './modules/notifications/schedule.ts';
import { startMetricsServer } from './platform/metrics/metrics.ts';
import { startGeneratedReportsSchedule } from './modules/generated-reports/monthly-usage.ts';

// `npm run worker`: a process that only runs workflows, beside the server processes on the same
// PostgreSQL (same configuration and keys). config → database → migrations → workers.
async function main() {
  const config = loadConfig();
  // PGlite is one process's database: with the embedded default, `npm start` runs the workers itself.
  if (!config.databaseUrl) throw new ConfigError('npm run worker needs DATABASE_URL (a PostgreSQL server shared with the server processes).');
  // The server's pino set-up (level, redaction) without an HTTP server.
  const log = Fastify({ logger: loggerOptions(config.logLevel) }).log;
  const logger = log.child({ module: 'workflows' });
  exitOnUncaughtErrors(log);
  const handle = await openDatabase(config);
  await handle.migrate();
  const now = () => new Date();
  const workers = await startWorkers({
    db: handle.db,
    handlers: workflowHandlers({ config, db: handle.db, now }),
    lanes: workflowLanes(config, { workerProcess: true }),
    logger,
    now,
  });
  startBlobSweep({ db: handle.db, dataDir: config.dataDir, logger: log.child({ module: 'blob-sweep' }) });
  startRetentionSweep({ db: handle.db, rules: retentionRules(config), logger: log.child({ module: 'retention-sweep' }) });
  // The SMTP listener belongs to the server processes; the notification sweep and bundle refresh run here too.
  const direct = await startDirectOperations({ config, db: handle.db, now, logger: log.child({ module: 'direct' }), listen: false });
  const notifications = startNotificationSchedule({ db: handle.db, now, logger: log.child({ module: 'notifications' }) });
  // A worker's step counters are its own: with METRICS_TOKEN and METRICS_PORT it serves /metrics too (issue 27 §5).
  if (config.metrics.token && config.metrics.port !== undefined) await startMetricsServer({ db: handle.db, token: config.metrics.token, port: config.metrics.port, host: config.host });
  const generatedReports = startGeneratedReportsSchedule({ db: handle.db, now, logger: log.child({ module: 'generated-reports' }) });
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'worker shutting down');
    await direct.stop();
    notifications.stop();
    generatedReports.stop();
    await workers.stop();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
