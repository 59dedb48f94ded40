import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite, openPostgres, pgliteExtensions, type DatabaseHandle } from '../apps/server/src/db/client.ts';
import { seedDemo } from '../apps/server/src/db/seed/demo.ts';
import { TINY } from './size.ts';

export const PASSWORD = 'Demo-pass-2026!';

// The PostgreSQL server a benchmark may run on: BENCH_DATABASE_URL, else TEST_DATABASE_URL (not in a tiny run, which
// stays on PGlite unless asked); undefined when neither is set or the server does not answer.
export async function benchPostgresUrl(): Promise<string | undefined> {
  const url = process.env.BENCH_DATABASE_URL || (TINY ? undefined : process.env.TEST_DATABASE_URL);
  if (!url) return undefined;
  const server = openPostgres(url, 1);
  try {
    await server.db.execute(sql`select 1`);
    return url;
  } catch {
    return undefined;
  } finally {
    await server.close().catch(() => undefined);
  }
}

// Through the server's maintenance connection (create or drop database cannot run in a transaction).
async function adminQuery(url: string, statement: string) {
  const server = openPostgres(url, 1);
  try {
    await server.db.execute(sql.raw(statement));
  } finally {
    await server.close();
  }
}

// A fresh database: in-memory PGlite, or (databaseUrl) a new database on that PostgreSQL server,
// dropped on close, as the server tests do.
async function freshDatabase(databaseUrl: string | undefined): Promise<DatabaseHandle> {
  if (!databaseUrl) return openPglite(await PGlite.create({ extensions: pgliteExtensions }));
  const name = `clinicrelay_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(databaseUrl, `create database ${name}`);
  const target = new URL(databaseUrl);
  target.pathname = `/${name}`;
  // The server's own pool size: the load figures measure what a server process does.
  const handle = openPostgres(target.toString());
  return {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(databaseUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

// The app on a fresh database with the demo world, as every benchmark starts: in-memory PGlite by
// default, a new database on the PostgreSQL server at `databaseUrl` when given.
export async function benchApp(options: { databaseUrl?: string | undefined } = {}) {
  const handle = await freshDatabase(options.databaseUrl);
  await handle.migrate();
  await seedDemo(handle.db, { demoPassword: PASSWORD, env: 'development' });
  // The demo administrators have no second factor: the enrolment gate (one column of the session lookup every request
  // makes either way) is off, as in the server tests, so they reach the routes measured.
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-bench-')),
    LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
    REQUIRE_ADMIN_TWO_FACTOR: 'false',
  });
  const app = await buildApp({ config, db: handle.db, logger: false });
  await app.ready();
  const close = async () => {
    await app.close();
    await handle.close();
  };
  return { app, handle, config, close };
}
