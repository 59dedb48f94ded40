import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { demoSignInLines, isSeeded, seedDemo } from './db/seed/demo.ts';

// Start-up: config → database → migrations → (demo world on an empty embedded database) → app → listen.
async function main() {
  const config = loadConfig();
  const handle = await openDatabase(config);
  await handle.migrate();
  const seedNow = handle.kind === 'pglite' && config.env !== 'production' && !(await isSeeded(handle.db));
  if (seedNow) await seedDemo(handle.db, config);
  const app = await buildApp({ config, db: handle.db });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const url = config.publicUrl ?? `http://localhost:${config.port}`;
  const lines = [`ClinicRelay is running at ${url} (${handle.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`];
  if (config.env !== 'production' && (await isSeeded(handle.db))) lines.push(...demoSignInLines(config.demoPassword));
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
