import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite } from '../apps/server/src/db/client.ts';
import { seedDemo } from '../apps/server/src/db/seed/demo.ts';

export const PASSWORD = 'Demo-pass-2026!';

// The app on a fresh in-memory PGlite with the demo world, as every benchmark starts.
export async function benchApp() {
  const handle = openPglite(await PGlite.create());
  await handle.migrate();
  await seedDemo(handle.db, { demoPassword: PASSWORD, env: 'development' });
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-bench-')), LOGIN_RATE_LIMIT_PER_MINUTE: '100000' });
  const app = await buildApp({ config, db: handle.db, logger: false });
  await app.ready();
  const close = async () => {
    await app.close();
    await handle.close();
  };
  return { app, handle, config, close };
}
