import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { demoSignInLines, isSeeded, seedDemo, seedDemoFeatures } from './db/seed/demo.ts';
import { seedDemoResellers } from './db/seed/demo-resellers.ts';
import { seedDemoDirectory } from './db/seed/demo-directory.ts';
import { seedReferenceData } from './db/seed/reference.ts';
import { seedDemoMessages } from './db/seed/demo-messages.ts';
import { createBlobStore } from './platform/blobs/blob-store.ts';
import { startBlobSweep } from './platform/blobs/blob-sweep.ts';
import { retentionRules, startRetentionSweep } from './platform/retention.ts';
import { warmUpFileWorkers } from './platform/files/file-jobs.ts';
import { describeSmtp } from './platform/mail/settings.ts';
import { outboxDirOf } from './platform/mail/transports.ts';
import { exitOnUncaughtErrors } from './platform/process.ts';
import { terminateOcr } from './modules/extraction/ocr.ts';
import { sharedWorkerPool } from './platform/workers/worker-pool.ts';
import { workflowHandlers, workflowLanes } from './platform/workflows/registry.ts';
import { seedDemoCertificates } from './db/seed/demo-certificates.ts';
import { makePeerWorld, PEER_DEMO_CA_NAME, peerOrganizationName } from './db/seed/demo-peer.ts';
import { startWorkers, type Workers } from './platform/workflows/runner.ts';
import { startDirectOperations } from './transports/direct/operations.ts';
import { startNotificationSchedule } from './modules/notifications/schedule.ts';
import { startMetricsServer } from './platform/metrics/metrics.ts';
import { startGeneratedReportsSchedule } from './modules/generated-reports/monthly-usage.ts';
import { startCarequalityService } from './services/carequality-service/app.ts';
import { seedDemoEmergencies } from './db/seed/demo-emergencies.ts';

// Start-up: config → database → migrations → (demo world on an empty embedded database) → app → listen
// → workers.
async function main() {
  const config = loadConfig();
  const handle = await openDatabase(config);
  await handle.migrate();
  await seedReferenceData(handle.db);
  const seedNow = handle.kind === 'pglite' && config.env !== 'production' && !(await isSeeded(handle.db));
  const now = () => new Date();
  if (seedNow) {
    await seedDemo(handle.db, config);
    if (config.demoWorld === 'peer') await makePeerWorld(handle.db);
    await seedDemoFeatures(handle.db);
    await seedDemoResellers(handle.db);
    await seedDemoCertificates(handle.db, config.blobEncryptionKey, new Date(), config.demoWorld === 'peer' ? PEER_DEMO_CA_NAME : undefined);
    await seedDemoDirectory(handle);
    await seedDemoEmergencies(handle.db);
    // Committed as sends with their workflows queued: the workers started below deliver them. The peer starts empty.
    if (config.demoWorld === 'main') await seedDemoMessages({ db: handle.db, blobs: createBlobStore({ db: handle.db, dataDir: config.dataDir, key: config.blobEncryptionKey }), now });
  }
  const app = await buildApp({ config, db: handle.db, now });
  exitOnUncaughtErrors(app.log);
  // Set after listen; a signal during start-up has none to stop.
  let workers: Workers | undefined = undefined;
  let direct: Awaited<ReturnType<typeof startDirectOperations>> | undefined = undefined;
  let notifications: ReturnType<typeof startNotificationSchedule> | undefined = undefined;
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined = undefined;
  let generatedReports: ReturnType<typeof startGeneratedReportsSchedule> | undefined = undefined;
  let emergencyService: Awaited<ReturnType<typeof startCarequalityService>> | undefined = undefined;
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await emergencyService?.close();
    metricsServer?.close();
    await direct?.stop();
    notifications?.stop();
    generatedReports?.stop();
    await workers?.stop();
    await terminateOcr();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  // METRICS_PORT: /metrics on a port of its own (issue 27 §5), e.g. one only the monitoring network reaches.
  metricsServer = config.metrics.token && config.metrics.port !== undefined ? await startMetricsServer({ db: handle.db, token: config.metrics.token, port: config.metrics.port, host: config.host }) : undefined;
  // Issue 29 §6: the emergency-organization (Carequality-type) service, a second application on its own port.
  const { emergencyService: emergencySettings } = config;
  if (emergencySettings.port !== null) emergencyService = await startCarequalityService({ config, db: handle.db, now, port: emergencySettings.port, host: emergencySettings.host });
  void warmUpFileWorkers(sharedWorkerPool(config.fileWorkers));
  workers = await startWorkers({
    db: handle.db,
    handlers: workflowHandlers({ config, db: handle.db, now }),
    lanes: workflowLanes(config),
    logger: app.log.child({ module: 'workflows' }),
    now,
  });
  direct = await startDirectOperations({ config, db: handle.db, now, logger: app.log.child({ module: 'direct' }), listen: true });
  notifications = startNotificationSchedule({ db: handle.db, now, logger: app.log.child({ module: 'notifications' }) });
  generatedReports = startGeneratedReportsSchedule({ db: handle.db, now, logger: app.log.child({ module: 'generated-reports' }) });
  // Files left by a process killed between writing a blob and committing its row.
  startBlobSweep({ db: handle.db, dataDir: config.dataDir, logger: app.log.child({ module: 'blob-sweep' }) });
  // Secure logs past SECURE_LOG_RETENTION_DAYS, dashboard rollups past MESSAGING_ROLLUP_RETENTION_DAYS.
  startRetentionSweep({ db: handle.db, rules: retentionRules(config), logger: app.log.child({ module: 'retention-sweep' }) });
  // Said at every start, like in /api/health, so running without a virus scanner is never a surprise.
  if (!config.clamd) app.log.warn('CLAMD_URL is not set: uploads and received messages are not scanned for viruses');
  if (!config.smtp && config.env === 'production') app.log.warn('SMTP_URL is not set: mail is written to DATA_DIR/outbox, not sent');
  const url = config.appUrl;
  const lines = [`ClinicRelay is running at ${url} (${handle.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`];
  lines.push(config.smtp ? `Mail is sent through ${describeSmtp(config.smtp)}` : `Mail is written as .eml files to ${outboxDirOf(config.dataDir)} (SMTP_URL is not set)`);
  lines.push(emergencyService ? `The emergency-organization service is running at ${emergencySettings.url}` : `The emergency-organization service is expected at ${emergencySettings.url} (EMERGENCY_SERVICE_PORT=off)`);
  if (direct.listener) lines.push(`Direct (S/MIME over SMTP) is received on port ${direct.listener.port} as ${config.direct.hostname}`);
  if (direct.publisher) lines.push(`Direct certificates (DNS CERT records) are published on ${direct.publisher.host}:${direct.publisher.port}/udp+tcp`);
  if (config.env !== 'production' && (await isSeeded(handle.db))) lines.push(...demoSignInLines(config.demoPassword, config.demoWorld === 'peer' ? peerOrganizationName : undefined));
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
