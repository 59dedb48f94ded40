import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type Query, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

// Column names in SQL are the schema's field names in snake_case (drizzle.config.ts says the same to drizzle-kit).
const CASING = 'snake_case';

// One type for both drivers (STACK.md): code never knows which one it runs on.
export type Database = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Tx;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  // The driver's own client, for what drizzle does not offer: COPY (modules/directory/import).
  driver: { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; pool: pg.Pool };
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');
// Serializes migrations when several server processes start together on one PostgreSQL.
const MIGRATION_LOCK = 727_001;

// Every PGlite of the app, its tests and benches loads these: a database with an index that uses an extension
// (Intake's trigram search, migration 0008) cannot be opened without it.
export const pgliteExtensions = { pg_trgm };

export function openPglite(client: PGlite): DatabaseHandle {
  const db = drizzlePglite({ client, casing: CASING });
  return {
    db,
    kind: 'pglite',
    driver: { kind: 'pglite', client },
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

// A checked-out client whose connection dies is handed back to the pool (which discards it) at once, and its
// holder's own release() later is a no-op: drizzle's transaction() never releases its client when BEGIN
// fails, so without this every connection dropped at that moment would take one pool slot for good.
class ResilientPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    // pool.query() checks out with a callback and handles errors itself.
    if (callback) return super.connect(callback);
    return super.connect().then((client) => {
      const release = client.release.bind(client);
      let released = false;
      const releaseOnce = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        client.removeListener('error', onError);
        release(error);
      };
      const onError = (error: Error) => releaseOnce(error);
      client.on('error', onError);
      client.release = releaseOnce;
      return client;
    });
  }
}

export function openPostgres(connectionString: string, max = 10): DatabaseHandle {
  const pool = new ResilientPool({ connectionString, max, connectionTimeoutMillis: 5_000 });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool reconnects.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  // pg-pool listens for errors on idle clients only: a checked-out client whose connection drops would emit an
  // unhandled 'error' and crash the process. Its running query fails with that error, so listening is enough.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg({ client: pool, casing: CASING });
  return {
    db,
    kind: 'postgres',
    driver: { kind: 'postgres', pool },
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg({ client, casing: CASING }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

// PostgreSQL when DATABASE_URL is set, else the embedded PGlite under DATA_DIR/db.
export async function openDatabase(opts: { databaseUrl?: string | undefined; dataDir: string }): Promise<DatabaseHandle> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  const dir = path.join(opts.dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  return openPglite(await PGlite.create(dir, { extensions: pgliteExtensions }));
}

export async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

// Raw SQL rows: both drivers answer execute() with { rows }, which the shared type does not say.
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

const dialect = new PgDialect({ casing: CASING });

// A statement built once and kept, its values sql.placeholder()s, for a hot query whose `sql` template is large:
// drizzle's building of one can take as much CPU as PostgreSQL takes to run it.
export const compileQuery = (query: SQL): Query => dialect.sqlToQuery(query);

// Rows of a compiled statement, its placeholders filled from `values` (unnamed on the server: planned with them).
export async function queryCompiledRows<T>(db: DbOrTx, query: Query, values: Record<string, unknown>): Promise<T[]> {
  const result: unknown = await db._.session.prepareQuery(query, undefined, undefined, false).execute(values);
  return (result as { rows: T[] }).rows;
}
