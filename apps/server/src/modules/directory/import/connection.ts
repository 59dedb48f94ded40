import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DatabaseHandle } from '../../../db/client.ts';

// One database session for a whole import, on either driver: its temporary staging tables live as long as it
// does, and COPY goes through the driver's own client (PGlite: /dev/blob, pg: COPY FROM STDIN).

export interface ImportSession {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Loads CSV (NULL unquoted empty, values quoted) into table's columns. */
  copyCsv(table: string, columns: readonly string[], csv: string): Promise<void>;
  transaction<T>(work: (session: ImportSession) => Promise<T>): Promise<T>;
  release(): Promise<void>;
}

const copyStatement = (table: string, columns: readonly string[], source: string) =>
  `COPY ${table} (${columns.join(', ')}) FROM ${source} WITH (FORMAT csv)`;

export async function openImportSession(handle: Pick<DatabaseHandle, 'driver'>): Promise<ImportSession> {
  return handle.driver.kind === 'pglite' ? pgliteSession(handle.driver.client) : postgresSession(await handle.driver.pool.connect());
}

function pgliteSession(client: PGlite): ImportSession {
  const on = (runner: PGlite | Transaction): ImportSession => ({
    async query<T>(text: string, params: unknown[] = []) {
      return (await runner.query<T>(text, params)).rows;
    },
    async copyCsv(table, columns, csv) {
      await runner.query(copyStatement(table, columns, `'/dev/blob'`), [], { blob: new Blob([csv]) });
    },
    transaction: (work) => (runner === client ? client.transaction((tx) => work(on(tx))) : work(on(runner))),
    release: async () => undefined,
  });
  return on(client);
}

function postgresSession(client: pg.PoolClient): ImportSession {
  let inTransaction = false;
  const session: ImportSession = {
    async query<T>(text: string, params: unknown[] = []) {
      return (await client.query(text, params)).rows as T[];
    },
    async copyCsv(table, columns, csv) {
      await pipeline(Readable.from([csv]), client.query(copyFrom(copyStatement(table, columns, 'STDIN'))));
    },
    async transaction(work) {
      if (inTransaction) return work(session);
      await client.query('BEGIN');
      inTransaction = true;
      try {
        // A crash loses at most the last batches, which a re-run loads again: no need to wait for each flush. JIT
        // compiling each batch's upsert would cost more than running it.
        await client.query('SET LOCAL synchronous_commit = off; SET LOCAL jit = off');
        const result = await work(session);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        inTransaction = false;
      }
    },
    async release() {
      client.release();
    },
  };
  return session;
}
