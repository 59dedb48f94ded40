import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const SERVER_SRC = 'apps/server/src';

// Server test files that never open a database (certificates, PDF, CDA, S/MIME parsing…): running them again on
// PostgreSQL would test the same code twice, so the PostgreSQL project leaves them out.
function databaseFreeTests(): string[] {
  const root = path.join(import.meta.dirname, SERVER_SRC);
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  const usesDatabase = /test\/(app|database)\.ts|testDatabase/;
  return files.filter((f) => !usesDatabase.test(readFileSync(path.join(root, f), 'utf8'))).map((f) => path.posix.join(SERVER_SRC, f.split(path.sep).join('/')));
}

// The server suite runs on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set.
const serverProject = (database: 'pglite' | 'postgres'): TestProjectInlineConfiguration => ({
  test: {
    name: database === 'pglite' ? 'server' : 'server-postgres',
    include: [`${SERVER_SRC}/**/*.test.ts`],
    exclude: database === 'postgres' ? databaseFreeTests() : [],
    environment: 'node',
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    provide: { testDatabase: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The files share a worker's modules instead of importing the whole server again each (a third of a file's time
    // on 2 cores); no server test mocks a module, and each opens its own database.
    isolate: false,
  },
});

// `npm test`: every unit, API and component test. Needs no database server and no browser.
export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: a single worker on the 2-core CI machine, which left a core
    // idle while files waited on databases and the file workers. Two at least.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Once per run: the tests that read ../shared/fixtures are skipped without it, or fail under CI=true.
    globalSetup: ['apps/server/src/test/shared-fixtures-setup.ts'],
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      'apps/web/vite.config.ts',
    ],
  },
});
