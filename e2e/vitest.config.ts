import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './support/workers.ts';

// `npm run e2e`: journeys in real Chromium, files spread over E2E_WORKERS workers, each with its own seeded server
// (global setup); within a worker files run one after another, tests inside a file in order.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'test-results/**'],
    environment: 'node',
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: E2E_WORKERS > 1,
    maxWorkers: E2E_WORKERS,
    sequence: { concurrent: false },
    // A worker's files share its modules and its Chromium (support/test.ts); each test still gets a new context.
    isolate: false,
    // A journey's steps, axe runs and screenshots take twice as long with two servers and two Chromiums on 2 cores.
    testTimeout: 60_000,
    // The first start seeds the demo world in an empty database: ~20 s on 2 cores, more on a busy CI box.
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
