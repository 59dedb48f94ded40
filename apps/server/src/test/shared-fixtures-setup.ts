import { fixturesDir, hasFixtures } from './shared-fixtures.ts';

// Global setup of the whole run (vitest.config.ts): says once why the tests that read ../shared/fixtures
// are skipped, or fails the run under CI=true, where they must never be skipped silently.
export function setup(): void {
  if (hasFixtures) return;
  if (process.env.CI === 'true') {
    throw new Error(`The shared fixtures are missing (${fixturesDir}): CI must run the tests that read them. Check out ../shared beside the project.`);
  }
  console.warn(`Shared fixtures not found at ${fixturesDir}: the tests that read them are skipped (CI=true makes this an error).`);
}
