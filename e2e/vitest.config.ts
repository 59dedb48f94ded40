import { defineConfig } from 'vitest/config';

// `npm run e2e`: journeys in real Chromium against one server started by the global setup.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'test-results/**'],
    environment: 'node',
    globalSetup: ['./support/global-setup.ts'],
    // One server and 2 cores: files run one after another, tests inside a file in order.
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 30_000,
    // The first start seeds the demo world in an empty database: ~20 s on 2 cores, more on a busy CI box.
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
