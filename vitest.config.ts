import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// The server suite runs on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set.
const serverProject = (database: 'pglite' | 'postgres'): TestProjectInlineConfiguration => ({
  test: {
    name: database === 'pglite' ? 'server' : 'server-postgres',
    include: ['apps/server/src/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    provide: { testDatabase: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// `npm test`: every unit, API and component test. Needs no database server and no browser.
export default defineConfig({
  test: {
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
