import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres, pgliteExtensions, type DatabaseHandle } from '../db/client.ts';
import { DEFAULT_DEMO_PASSWORD } from '@clinicrelay/contracts/constants.ts';

export const TEST_PASSWORD = DEFAULT_DEMO_PASSWORD;

// The migrated, seeded template that global-setup.ts dumped once for the whole run.
let template: Blob | undefined;
const pgliteTemplate = (): Blob => (template ??= new Blob([readFileSync(inject('pgliteTemplate'))]));

// A copy of global-setup's migrated and seeded template. PostgreSQL refuses a copy while another session is connected
// to the template (55006), which two files starting at once can be: try again shortly.
async function copyTemplate(url: string, name: string) {
  for (let attempt = 1; ; attempt++) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}

// A fresh database with the demo world: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set
// (a new database on that server per call, dropped on close).
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (inject('testDatabase') === 'pglite' || !url) {
    const client = await PGlite.create({ loadDataDir: pgliteTemplate(), extensions: pgliteExtensions });
    return openPglite(client);
  }
  const name = `clinicrelay_test_${randomBytes(6).toString('hex')}`;
  await copyTemplate(url, name);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const handle = openPostgres(target.toString(), 4);
  return {
    ...handle,
    async close() {
      await handle.close();
      const drop = new pg.Client({ connectionString: url });
      await drop.connect();
      await drop.query(`drop database if exists ${name} with (force)`);
      await drop.end();
    },
  };
}
