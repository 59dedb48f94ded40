import { defineConfig } from 'vitest/config';

// `npm test`: every unit, API and component test. Needs no database server and no browser:
// server tests run on PGlite (and also on PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
